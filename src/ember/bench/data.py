"""Deterministic data for the benchmarks and the demo, generated in memory (nothing is downloaded).

Every generator takes a row count and a seed and returns the same data for the same arguments, so that
each library in a run, and each run on another machine, sees identical inputs. The recipes follow the
sources the anchors cite: the seed blog post's frame, and db-benchmark's ``groupby-datagen.R`` (G1) and
``join-datagen.R``, vectorised with NumPy (the R scripts' ``sample`` calls become ``Generator.integers``).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

__all__ = [
    "demo_tables",
    "groupby_data",
    "join_data",
    "seed_frame",
    "tabular_classification",
    "text_documents",
]


def _rng(seed: int) -> np.random.Generator:
    return np.random.default_rng(seed)


def seed_frame(n: int, seed: int = 0) -> pd.DataFrame:
    """The seed post's frame: ``x`` uniform float64 in [0, 1), ``y`` a random int64 in [0, n).

    With ``y`` drawn from n values the groupby has ~0.63 n groups and the self-merge on ``y`` returns
    ~2 n rows: both are dominated by the hashing/sorting of many small groups, not by arithmetic.
    """
    rng = _rng(seed)
    return pd.DataFrame({"x": rng.random(n), "y": rng.integers(0, max(n, 1), n, dtype=np.int64)})


def _id_labels(values: np.ndarray, width: int | None = None) -> pd.Categorical:
    """Categorical of strings "id%0{width}d" (or "id%d") for int ``values``, built from the uniques only."""
    uniq, codes = _dense_unique(values)
    digits = pc.cast(pa.array(uniq), pa.string())
    if width:
        digits = pc.utf8_lpad(digits, width=width, padding="0")
    labels = pc.binary_join_element_wise("id", digits, "").to_numpy(zero_copy_only=False)
    categories = pd.Index(labels, dtype=object)
    # the labels are distinct by construction: pandas' uniqueness check (hashing every label, 13 s of
    # the 1e7-row join tables) is skipped where pandas offers the way
    fast = getattr(pd.CategoricalDtype, "_from_fastpath", None)
    dtype = fast(categories, False) if fast is not None else pd.CategoricalDtype(categories)
    return pd.Categorical.from_codes(codes, dtype=dtype, validate=False)


def _dense_unique(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(values, return_inverse=True)`` (codes as int32) for ints of a range no wider than a
    few times their count, by a presence table instead of a sort (1e8-row tables)."""
    lo, hi = int(values.min()), int(values.max())
    if hi - lo > 4 * len(values) + 1024:
        uniq, codes = np.unique(values, return_inverse=True)
        return uniq, codes.astype(np.int32)
    present = np.zeros(hi - lo + 1, dtype=bool)
    present[values - lo] = True
    rank = (np.cumsum(present, dtype=np.int64) - 1).astype(np.int32)
    return np.flatnonzero(present) + lo, rank[values - lo]


def groupby_data(n: int, k: int = 100, na_pct: int = 0, seed: int = 108) -> pd.DataFrame:
    """db-benchmark's G1 groupby table: id1-id3 categorical strings, id4-id6 ints, v1-v3 values.

    ``id1``/``id2`` take K labels "id001".., ``id3`` n/K labels "id0000000001".., ``id4``/``id5`` ints in
    [1, K], ``id6`` ints in [1, n/K], ``v1`` in [1, 5], ``v2`` in [1, 15], ``v3`` uniform [0, 100) rounded
    to 6 places. ``na_pct`` > 0 blanks that share of each column, as the R generator's NA option does
    (the int columns then become nullable Int64).
    """
    rng = _rng(seed)
    nk = max(n // k, 1)
    cats_k = pd.Index([f"id{i:03d}" for i in range(1, k + 1)], dtype=object)
    cols: dict[str, object] = {
        "id1": pd.Categorical.from_codes(rng.integers(0, k, n).astype(np.int32), categories=cats_k),
        "id2": pd.Categorical.from_codes(rng.integers(0, k, n).astype(np.int32), categories=cats_k),
        "id3": _id_labels(rng.integers(1, nk + 1, n), width=10),
        "id4": rng.integers(1, k + 1, n, dtype=np.int64),
        "id5": rng.integers(1, k + 1, n, dtype=np.int64),
        "id6": rng.integers(1, nk + 1, n, dtype=np.int64),
        "v1": rng.integers(1, 6, n, dtype=np.int64),
        "v2": rng.integers(1, 16, n, dtype=np.int64),
        "v3": np.round(rng.random(n) * 100.0, 6),
    }
    df = pd.DataFrame(cols)
    if na_pct > 0:
        for name in df.columns:
            holes = rng.random(n) < na_pct / 100.0
            col = df[name]
            if col.dtype.kind in "iu":
                col = col.astype("Int64")
            df[name] = col.mask(holes)
    return df


def _split_xlr(n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """join-datagen.R's split_xlr: keys for the left (x) and right tables, 90% shared, 10% unmatched."""
    n = max(int(n), 10)
    key = rng.permutation(int(n * 1.1)) + 1
    shared, left_only, right_only = key[: int(n * 0.9)], key[int(n * 0.9) : n], key[n:]
    return np.concatenate([shared, left_only]), np.concatenate([shared, right_only])


def join_data(n: int, seed: int = 108, labels: bool = True) -> dict[str, pd.DataFrame]:
    """db-benchmark's join tables: ``x`` (n rows) and ``small`` (n/1e6), ``medium`` (n/1e3), ``big`` (n).

    Keys id1-id3 are ints; id4-id6 their "id%d" string forms (categorical; ``labels=False`` leaves
    them out: at 1e8 rows making them takes minutes of Python string formatting). Each right table
    holds 90% of the left keys plus 10% unmatched ones. Below the R script's sizes the small/medium
    key spaces are floored at 10 keys so that tiny runs still join something.
    """
    rng = _rng(seed)
    x1, r1 = _split_xlr(n / 1e6, rng)
    x2, r2 = _split_xlr(n / 1e3, rng)
    x3, r3 = _split_xlr(n, rng)
    id1, id2, id3 = (rng.choice(keys, n, replace=True) for keys in (x1, x2, x3))
    x = pd.DataFrame({"id1": id1, "id2": id2, "id3": id3})
    if labels:
        x["id4"], x["id5"], x["id6"] = _id_labels(id1), _id_labels(id2), _id_labels(id3)
    x["v1"] = np.round(rng.random(n) * 100.0, 6)

    small = pd.DataFrame({"id1": rng.permutation(r1)[: max(int(n / 1e6), 10)]})
    if labels:
        small["id4"] = _id_labels(small["id1"].to_numpy())
    small["v2"] = np.round(rng.random(len(small)) * 100.0, 6)

    n_med = max(int(n / 1e3), 10)
    medium = pd.DataFrame({"id1": rng.choice(r1, n_med, replace=True), "id2": rng.permutation(r2)[:n_med]})
    if labels:
        medium["id4"] = _id_labels(medium["id1"].to_numpy())
        medium["id5"] = _id_labels(medium["id2"].to_numpy())
    medium["v2"] = np.round(rng.random(n_med) * 100.0, 6)

    big = pd.DataFrame(
        {
            "id1": rng.choice(r1, n, replace=True),
            "id2": rng.choice(r2, n, replace=True),
            "id3": rng.permutation(r3)[:n],
        }
    )
    for src, dst in (("id1", "id4"), ("id2", "id5"), ("id3", "id6")) if labels else ():
        big[dst] = _id_labels(big[src].to_numpy())
    big["v2"] = np.round(rng.random(n) * 100.0, 6)
    return {"x": x, "small": small, "medium": medium, "big": big}


def _vocabulary(size: int, rng: np.random.Generator) -> np.ndarray:
    """``size`` distinct pronounceable-ish words of 2-4 consonant-vowel syllables (NumPy str array)."""
    cons, vows = np.array(list("bcdfghjklmnprstvwz")), np.array(list("aeiou"))
    words = np.array([], dtype="<U8")
    while len(words) < size:
        m = 2 * size + 16
        pieces = np.char.add(
            cons[rng.integers(0, len(cons), (m, 4))], vows[rng.integers(0, len(vows), (m, 4))]
        )
        n_syll = rng.integers(2, 5, m)
        drawn = np.char.add(np.char.add(pieces[:, 0], pieces[:, 1]), np.where(n_syll > 2, pieces[:, 2], ""))
        drawn = np.char.add(drawn, np.where(n_syll > 3, pieces[:, 3], ""))
        words = np.unique(np.concatenate([words, drawn]))
    return rng.permutation(words)[:size]  # shuffled, so Zipf ranks do not follow the alphabet


def text_documents(
    n_docs: int,
    vocab_size: int = 50_000,
    min_words: int = 8,
    max_words: int = 30,
    zipf_a: float = 1.2,
    seed: int = 7,
) -> tuple[pd.Series, np.ndarray]:
    """Synthetic documents of ``min_words``..``max_words`` Zipf-distributed words, with a 0/1 label.

    As in the anchors' ML rows (1M docs, 8-30 words, 50k vocabulary). The label is learnable: each class
    has 50 marker words, and about a fifth of each document's words are drawn from its class's markers.
    """
    rng = _rng(seed)
    vocab = _vocabulary(vocab_size, rng)
    labels = rng.integers(0, 2, n_docs).astype(np.int64)
    lengths = rng.integers(min_words, max_words + 1, n_docs)
    total = int(lengths.sum())
    ranks = rng.zipf(zipf_a, total)
    word_ids = (ranks - 1) % vocab_size
    doc_of = np.repeat(np.arange(n_docs), lengths)
    markers = rng.random(total) < 0.2
    n_mark = min(50, max(vocab_size // 4, 1))
    marker_ids = rng.integers(0, n_mark, total) + vocab_size // 2 + labels[doc_of] * n_mark
    word_ids = np.where(markers, marker_ids % vocab_size, word_ids)
    words = vocab[word_ids]
    starts = np.concatenate([[0], np.cumsum(lengths)[:-1]])
    docs = [" ".join(words[s : s + m]) for s, m in zip(starts.tolist(), lengths.tolist(), strict=True)]
    return pd.Series(docs, name="text", dtype=object), labels


def tabular_classification(
    n: int, n_features: int = 20, n_informative: int = 10, n_classes: int = 2, seed: int = 3
) -> tuple[np.ndarray, np.ndarray]:
    """A make_classification-like problem: Gaussian clusters per class in the informative features,
    linear mixtures of them and noise in the rest. Returns (X float32 of shape (n, n_features), y int64).
    """
    rng = _rng(seed)
    n_informative = min(n_informative, n_features)
    y = rng.integers(0, n_classes, n).astype(np.int64)
    centroids = rng.normal(0.0, 1.5, (n_classes, n_informative))
    informative = centroids[y] + rng.normal(0.0, 1.0, (n, n_informative))
    n_rest = n_features - n_informative
    mix = rng.normal(0.0, 1.0, (n_informative, n_rest))
    rest = informative @ mix * 0.3 + rng.normal(0.0, 1.0, (n, n_rest))
    X = np.hstack([informative, rest]).astype(np.float32)
    return X[:, rng.permutation(n_features)], y


_STATUSES = np.array(["shipped", " Shipped", "DELIVERED ", "delivered", "returned", "Cancelled"])
_CATEGORIES = np.array(["books", "electronics", "garden", "grocery", "toys", "clothing", "sports", "home"])
_REGIONS = np.array(["north", "south", "east", "west", "central"])


def demo_tables(n: int, seed: int = 11) -> dict[str, pd.DataFrame]:
    """The demo's raw shop data, messy on purpose: ``orders`` (n rows), ``customers``, ``reviews``.

    ``orders`` has string timestamps, prices with nulls, float quantities with NaN, statuses in mixed
    case with stray spaces, and a ``returned`` flag that depends on price, quantity and the hour of day
    (so a classifier has something to learn). ``reviews`` holds labelled synthetic text (n / 20 docs).
    """
    rng = _rng(seed)
    n_cust = max(n // 20, 10)
    start = np.datetime64("2025-01-01T00:00:00", "s")
    ts = start + np.sort(rng.integers(0, 365 * 86400, n)).astype("timedelta64[s]")
    hour = (ts.astype("datetime64[h]").astype(np.int64) % 24).astype(np.float64)
    price = np.round(rng.lognormal(3.0, 0.8, n), 2)
    qty = rng.integers(1, 6, n).astype(np.float64)
    logit = -2.5 + 0.015 * price + 0.3 * (qty - 3) + 0.8 * ((hour >= 22) | (hour < 4))
    returned = rng.random(n) < 1.0 / (1.0 + np.exp(-logit))
    price_obs = np.where(rng.random(n) < 0.03, np.nan, price)
    qty_obs = np.where(rng.random(n) < 0.02, np.nan, qty)
    orders = pd.DataFrame(
        {
            "order_id": np.arange(1, n + 1, dtype=np.int64),
            "customer_id": rng.integers(1, n_cust + 1, n, dtype=np.int64),
            "ts": pd.Series(ts).dt.strftime("%Y-%m-%d %H:%M:%S"),
            "category": _CATEGORIES[rng.integers(0, len(_CATEGORIES), n)],
            "status": _STATUSES[rng.integers(0, len(_STATUSES), n)],
            "price": price_obs,
            "quantity": qty_obs,
            "returned": returned,
        }
    )
    customers = pd.DataFrame(
        {
            "customer_id": np.arange(1, n_cust + 1, dtype=np.int64),
            "region": _REGIONS[rng.integers(0, len(_REGIONS), n_cust)],
            "signup": pd.Series(
                start - rng.integers(0, 3 * 365, n_cust).astype("timedelta64[D]")
            ).dt.strftime("%Y-%m-%d"),
        }
    )
    docs, labels = text_documents(max(n // 20, 60), vocab_size=20_000, seed=seed + 1)
    reviews = pd.DataFrame({"review_id": np.arange(len(docs), dtype=np.int64), "text": docs, "label": labels})
    return {"orders": orders, "customers": customers, "reviews": reviews}
