"""Histogram trees grown level by level on the device: the engine of ember's random forests.

Features are cut once into at most ``max_bins`` quantile bins (thresholds are midpoints between
consecutive distinct values, as scikit-learn's, so a feature with few distinct values is split exactly).
A tree then grows one depth level at a time: for every open node and each of its sampled features, one
``bincount`` builds the per-bin statistics (class weights, or w / w*y / w*y^2 for regression, plus the
count of distinct rows); a cumulative sum over the bins gives every candidate split's left side at once,
and one argmin per node picks the best. No loop touches rows or nodes; the host reads two small
arrays per level (how many nodes split, and where each node's rows start).

Nodes are stored in arrays like scikit-learn's ``tree_`` (feature -1 for leaves); prediction walks all
trees of a forest at once, one depth step per iteration.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType
from typing import Any

import numpy as np

from ember import backend

EPSILON = np.finfo(np.float64).eps
_HIST_DEVICE = 1 << 25
_HIST_HOST = 1 << 21
_RETRIES = 2  # extra feature draws for nodes whose sampled features were all constant
_SPARSE_BELOW = 4  # a level's nodes averaging fewer rows than n_bins / 4 are searched over present bins


# --- binning ---------------------------------------------------------------------------------------------


def quantile_edges(
    X: Any, max_bins: int, xp: ModuleType, rs: np.random.RandomState, subsample: int = 200_000
) -> Any:
    """(n_features, max_bins - 1) ascending thresholds; +inf pads features with few distinct values.

    Each edge is the midpoint between a quantile of a row subsample and the next larger distinct value,
    so ``x <= edge`` separates distinct values exactly as scikit-learn's split thresholds do."""
    n, p = X.shape
    if n > subsample:
        X = X[xp.asarray(np.sort(rs.choice(n, subsample, replace=False)))]
    S = xp.sort(X, axis=0).astype(xp.float64)
    m = S.shape[0]
    pos = xp.minimum((xp.arange(1, max_bins) * m) // max_bins, m - 1)
    edges = xp.empty((p, max_bins - 1), dtype=xp.float64)
    for f in range(p):  # a loop over features: each one a vectorised search
        col = S[:, f]
        v = col[pos]
        nxt_pos = xp.searchsorted(col, v, side="right")
        has_next = nxt_pos < m
        nxt = col[xp.minimum(nxt_pos, m - 1)]
        mid = v / 2 + nxt / 2
        mid = xp.where((mid == nxt) | ~xp.isfinite(mid), v, mid)
        edges[f] = xp.where(has_next, mid, xp.inf)
    edges = xp.sort(edges, axis=1)
    dup = xp.zeros(edges.shape, dtype=bool)
    dup[:, 1:] = edges[:, 1:] == edges[:, :-1]
    edges = xp.sort(xp.where(dup, xp.inf, edges), axis=1)  # distinct edges first, then +inf padding
    width = int(backend.to_host(xp.isfinite(edges).sum(axis=1).max())) if p else 0
    return edges[:, : max(width, 1)]  # fewer bins when no feature needs max_bins


def bin_data(X: Any, edges: Any, xp: ModuleType) -> Any:
    """Bin index of every value: the number of edges strictly below it (x <= edges[b] <=> bin <= b)."""
    dtype = xp.uint8 if edges.shape[1] < 256 else xp.uint16
    out = xp.empty(X.shape, dtype=dtype)
    for f in range(X.shape[1]):
        out[:, f] = xp.searchsorted(edges[f], X[:, f], side="left").astype(dtype)
    return out


# --- the tree ----------------------------------------------------------------------------------------------


@dataclass
class GrowParams:
    """Resolved stopping rules and criterion of one forest's trees."""

    classification: bool
    criterion: str  # 'gini', 'entropy' or 'squared_error'
    n_classes: int
    max_depth: int
    min_samples_split: int
    min_samples_leaf: int
    min_weight_leaf: float
    min_impurity_decrease: float
    max_features: int


@dataclass
class HistTree:
    """One fitted tree as node arrays on the compute device (scikit-learn's ``tree_`` layout)."""

    feature: Any  # int64, -1 at leaves
    threshold: Any  # float64: go left when x <= threshold
    children_left: Any
    children_right: Any
    value: Any  # (node_count, n_outputs_values): class fractions or the mean target
    impurity: Any
    n_node_samples: Any
    weighted_n_node_samples: Any
    max_depth: int

    @property
    def node_count(self) -> int:
        return int(self.feature.shape[0])

    def importances(self, n_features: int, xp: ModuleType) -> Any:
        """Weighted impurity decrease per feature, normalised to sum 1 (0s for a stump)."""
        split = self.feature >= 0
        left, right = self.children_left[split], self.children_right[split]
        W, imp = self.weighted_n_node_samples, self.impurity
        gain = W[split] * imp[split] - W[left] * imp[left] - W[right] * imp[right]
        out = xp.bincount(self.feature[split], weights=gain, minlength=n_features).astype(xp.float64)
        total = out.sum()
        return out / xp.where(total > 0, total, 1)


@dataclass
class _TreeData:
    """What every level of a batch of trees reads: binned features, the target, bin edges, the
    histogram memory budget (row weights travel with the rows: each tree has its own bootstrap)."""

    Xb: Any
    y: Any
    edges: Any
    n_bins: int
    budget: int
    params: GrowParams
    xp: ModuleType


def node_impurity(S: Any, params: GrowParams, xp: ModuleType) -> tuple[Any, Any, Any]:
    """(impurity, weight, row count) of statistics ``S`` (..., channels)."""
    if params.classification:
        C = params.n_classes
        W = S[..., :C].sum(axis=-1)
        p = S[..., :C] / xp.where(W > 0, W, 1)[..., None]
        if params.criterion == "gini":
            imp = 1.0 - (p * p).sum(axis=-1)
        else:
            imp = -(p * xp.log2(xp.where(p > 0, p, 1))).sum(axis=-1)
        return xp.maximum(imp, 0), W, S[..., C]
    W = S[..., 0]
    safe = xp.where(W > 0, W, 1)
    mean = S[..., 1] / safe
    return xp.maximum(S[..., 2] / safe - mean * mean, 0), W, S[..., 3]


def _weighted_impurity(S: Any, params: GrowParams, xp: ModuleType) -> tuple[Any, Any, Any]:
    """(weight x impurity, weight, row count) of statistics ``S``: ``node_impurity``'s product in
    closed form, with fewer passes over the large split tensors (gini: W - sum(S_c^2)/W; entropy:
    W log2 W - sum(S_c log2 S_c); squared error: sum(w y^2) - (sum(w y))^2 / W)."""
    if params.classification:
        C = params.n_classes
        counts = S[..., :C]
        W = _sum_classes(counts)
        safe = xp.where(W > 0, W, 1)
        if params.criterion == "gini":
            cost = W - _sum_classes(counts * counts) / safe
        else:
            plogp = counts * xp.log2(xp.where(counts > 0, counts, 1))
            cost = W * xp.log2(safe) - _sum_classes(plogp)
        return xp.maximum(cost, 0), W, S[..., C]
    W = S[..., 0]
    cost = S[..., 2] - S[..., 1] * S[..., 1] / xp.where(W > 0, W, 1)
    return xp.maximum(cost, 0), W, S[..., 3]


def _split_score(L: Any, R: Any, has_threshold: Any, params: GrowParams, xp: ModuleType) -> Any:
    """Weighted child impurity of candidate splits with left/right statistics ``L`` / ``R`` (inf where
    a side breaks min_samples_leaf / min_weight_leaf or the bin has no threshold)."""
    (costL, WL, nL), (costR, WR, nR) = _weighted_impurity(L, params, xp), _weighted_impurity(R, params, xp)
    msl, mwl = params.min_samples_leaf, params.min_weight_leaf
    valid = (nL >= msl) & (nR >= msl) & (WL > 0) & (WR > 0) & (WL >= mwl) & (WR >= mwl) & has_threshold
    return xp.where(valid, costL + costR, xp.inf)


def _no_worse(score: Any, node_score: Any, xp: ModuleType) -> Any:
    """A split's children are no more impure than the node (to rounding): it may be taken."""
    return score <= node_score + 1e-12 * xp.abs(node_score) + EPSILON


def _sum_classes(a: Any) -> Any:
    """Sum over the (short) last axis as elementwise adds of its slices: a reduction over an axis of a
    few elements runs per element in NumPy and as a tiny segment per output in CuPy."""
    if a.shape[-1] > 16:
        return a.sum(axis=-1)
    out = a[..., 0].copy()
    for c in range(1, a.shape[-1]):
        out += a[..., c]
    return out


def _channels(y: Any, w: Any, xp: ModuleType) -> Any:
    """Per-row statistics for regression (w, w*y, w*y^2); classification uses (class, w) directly."""
    return xp.stack([w, w * y, w * y * y], axis=1)


def _histograms(
    rows: Any,
    ew: Any,
    cn: Any,
    lo: int,
    hi: int,
    feats: Any,
    Xb: Any,
    y: Any,
    n_bins: int,
    params: GrowParams,
    xp: ModuleType,
) -> Any:
    """(hi - lo, mtry, n_bins, channels) statistics of the compact nodes [lo, hi) over their features;
    ``ew`` is each row's weight in its tree."""
    mtry = feats.shape[1]
    local = cn - lo
    b = Xb[rows[:, None], feats[cn]].astype(xp.int64)
    base = ((local[:, None] * mtry + xp.arange(mtry)) * n_bins + b).ravel()
    size = (hi - lo) * mtry * n_bins
    counts = xp.bincount(base, minlength=size).astype(xp.float64)
    if params.classification:
        C = params.n_classes
        idx = (base.reshape(-1, mtry) * C + y[rows][:, None]).ravel()
        wr = xp.broadcast_to(ew[:, None], (rows.shape[0], mtry)).ravel()
        cls = xp.bincount(idx, weights=wr, minlength=size * C).reshape(size, C)
        H = xp.concatenate([cls, counts[:, None]], axis=1)
    else:
        stats = _channels(y[rows], ew, xp)
        ch = [
            xp.bincount(
                base,
                weights=xp.broadcast_to(stats[:, c][:, None], (rows.shape[0], mtry)).ravel(),
                minlength=size,
            )
            for c in range(3)
        ]
        H = xp.stack([*ch, counts], axis=1)
    return H.reshape(hi - lo, mtry, n_bins, -1)


def _best_splits(
    H: Any, T: Any, node_score: Any, feat_edges: Any, params: GrowParams, xp: ModuleType
) -> tuple[Any, Any, Any, Any]:
    """Per node: (found, flat best index, left statistics, weighted child impurity) from histograms H."""
    L = xp.cumsum(H, axis=2)[:, :, :-1, :]
    R = T[:, None, None, :] - L
    score = _split_score(L, R, xp.isfinite(feat_edges), params, xp)
    flat = score.reshape(score.shape[0], -1)
    best = xp.argmin(flat, axis=1)
    rows = xp.arange(flat.shape[0])
    best_score = flat[rows, best]
    found = xp.isfinite(best_score) & _no_worse(best_score, node_score, xp)
    Lbest = L.reshape(L.shape[0], -1, L.shape[-1])[rows, best]
    return found, best, Lbest, best_score


def grow_trees(
    Xb: Any, edges: Any, y: Any, ws: list[Any], params: GrowParams, xp: ModuleType, rs: np.random.RandomState
) -> list[HistTree]:
    """Grow one tree per row-weight vector in ``ws`` (0 = out of bag) on binned data ``Xb``, all at once.

    The trees' nodes share every level's arrays (each tree's nodes contiguous, trees in order), so a
    level costs the same launches and host reads for a batch of trees as for one: a tree alone is a
    few milliseconds of device work, far less than the Python that drives it."""
    n_trees = len(ws)
    n_bins = edges.shape[1] + 1
    p = Xb.shape[1]
    budget = _HIST_HOST if xp is np else _HIST_DEVICE
    gen = xp.random.RandomState(rs.randint(np.iinfo(np.int32).max))
    rows, ew, node_of = _in_bag(ws, xp)
    S = _root_stats(ws, y, params, xp)
    total_w = _sum_classes(S[:, : params.n_classes]) if params.classification else S[:, 0]
    tree_of = xp.arange(n_trees, dtype=xp.int64)
    levels: list[dict[str, Any]] = []
    data = _TreeData(Xb, y, edges, n_bins, budget, params, xp)
    start, depth = 0, 0
    while True:
        m = S.shape[0]
        imp, W, cnt = node_impurity(S, params, xp)
        level = {
            "value": _values(S, params, xp),
            "impurity": imp,
            "W": W,
            "n": cnt,
            "tree": tree_of,
            "depth": xp.full(m, depth, dtype=xp.int64),
            "feature": xp.full(m, -1, dtype=xp.int64),
            "threshold": xp.full(m, -2.0),
            "left": xp.full(m, -1, dtype=xp.int64),
            "right": xp.full(m, -1, dtype=xp.int64),
        }
        levels.append(level)
        can = (
            (cnt >= params.min_samples_split)
            & (cnt >= 2 * params.min_samples_leaf)
            & (W >= 2 * params.min_weight_leaf)
            & (imp > EPSILON)
        )
        if depth >= params.max_depth:
            break
        cidx = xp.cumsum(can) - 1
        keep = can[node_of]
        rows, ew, node_of = rows[keep], ew[keep], node_of[keep]
        order = xp.argsort(node_of)
        rows, ew, cn = rows[order], ew[order], cidx[node_of[order]]
        ms = int(backend.to_host(can.sum()))
        if ms == 0:
            break
        ms_counts = xp.bincount(cn, minlength=ms)
        offsets = backend.to_host(xp.concatenate([xp.zeros(1, xp.int64), xp.cumsum(ms_counts)]))
        can_idx = xp.flatnonzero(can)
        feats = _sample_features(ms, p, params.max_features, gen, xp)
        node_score = (W * imp)[can_idx]
        T = S[can_idx]
        found, best, Lbest, score = _split_level(data, rows, ew, cn, offsets, ms, feats, T, node_score)
        for _ in range(_RETRIES if params.max_features < p else 0):
            found, best, Lbest, score, feats = _retry(
                data, rows, ew, cn, ms, (found, best, Lbest, score), feats, T, node_score, gen
            )
        gain = (node_score - score) / total_w[tree_of[can_idx]]
        found &= gain + EPSILON >= params.min_impurity_decrease
        n_split = int(backend.to_host(found.sum()))
        if n_split == 0:
            break
        j, b = best // (n_bins - 1), best % (n_bins - 1)
        f = feats[xp.arange(ms), j]
        rank = xp.cumsum(found) - 1
        nxt = start + m
        sel = can_idx[found]
        level["feature"][sel] = f[found]
        level["threshold"][sel] = edges[f[found], b[found]]
        level["left"][sel] = nxt + 2 * rank[found]
        level["right"][sel] = nxt + 2 * rank[found] + 1
        Lf = Lbest[found]
        S = xp.stack([Lf, T[found] - Lf], axis=1).reshape(2 * n_split, -1)
        tree_of = xp.repeat(tree_of[sel], 2)
        moving = found[cn]
        rows, ew, cn = rows[moving], ew[moving], cn[moving]
        go_right = Xb[rows, f[cn]] > b[cn]
        node_of = 2 * rank[cn] + go_right.astype(xp.int64)
        start, depth = nxt, depth + 1
    return _split_trees(levels, n_trees, xp)


def _in_bag(ws: list[Any], xp: ModuleType) -> tuple[Any, Any, Any]:
    """(row, weight, tree) of every in-bag row of every tree, trees in order."""
    rows = [xp.flatnonzero(w > 0) for w in ws]
    ew = xp.concatenate([w[r] for w, r in zip(ws, rows, strict=True)])
    tree = xp.concatenate([xp.full(r.shape[0], t, dtype=xp.int64) for t, r in enumerate(rows)])
    return xp.concatenate(rows), ew, tree


def _root_stats(ws: list[Any], y: Any, params: GrowParams, xp: ModuleType) -> Any:
    """(n_trees, channels) statistics of every tree's root, a reduction per tree: one bincount over
    all trees' rows would add each tree's values with contended atomics in no fixed order, and the
    roots' last bits would change the chosen splits from one fit to the next."""
    roots = []
    for w in ws:  # a loop over the batch's trees, not rows
        rows = xp.flatnonzero(w > 0)
        n_in = xp.asarray([float(rows.shape[0])])
        if params.classification:
            cls = xp.bincount(y[rows], weights=w[rows], minlength=params.n_classes).astype(xp.float64)
            roots.append(xp.concatenate([cls, n_in]))
        else:
            roots.append(xp.concatenate([_channels(y[rows], w[rows], xp).sum(axis=0), n_in]))
    return xp.stack(roots)


def _values(S: Any, params: GrowParams, xp: ModuleType) -> Any:
    if params.classification:
        C = params.n_classes
        W = S[:, :C].sum(axis=1, keepdims=True)
        return S[:, :C] / xp.where(W > 0, W, 1)
    return (S[:, 1] / xp.where(S[:, 0] > 0, S[:, 0], 1))[:, None]


def _sample_features(ms: int, p: int, mtry: int, gen: Any, xp: ModuleType) -> Any:
    """(ms, mtry) distinct features per node, drawn uniformly (all features, in order, when mtry = p)."""
    if mtry >= p:
        return xp.broadcast_to(xp.arange(p, dtype=xp.int64), (ms, p))
    keys = gen.random_sample((ms, p))
    return xp.argsort(keys, axis=1)[:, :mtry].astype(xp.int64)


def _sparse_splits(
    data: _TreeData, rows: Any, ew: Any, cn: Any, ms: int, feats: Any, T: Any, node_score: Any
) -> tuple[Any, Any, Any, Any]:
    """``_best_splits`` over the bins that hold rows only, for levels whose nodes hold few rows (deep
    levels: a node of 30 rows would otherwise scan mtry x n_bins histogram cells). The (node, feature,
    bin) keys of every (row, sampled feature) are sorted; runs of equal keys give the present bins'
    statistics, a running sum inside each (node, feature) their left sides. A split between two present
    bins partitions like one at the lower of them, which is also where the dense argmin (first of equal
    scores) lands, so the answer is the dense search's. Nodes without a valid split: found False."""
    from ember.backend.primitives import scatter_min, stable_argsort

    Xb, y, edges, n_bins, params, xp = data.Xb, data.y, data.edges, data.n_bins, data.params, data.xp
    mtry = feats.shape[1]
    b = Xb[rows[:, None], feats[cn]].astype(xp.int64)
    key = ((cn[:, None] * mtry + xp.arange(mtry)) * n_bins + b).ravel()
    order = stable_argsort(key)  # rows keep their order inside a bin: sums as the dense bincount's
    ks = key[order]
    row_of = order // mtry  # the (row, feature) element's row within ``rows``
    new = xp.ones(ks.shape[0], dtype=bool)
    new[1:] = ks[1:] != ks[:-1]
    run = xp.cumsum(new) - 1
    nruns = int(run[-1]) + 1 if ks.shape[0] else 0
    starts = xp.flatnonzero(new)
    if params.classification:
        C = params.n_classes
        cls = y[rows][row_of]
        wr = ew[row_of]
        chans = [xp.bincount(run, weights=xp.where(cls == c, wr, 0.0), minlength=nruns) for c in range(C)]
    else:
        sr = _channels(y[rows], ew, xp)[row_of]
        chans = [xp.bincount(run, weights=sr[:, c], minlength=nruns) for c in range(3)]
    chans.append(xp.bincount(run, minlength=nruns).astype(xp.float64))
    S_run = xp.stack(chans, axis=1)
    rk = ks[starts]
    group = rk // n_bins  # node * mtry + feature
    node, j, bin_ = rk // (mtry * n_bins), group % mtry, rk % n_bins
    first = xp.ones(nruns, dtype=bool)
    first[1:] = group[1:] != group[:-1]
    gid = xp.cumsum(first) - 1
    pos = xp.arange(nruns, dtype=xp.int64) - xp.flatnonzero(first)[gid]
    width = int(pos.max()) + 1 if nruns else 1
    # each group's running sum along its own row of a small matrix: the same additions, in the same
    # order, as the dense cumulative sum over bins (empty bins add exact zeros)
    M = xp.zeros((int(gid[-1]) + 1 if nruns else 0, width, S_run.shape[1]))
    M[gid, pos] = S_run
    L = xp.cumsum(M, axis=1)[gid, pos]
    R = T[node] - L
    has_threshold = (bin_ < n_bins - 1) & xp.isfinite(edges[feats[node, j], xp.minimum(bin_, n_bins - 2)])
    score = _split_score(L, R, has_threshold, params, xp)
    node_min = xp.full(ms, xp.inf)
    scatter_min(node_min, node, score)
    flat = j * (n_bins - 1) + bin_
    hit = xp.isfinite(score) & (score == node_min[node])
    big = np.int64(mtry * n_bins)
    best = xp.full(ms + 1, big, dtype=xp.int64)
    scatter_min(best, xp.where(hit, node, ms), flat)
    best = best[:ms]
    found = best < big
    best = xp.where(found, best, 0)
    # the chosen run of each node: its (node, feature, bin) key is present
    chosen = xp.full(ms + 1, nruns, dtype=xp.int64)
    scatter_min(chosen, xp.where(hit & (flat == best[node]), node, ms), xp.arange(nruns, dtype=xp.int64))
    pick = xp.minimum(chosen[:ms], max(nruns - 1, 0))
    Lbest = xp.where(found[:, None], L[pick], 0.0) if nruns else xp.zeros((ms, S_run.shape[1]))
    best_score = xp.where(found, node_min, xp.inf)
    found &= _no_worse(best_score, node_score, xp)
    return found, best, Lbest, best_score


def _split_level(
    data: _TreeData,
    rows: Any,
    ew: Any,
    cn: Any,
    offsets: np.ndarray,
    ms: int,
    feats: Any,
    T: Any,
    node_score: Any,
) -> tuple[Any, Any, Any, Any]:
    """Best split of each open node: over the present bins when the nodes hold few rows (deep levels),
    else histogramming chunks of nodes that fit the memory budget."""
    n_bins, params, xp = data.n_bins, data.params, data.xp
    if rows.shape[0] * _SPARSE_BELOW < ms * n_bins:
        return _sparse_splits(data, rows, ew, cn, ms, feats, T, node_score)
    mtry = feats.shape[1]
    ch = (params.n_classes if params.classification else 3) + 1
    per_node = mtry * n_bins * ch
    step = max(1, data.budget // per_node)
    parts = []
    for lo in range(0, ms, step):
        hi = min(ms, lo + step)
        r0, r1 = int(offsets[lo]), int(offsets[hi])
        H = _histograms(rows[r0:r1], ew[r0:r1], cn[r0:r1], lo, hi, feats, data.Xb, data.y, n_bins, params, xp)
        fe = data.edges[feats[lo:hi]]  # (nodes, mtry, n_bins - 1)
        parts.append(_best_splits(H, T[lo:hi], node_score[lo:hi], fe, params, xp))
    return tuple(xp.concatenate([p[i] for p in parts]) for i in range(4))


def _retry(
    data: _TreeData,
    rows: Any,
    ew: Any,
    cn: Any,
    ms: int,
    splits: tuple[Any, Any, Any, Any],
    feats: Any,
    T: Any,
    node_score: Any,
    gen: Any,
) -> tuple[Any, ...]:
    """Nodes whose sampled features were all constant draw fresh features (scikit-learn keeps drawing
    until it meets a non-constant one); the others keep their split. One host read of the node count."""
    xp = data.xp
    found, best, Lbest, score = splits
    redo = ~found
    n_redo = int(backend.to_host(redo.sum()))
    if n_redo == 0:
        return found, best, Lbest, score, feats
    ridx = xp.flatnonzero(redo)
    rc = xp.cumsum(redo) - 1
    sel = redo[cn]
    r_rows, r_ew, r_cn = rows[sel], ew[sel], rc[cn[sel]]
    counts = xp.bincount(r_cn, minlength=n_redo)
    offsets = backend.to_host(xp.concatenate([xp.zeros(1, xp.int64), xp.cumsum(counts)]))
    r_feats = _sample_features(n_redo, data.Xb.shape[1], data.params.max_features, gen, xp)
    f2, b2, L2, s2 = _split_level(
        data, r_rows, r_ew, r_cn, offsets, n_redo, r_feats, T[ridx], node_score[ridx]
    )
    found, best, Lbest, score, feats = found.copy(), best.copy(), Lbest.copy(), score.copy(), feats.copy()
    found[ridx], best[ridx], Lbest[ridx], score[ridx], feats[ridx] = f2, b2, L2, s2, r_feats
    return found, best, Lbest, score, feats


def _split_trees(levels: list[dict[str, Any]], n_trees: int, xp: ModuleType) -> list[HistTree]:
    """The batch's level arrays cut into one ``HistTree`` per tree: each tree's nodes in the order it
    met them (level by level, as a tree grown alone), child ids renumbered within the tree. One host
    read: the node count and depth of every tree."""
    from ember.backend.primitives import scatter_max, stable_argsort

    def cat(key: str) -> Any:
        return xp.concatenate([lv[key] for lv in levels])

    tree = cat("tree")
    order = stable_argsort(tree)
    new_id = xp.empty_like(order)
    new_id[order] = xp.arange(order.shape[0], dtype=xp.int64)
    sizes = xp.bincount(tree, minlength=n_trees)
    first = xp.cumsum(sizes) - sizes
    local = new_id - first[tree]  # a node's index within its own tree

    def renumber(children: Any) -> Any:
        return xp.where(children >= 0, local[xp.maximum(children, 0)], -1)[order]

    depth = xp.zeros(n_trees, dtype=xp.int64)
    scatter_max(depth, tree, cat("depth"))
    sizes_h, depth_h = backend.to_host(xp.stack([sizes, depth]))
    fields = {
        "feature": cat("feature")[order],
        "threshold": cat("threshold")[order],
        "children_left": renumber(cat("left")),
        "children_right": renumber(cat("right")),
        "value": cat("value")[order],
        "impurity": cat("impurity")[order],
        "n_node_samples": cat("n").astype(xp.int64)[order],
        "weighted_n_node_samples": cat("W")[order],
    }
    bounds = np.concatenate([[0], np.cumsum(sizes_h)])
    return [
        HistTree(**{k: v[bounds[t] : bounds[t + 1]] for k, v in fields.items()}, max_depth=int(depth_h[t]))
        for t in range(n_trees)
    ]


# --- prediction --------------------------------------------------------------------------------------------


@dataclass
class StackedTrees:
    """All trees of a forest in one set of node arrays (child ids shifted by each tree's offset)."""

    feature: Any
    threshold: Any
    left: Any
    right: Any
    value: Any
    roots: Any
    max_depth: int


def stack_trees(trees: list[HistTree], xp: ModuleType) -> StackedTrees:
    sizes = [t.node_count for t in trees]
    offs = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)

    def shift(a: Any, off: int) -> Any:
        return xp.where(a >= 0, a + off, a)

    return StackedTrees(
        feature=xp.concatenate([t.feature for t in trees]),
        threshold=xp.concatenate([t.threshold for t in trees]),
        left=xp.concatenate([shift(t.children_left, int(o)) for t, o in zip(trees, offs, strict=True)]),
        right=xp.concatenate([shift(t.children_right, int(o)) for t, o in zip(trees, offs, strict=True)]),
        value=xp.concatenate([t.value for t in trees]),
        roots=xp.asarray(offs),
        max_depth=max(t.max_depth for t in trees),
    )


def leaves(st: StackedTrees, X: Any, xp: ModuleType) -> Any:
    """(n_rows, n_trees) leaf node of every row in every tree: one vectorised step per depth level."""
    n = X.shape[0]
    node = xp.broadcast_to(st.roots[None, :], (n, st.roots.shape[0])).copy()
    rows = xp.arange(n)[:, None]
    for _ in range(st.max_depth):
        f = st.feature[node]
        leaf = f < 0
        x = X[rows, xp.where(leaf, 0, f)]
        nxt = xp.where(x <= st.threshold[node], st.left[node], st.right[node])
        node = xp.where(leaf, node, nxt)
    return node


def predict_values(st: StackedTrees, X: Any, xp: ModuleType, mask: Any = None) -> tuple[Any, Any]:
    """(sum over trees of leaf values (n, v), number of trees summed per row), in row chunks.

    ``mask`` (n_rows, n_trees), when given, selects which trees count for which rows (out-of-bag)."""
    n, T = X.shape[0], st.roots.shape[0]
    budget = (_HIST_HOST if xp is np else _HIST_DEVICE) // max(1, T * st.value.shape[1])
    step = max(1, budget)
    out = xp.zeros((n, st.value.shape[1]), dtype=xp.float64)
    count = xp.zeros(n, dtype=xp.float64)
    for s in range(0, n, step):
        sl = slice(s, min(n, s + step))
        vals = st.value[leaves(st, X[sl], xp)]  # (rows, trees, v)
        if mask is None:
            out[sl] = vals.sum(axis=1)
            count[sl] = T
        else:
            m = mask[sl].astype(xp.float64)
            out[sl] = (vals * m[:, :, None]).sum(axis=1)
            count[sl] = m.sum(axis=1)
    return out, count
