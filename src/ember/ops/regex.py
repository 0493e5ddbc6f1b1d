"""Regular expressions on the device: a subset of Python's ``re`` compiled to a position automaton.

The pattern is parsed with Python's own parser (``re._parser``), so the syntax is exactly Python's.
The supported subset is compiled to a Glushkov automaton (one state per character-class position, no
epsilon moves). Automata of up to 64 states (nearly every pattern) run as a bit set per row: on the device
a CUDA kernel walks each string in its own thread (``backend/kernels/regex.cu``), on the host its NumPy
reference walks all rows at once, one character position per step. Larger automata keep the state sets
of all rows as a 0/1 matrix and take one step as a matrix product with the follow matrix (cuBLAS on the
device), masked by the class membership of each row's next character.

Supported: literals, ``.``, classes ``[...]`` with ranges and negation, ``\\d \\w \\s \\D \\W \\S``
(Unicode, as Python's ``str`` patterns), groups (capturing or not; captures are ignored: only match
existence is computed), alternation ``|``, greedy / lazy quantifiers ``* + ? {m,n}`` (lazy and
greedy accept the same strings), ``^`` / ``\\A`` at the start and ``$`` / ``\\Z`` at the end of the
pattern, flags ``IGNORECASE`` (simple case folding), ``DOTALL`` and ``ASCII``. Anything else
(backreferences, lookaround, ``\\b``, ``MULTILINE``, anchors inside the pattern, possessive or atomic
groups, inline scoped flags) raises ``NotImplementedError`` naming the construct.

Operations that need match *spans* (replace, extract, split with a regex) are in ``ops.strings`` and use
Python's ``re`` once per distinct value.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Any

import numpy as np

try:  # Python >= 3.11
    import re._constants as _c
    import re._parser as _parser
except ImportError:  # pragma: no cover - Python 3.10
    import sre_constants as _c  # type: ignore[no-redef]
    import sre_parse as _parser  # type: ignore[no-redef]

from ember.backend import asarray_on, to_host
from ember.backend.kernels import regex as nfa
from ember.column import Column, NumericColumn, StringColumn

MAX_STATES = 1024
_SUPPORTED_FLAGS = re.IGNORECASE | re.DOTALL | re.ASCII | re.UNICODE


class Program:
    """A compiled pattern: classes per position, first/last sets, follow matrix, anchors."""

    def __init__(self) -> None:
        self.classes: list[tuple[bool, tuple]] = []  # (negated, items) per position
        self.follow: dict[int, set[int]] = {}
        self.first: set[int] = set()
        self.last: set[int] = set()
        self.nullable = False
        self.start_anchor = False
        self.end_anchor: str | None = None  # "$" (also before a final newline) or "Z" (strict)
        self.flags = 0

    @property
    def nstates(self) -> int:
        return len(self.classes)


def _unsupported(what: str) -> NotImplementedError:
    return NotImplementedError(
        f"regex: {what} is outside the device regex subset (literals, classes, groups, alternation, "
        "greedy/lazy/bounded quantifiers, ^ at the start and $ at the end)"
    )


_OP_NAMES = {
    "GROUPREF": "a backreference",
    "GROUPREF_EXISTS": "a conditional group",
    "ASSERT": "a lookahead/lookbehind",
    "ASSERT_NOT": "a negative lookahead/lookbehind",
    "POSSESSIVE_REPEAT": "a possessive quantifier",
    "ATOMIC_GROUP": "an atomic group",
    "GROUPREF_IGNORE": "a backreference",
}
_AT_NAMES = {
    "AT_BOUNDARY": "\\b",
    "AT_NON_BOUNDARY": "\\B",
    "AT_BEGINNING": "'^'",
    "AT_END": "'$'",
    "AT_BEGINNING_STRING": "\\A",
    "AT_END_STRING": "\\Z",
}


@functools.lru_cache(maxsize=256)
def compile_pattern(pattern: str, flags: int = 0) -> Program:
    """Parse with Python's parser and build the Glushkov automaton. Raises NotImplementedError for
    constructs outside the subset and ``re.error`` for invalid patterns."""
    if not isinstance(pattern, str):
        raise TypeError(f"regex: expected a str pattern, got {type(pattern).__name__}")
    parsed = _parser.parse(pattern, flags)
    prog = Program()
    prog.flags = parsed.state.flags
    if prog.flags & re.MULTILINE:
        raise _unsupported("the MULTILINE flag")
    if prog.flags & re.VERBOSE:
        prog.flags &= ~re.VERBOSE
    items = list(parsed)
    if items and items[0][0] == _c.AT and str(items[0][1]) in ("AT_BEGINNING", "AT_BEGINNING_STRING"):
        prog.start_anchor = True
        items = items[1:]
    if items and items[-1][0] == _c.AT and str(items[-1][1]) in ("AT_END", "AT_END_STRING"):
        prog.end_anchor = "$" if str(items[-1][1]) == "AT_END" else "Z"
        items = items[:-1]
    nullable, first, last = _seq(prog, items)
    prog.nullable, prog.first, prog.last = nullable, first, last
    return prog


Frag = tuple[bool, set[int], set[int]]


def _new_pos(prog: Program, negated: bool, items: tuple) -> Frag:
    if prog.nstates >= MAX_STATES:
        raise NotImplementedError(f"regex: the pattern needs more than {MAX_STATES} automaton states")
    k = prog.nstates
    prog.classes.append((negated, items))
    prog.follow[k] = set()
    return False, {k}, {k}


def _link(prog: Program, frm: set[int], to: set[int]) -> None:
    for s in frm:
        prog.follow[s] |= to


def _seq(prog: Program, items: list) -> Frag:
    nullable, first, last = True, set(), set()
    for item in items:
        n2, f2, l2 = _node(prog, item)
        _link(prog, last, f2)
        first = first | f2 if nullable else first
        last = l2 | last if n2 else l2
        nullable = nullable and n2
    return nullable, first, last


def _node(prog: Program, item: tuple) -> Frag:
    op, av = item
    name = str(op)
    if name == "LITERAL":
        return _new_pos(prog, False, (("lit", av),))
    if name == "NOT_LITERAL":
        return _new_pos(prog, True, (("lit", av),))
    if name == "ANY":
        return _new_pos(prog, False, (("any",),))
    if name == "IN":
        return _in(prog, av)
    if name == "SUBPATTERN":
        _group, add_flags, del_flags, sub = av
        if add_flags or del_flags:
            raise _unsupported("an inline scoped flag group (?flags:...)")
        return _seq(prog, list(sub))
    if name == "BRANCH":
        nullable, first, last = False, set(), set()
        for alt in av[1]:
            n2, f2, l2 = _seq(prog, list(alt))
            nullable, first, last = nullable or n2, first | f2, last | l2
        return nullable, first, last
    if name in ("MAX_REPEAT", "MIN_REPEAT"):
        return _repeat(prog, *av)
    if name == "AT":
        return _raise_at(str(av))
    raise _unsupported(_OP_NAMES.get(name, f"the construct {name}"))


def _raise_at(at: str) -> Frag:
    what = _AT_NAMES.get(at, at)
    if at in ("AT_BEGINNING", "AT_END", "AT_BEGINNING_STRING", "AT_END_STRING"):
        raise _unsupported(f"the anchor {what} inside the pattern (only at its start/end)")
    raise _unsupported(f"the assertion {what}")


def _in(prog: Program, av: list) -> Frag:
    negated = False
    items = []
    for op, arg in av:
        name = str(op)
        if name == "NEGATE":
            negated = True
        elif name == "LITERAL":
            items.append(("lit", arg))
        elif name == "RANGE":
            items.append(("range", arg[0], arg[1]))
        elif name == "CATEGORY":
            items.append(("cat", str(arg)))
        else:
            raise _unsupported(f"the class item {name}")
    return _new_pos(prog, negated, tuple(items))


def _repeat(prog: Program, lo: int, hi: int, sub: Any) -> Frag:
    items = list(sub)
    unbounded = hi == _c.MAXREPEAT
    nullable, first, last = True, set(), set()
    parts: list[Frag] = []
    for _ in range(lo):
        parts.append(_seq(prog, items))
    if unbounded:
        n2, f2, l2 = _seq(prog, items)
        _link(prog, l2, f2)
        parts.append((True, f2, l2))
    else:
        for _ in range(hi - lo):
            n2, f2, l2 = _seq(prog, items)
            parts.append((True, f2, l2))
    for n2, f2, l2 in parts:
        _link(prog, last, f2)
        first = first | f2 if nullable else first
        last = l2 | last if n2 else l2
        nullable = nullable and n2
    return nullable, first, last


# --- evaluation ----------------------------------------------------------------------------------------

_CATS = {
    "CATEGORY_DIGIT": ("decimal",),
    "CATEGORY_SPACE": ("space",),
    "CATEGORY_WORD": ("word",),
}


def _category(xp: Any, cps: Any, cat: str, ascii_only: bool) -> Any:
    from ember.ops.strings import char_flag, is_word_char

    negate = cat.startswith("CATEGORY_NOT_")
    base = cat.replace("NOT_", "")
    if base not in _CATS:
        raise _unsupported(f"the class {cat}")
    kind = _CATS[base][0]
    if ascii_only:
        c = cps
        out = {
            "decimal": (c >= 48) & (c <= 57),
            "space": ((c >= 9) & (c <= 13)) | (c == 32),
            "word": ((c >= 48) & (c <= 57)) | ((c >= 65) & (c <= 90)) | ((c >= 97) & (c <= 122)) | (c == 95),
        }[kind]
    elif kind == "word":
        out = is_word_char(xp, cps)
    else:
        out = char_flag(xp, cps, kind)
    return ~out if negate else out


def _class_items(xp: Any, cps: Any, items: tuple, flags: int) -> Any:
    out = xp.zeros(cps.shape[0], dtype=bool)
    for it in items:
        if it[0] == "lit":
            out |= cps == it[1]
        elif it[0] == "range":
            out |= (cps >= it[1]) & (cps <= it[2])
        elif it[0] == "any":
            out |= xp.ones_like(out) if flags & re.DOTALL else cps != 10
        else:
            out |= _category(xp, cps, it[1], bool(flags & re.ASCII))
    return out


def class_member(xp: Any, cps: Any, negated: bool, items: tuple, flags: int) -> Any:
    """Membership of each code point in one position's class (IGNORECASE: the character, its simple
    lower and upper case forms are tried)."""
    out = _class_items(xp, cps, items, flags)
    if flags & re.IGNORECASE and not all(it[0] in ("any", "cat") for it in items):
        from ember.ops.strings import _simple_lower, _simple_upper

        out |= _class_items(xp, _simple_lower(xp, cps), items, flags)
        out |= _class_items(xp, _simple_upper(xp, cps), items, flags)
    return ~out if negated else out


def _membership(xp: Any, cps: Any, prog: Program) -> Any:
    """(m, S) float32: 1 where character i is in the class of state k. Identical classes share work."""
    seen: dict[tuple, Any] = {}
    cols = []
    for negated, items in prog.classes:
        key = (negated, items)
        if key not in seen:
            seen[key] = class_member(xp, cps, negated, items, prog.flags)
        cols.append(seen[key])
    if not cols:
        return xp.zeros((cps.shape[0], 0), dtype=np.float32)
    return xp.stack(cols, axis=1).astype(np.float32)


def regex_match(cp: Any, pattern: str, flags: int, mode: str) -> Any:
    """Bool per row: ``re.search`` (mode "search"), ``re.match`` or ``re.fullmatch`` found a match.

    ``cp`` is a code point view (``ops.strings.CP``). Missing rows give False (callers apply the mask).
    Synchronizes twice: the longest row, and the per-step count of rows still running."""
    if flags & ~_SUPPORTED_FLAGS:
        raise _unsupported(f"the flags {re.RegexFlag(flags & ~_SUPPORTED_FLAGS)!r}")
    prog = compile_pattern(pattern, flags)
    xp = cp.xp
    n = len(cp)
    L = cp.lengths
    start_anchor = prog.start_anchor or mode in ("match", "fullmatch")
    end_anchor = "Z" if mode == "fullmatch" else prog.end_anchor
    if n == 0:
        return xp.zeros(0, dtype=bool)
    lastc = cp.cps[xp.maximum(cp.offs[1:] - 1, 0)] if cp.cps.shape[0] else xp.zeros(n, dtype=np.int32)
    ends_nl = (L > 0) & (lastc == 10)
    if prog.nullable:
        if not start_anchor:
            return xp.ones(n, dtype=bool)
        found = _end_ok(xp, -1, L, end_anchor, ends_nl)
    else:
        found = xp.zeros(n, dtype=bool)
    S = prog.nstates
    if S == 0 or cp.cps.shape[0] == 0:
        return found
    if S <= nfa.MAX_STATES:  # a bit set per row: the CUDA kernel on the device, its reference on the host
        follow = np.zeros(S, dtype=np.uint64)
        for s, tos in prog.follow.items():
            follow[s] = _bits(tos)
        end_mode = {None: 0, "$": 1, "Z": 2}[end_anchor]
        member = _member_bits(xp, cp.cps, prog, cp.ascii)
        first, last = _bits(prog.first), _bits(prog.last)
        return nfa.run_nfa64(member, cp.offs, follow, first, last, start_anchor, end_mode, ends_nl, found)
    return _match_by_products(cp, prog, start_anchor, end_anchor, ends_nl, found)


def _bits(states: set[int]) -> int:
    return sum(1 << s for s in states)


def _member_bits(xp: Any, cps: Any, prog: Program, ascii: bool = False) -> Any:
    """uint64 per character: the states (at most 64) whose class holds it. Identical classes share work.
    ``ascii`` (every code point below 128): the classes are evaluated once on the 128 ASCII code points
    and each character looks its set up, one gather instead of passes per class."""
    if ascii:
        table = _member_bits(np, np.arange(128, dtype=np.int32), prog)
        return asarray_on(table, xp)[cps]
    states_of: dict[tuple, int] = {}
    for s, key in enumerate(prog.classes):
        states_of[key] = states_of.get(key, 0) | (1 << s)
    out = xp.zeros(cps.shape[0], dtype=np.uint64)
    for (negated, items), mask in states_of.items():
        hit = class_member(xp, cps, negated, items, prog.flags)
        out |= xp.where(hit, np.uint64(mask), np.uint64(0))
    return out


def _match_by_products(
    cp: Any, prog: Program, start_anchor: bool, end_anchor: Any, ends_nl: Any, found: Any
) -> Any:
    """Automata of more than 64 states: the state sets of all rows as a 0/1 matrix, one step a product
    with the follow matrix (cuBLAS on the device), masked by each row's next character's classes."""
    xp, n, L, S = cp.xp, len(cp), cp.lengths, prog.nstates
    F = np.zeros((S, S), dtype=np.float32)
    for s, tos in prog.follow.items():
        F[s, list(tos)] = 1
    first = np.zeros(S, dtype=bool)
    first[list(prog.first)] = True
    last = np.zeros(S, dtype=bool)
    last[list(prog.last)] = True
    F, first = asarray_on(F, xp), asarray_on(first.astype(np.float32), xp)
    last = asarray_on(last.astype(np.float32), xp)
    member = _membership(xp, cp.cps, prog)
    order = xp.argsort(-L)
    Ls = L[order]
    maxlen = int(Ls[0])
    active = to_host(xp.searchsorted(-Ls, -xp.arange(maxlen, dtype=np.int64), side="left"))
    row_start = cp.offs[:-1][order]
    ends_s = ends_nl[order]
    state = xp.zeros((n, S), dtype=np.float32)
    found_s = found[order]
    for t in range(maxlen):
        a = int(active[t])
        if a == 0:
            break
        mem = member[row_start[:a] + t]
        if t == 0:
            nxt = xp.broadcast_to(first, (a, S))
        else:
            nxt = (state[:a] @ F > 0).astype(np.float32)
            if not start_anchor:
                nxt = xp.maximum(nxt, first)
        nxt = nxt * mem
        state[:a] = nxt
        acc = (nxt @ last) > 0
        found_s[:a] |= acc & _end_ok(xp, t, Ls[:a], end_anchor, ends_s[:a])
        if start_anchor and t % 16 == 15 and not bool(state[:a].any()):
            break  # anchored matches cannot start later: every row's automaton has died
    out = xp.empty(n, dtype=bool)
    out[order] = found_s
    return out


def _end_ok(xp: Any, t: int, L: Any, end_anchor: str | None, ends_nl: Any) -> Any:
    """A match ending after character ``t`` (t = -1: the empty prefix) satisfies the end anchor."""
    if end_anchor is None:
        return xp.ones(L.shape[0], dtype=bool)
    ok = L == t + 1
    if end_anchor == "$":
        ok |= (L == t + 2) & ends_nl
    return ok


# --- span operations: Python's re once per distinct value (documented host step) -----------------------
# Callers: ops.strings (count, replace, split with a regex; extract, extractall).


def per_unique(col: StringColumn, fn: Callable[[str], Any]) -> tuple[list[Any], Any, Any]:
    """Apply a Python function once per distinct non-missing value.

    Returns (results per distinct value, codes per row (int64, -1 for missing), xp). One transfer of
    the distinct values to the host; the codes stay on the device."""
    from ember.ops.factorize import factorize_keys

    codes, uniques, _ = factorize_keys([col], sort=False, dropna=True)
    values = uniques[0].to_pandas().tolist()
    return [fn(v) for v in values], codes, col.xp


def _string_col_from(values: list[str | None], xp: Any, pd_dtype: Any) -> StringColumn:
    import pyarrow as pa

    return StringColumn.from_arrow(pa.array(values, type=pa.large_string()), xp, pd_dtype)


def map_strings(col: StringColumn, fn: Callable[[str], str | None]) -> StringColumn:
    """String result of ``fn`` per distinct value, gathered back to rows (missing stays missing)."""
    results, codes, xp = per_unique(col, fn)
    table = _string_col_from(results, xp, col.pd_dtype)
    return (
        table.take_nullable(codes)
        if len(table)
        else col.empty_like(len(col)).with_mask(col.mask if col.mask is not None else None)
    )


def map_ints(col: StringColumn, fn: Callable[[str], int]) -> NumericColumn:
    from ember.ops.strings import int_result

    results, codes, xp = per_unique(col, fn)
    table = asarray_on(np.asarray(results, dtype=np.int64), xp)
    vals = table[xp.maximum(codes, 0)] if len(results) else xp.zeros(len(col), dtype=np.int64)
    return int_result(col, vals)


def pieces_from_lists(col: StringColumn, fn: Callable[[str], list[str]]) -> list[StringColumn]:
    results, codes, xp = per_unique(col, fn)
    width = max((len(r) for r in results), default=1 if len(col) else 0)
    out = []
    for k in range(width):
        vals = [r[k] if k < len(r) else None for r in results]
        table = _string_col_from(vals, xp, col.pd_dtype)
        out.append(table.take_nullable(codes))
    return out


def lists_from_unique(col: StringColumn, fn: Callable[[str], list]) -> Column:
    """A list column of ``fn``'s list of strings per distinct value, gathered back to the rows (a
    missing row stays missing)."""
    from ember.column.list import ListColumn, list_na

    results, codes, xp = per_unique(col, fn)
    flat = [item for r in results for item in r]
    offsets = np.zeros(len(results) + 1, dtype=np.int64)
    np.cumsum([len(r) for r in results], out=offsets[1:])
    if any(not isinstance(item, str) for item in flat):  # findall with several groups gives tuples
        raise NotImplementedError("lists of tuples (a pattern with several groups) are not supported")
    table = ListColumn(
        asarray_on(offsets, xp), _string_col_from(flat, xp, col.pd_dtype), None, list_na(col.pd_dtype, col.na)
    )
    if not len(results):
        return ListColumn(xp.zeros(len(col) + 1, dtype=np.int64), table.values, col.mask, table.na)
    return table.take_nullable(codes)


def extract(col: StringColumn, pat: str, flags: int = 0) -> tuple[list[str | int], list[StringColumn]]:
    """Capture groups of the first match: (group names, one string column per group)."""
    from ember.ops.strings import _check

    _check(col, "extract")
    rx = re.compile(pat, flags)
    if rx.groups == 0:
        raise ValueError("pattern contains no capture groups")
    names = {v: k for k, v in rx.groupindex.items()}
    labels = [names.get(i + 1, i) for i in range(rx.groups)]

    def groups(s: str) -> tuple:
        m = rx.search(s)
        return m.groups() if m else (None,) * rx.groups

    results, codes, xp = per_unique(col, groups)
    cols = []
    for k in range(rx.groups):
        table = _string_col_from([r[k] for r in results], xp, col.pd_dtype)
        cols.append(
            table.take_nullable(codes)
            if len(table)
            else col.empty_like(len(col)).with_mask(xp.zeros(len(col), bool))
        )
    return labels, cols


def extractall(col: StringColumn, pat: str, flags: int = 0) -> tuple[list[Any], list[StringColumn], Any, Any]:
    """Every match's groups: (labels, group columns, source row per match, match number per match)."""
    from ember.ops.strings import _check, _offs

    _check(col, "extractall")
    rx = re.compile(pat, flags)
    if rx.groups == 0:
        raise ValueError("pattern contains no capture groups")
    names = {v: k for k, v in rx.groupindex.items()}
    labels = [names.get(i + 1, i) for i in range(rx.groups)]
    results, codes, xp = per_unique(col, lambda s: [m.groups() for m in rx.finditer(s)])
    nm = asarray_on(np.asarray([len(r) for r in results], dtype=np.int64), xp)
    flat = [g for r in results for g in r]
    first = _offs(xp, nm)
    per_row = (
        xp.where(codes >= 0, nm[xp.maximum(codes, 0)], 0) if len(results) else xp.zeros(len(col), np.int64)
    )
    row_offs = _offs(xp, per_row)
    total = int(row_offs[-1])
    pos = xp.arange(total, dtype=np.int64)
    src_row = xp.searchsorted(row_offs, pos, side="right") - 1
    match_no = pos - row_offs[src_row]
    flat_idx = first[codes[src_row]] + match_no if total else pos
    cols = []
    for k in range(rx.groups):
        table = _string_col_from([g[k] for g in flat], xp, col.pd_dtype)
        cols.append(table.take(flat_idx) if total else table)
    return labels, cols, src_row, match_no
