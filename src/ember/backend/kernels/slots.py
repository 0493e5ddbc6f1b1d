"""Per-slot reductions read straight off an integer key (``slots.cu``): the slot of a row is
``key - lo``; a missing key (``key_valid`` False, or a value outside ``[lo, lo + nslots - 1)``: a
categorical's code -1) counts in the last slot. A groupby over a small key range needs no per-row
group codes: one pass over the key finds the groups (``slot_rows``), one pass over key and values sums
them (``slot_sums``). A key too wide for that gets a slot per distinct value from a hash table first
(``hash_slots``); the row's slot is then the key of the same kernels.

The NumPy references below run on the CPU backend and are what the GPU tests compare the kernels with.
"""

from __future__ import annotations

import functools
import os
from typing import Any

import numpy as np

from ember.backend.arrays import array_module, is_device_array

_THREADS = 256
_SHARED_BYTES = 48 * 1024  # one block's default dynamic shared memory

_KEY_TYPES = {
    "i1": "signed char",
    "i2": "short",
    "i4": "int",
    "i8": "long long",
    "u1": "unsigned char",
    "u2": "unsigned short",
    "u4": "unsigned int",
    "u8": "unsigned long long",
}
_C_TYPES = {"f8": "double", "i8": "long long", "u8": "unsigned long long"}


def slot_index(key: Any, lo: int, nslots: int, key_valid: Any = None) -> Any:
    """The slot of each row (int64): ``key - lo``, the last slot for a missing key."""
    xp = array_module(key)
    null_slot = nslots - 1
    s = key.astype(np.int64) - lo
    missing = (s < 0) | (s >= null_slot)
    if key_valid is not None:
        missing |= ~key_valid
    return xp.where(missing, null_slot, s)


def slot_lookup(key: Any, lo: int, nslots: int, table: Any, key_valid: Any = None) -> Any:
    """``table[slot]`` for each row (a slot's group code, say), reading the key once: on the device one
    elementwise kernel, with no per-row slot array in between."""
    if not is_device_array(key):
        return table[slot_index(key, lo, nslots, key_valid)]
    args = (key, np.int64(lo), np.int64(nslots - 1), table)
    if key_valid is None:
        return _lookup_kernel(False)(*args)
    return _lookup_kernel(True)(key, key_valid, *args[1:])


@functools.cache
def _lookup_kernel(with_valid: bool) -> Any:
    valid_in, valid_test = ("bool valid, ", "!valid || ") if with_valid else ("", "")
    return _cp().ElementwiseKernel(
        f"T key, {valid_in}int64 lo, int64 null_slot, raw U table",
        "U out",
        f"long long s = (long long)key - lo; if ({valid_test}s < 0 || s >= null_slot) s = null_slot; out = table[s];",
        f"ember_slot_lookup{'_valid' if with_valid else ''}",
    )


def slot_rows(key: Any, lo: int, nslots: int, key_valid: Any = None) -> tuple[Any, Any]:
    """(rows per slot int64, first row of each slot int64: ``len(key)`` for an empty slot)."""
    n = int(key.shape[0])
    if not is_device_array(key):
        s = slot_index(key, lo, nslots, key_valid)
        counts = np.bincount(s, minlength=nslots).astype(np.int64)
        first = np.full(nslots, n, dtype=np.int64)
        np.minimum.at(first, s, np.arange(n, dtype=np.int64))
        return counts, first
    cp = _cp()
    counts = cp.zeros(nslots, dtype=np.uint64)
    first = cp.full(nslots, n, dtype=np.int64)
    if n:
        shared = nslots * 16 <= _SHARED_BYTES
        fn = _module(key.dtype.str[1:], "f8", "f8").get_function("ember_slot_rows")
        args = (
            key,
            np.int64(lo),
            _ptr(key_valid),
            np.int64(n),
            np.int32(nslots),
            np.int32(shared),
            counts,
            first,
        )
        fn((_grid(cp, n),), (_THREADS,), args, shared_mem=nslots * 16 if shared else 0)
    return counts.view(np.int64), first


def slot_sums(
    key: Any,
    lo: int,
    nslots: int,
    values: Any,
    *,
    key_valid: Any = None,
    valid: Any = None,
    nan_missing: bool = True,
    want_sums: bool = True,
    want_counts: bool = True,
    exact_int: bool = True,
    at: Any = None,
) -> tuple[Any, Any]:
    """(sums, counts) per slot of the rows kept: ``valid`` (when given) and, with ``nan_missing``, not
    NaN. ``values``: float64, int64 or uint64. Integer values with ``exact_int`` sum exactly in their
    own type (wrapping as NumPy does); otherwise sums are float64. Either result is None when not asked
    for. ``at``: only these slots, in this order (one gather for both results)."""
    exact = exact_int and values.dtype.kind in "iu"
    acc = values.dtype if exact else np.dtype(np.float64)
    if not is_device_array(key):
        sums, counts = _host_sums(
            key, lo, nslots, values, key_valid, valid, nan_missing, want_sums, want_counts, acc
        )
        if at is not None:
            sums, counts = (None if a is None else a[at] for a in (sums, counts))
        return sums, counts
    cp = _cp()
    n = int(key.shape[0])
    words = want_sums + want_counts
    table = cp.zeros((max(words, 1), nslots), dtype=np.uint64)  # sums' bits, then counts: one memset
    if n and words:
        shared = nslots * 8 * words <= _SHARED_BYTES
        acc_c = "u8" if exact else "f8"
        fn = _module(key.dtype.str[1:], values.dtype.str[1:], acc_c).get_function("ember_slot_sums")
        args = (
            key,
            np.int64(lo),
            _ptr(key_valid),
            values,
            _ptr(valid),
            np.int32(bool(nan_missing) and values.dtype.kind == "f"),
            np.int64(n),
            np.int32(nslots),
            np.int32(shared),
            table[0] if want_sums else np.uintp(0),
            table[words - 1] if want_counts else np.uintp(0),
        )
        fn((_grid(cp, n),), (_THREADS,), args, shared_mem=nslots * 8 * words if shared else 0)
    if at is not None:
        table = table[:, at]
    sums = table[0].view(acc) if want_sums else None
    return sums, table[words - 1].view(np.int64) if want_counts else None


def combine_keys(
    keys: list[Any],
    valids: list[Any],
    los: list[int],
    radices: list[int],
    null_digits: list[int | None],
    drop_key: int | None = None,
) -> Any:
    """Several integer keys as one int64 key in mixed radix (the first key most significant), which keeps
    their lexicographic order: key i's digit is ``keys[i] - los[i]``. A key that may miss
    (``null_digits[i]`` not None) takes that digit where it is not valid (``valids[i]`` False, or the
    digit falls outside [0, null_digits[i]): a categorical's code -1). With ``drop_key`` a row missing
    any key gets ``drop_key`` instead (past every combined key). On the device one elementwise pass
    reads every key; the NumPy reference takes a few passes per key."""
    if is_device_array(keys[0]):
        args = []
        for i, (key, valid, null_digit) in enumerate(zip(keys, valids, null_digits)):
            args.append(key if i < len(_TYPE_LETTERS) else key.astype(np.int64))
            if null_digit is not None and valid is not None:
                args.append(valid)
        for lo, radix, null_digit in zip(los, radices, null_digits):
            args += [
                np.int64(lo),
                np.int64(max(radix, 1)),
                np.int64(-1 if null_digit is None else null_digit),
            ]
        args.append(np.int64(-1 if drop_key is None else drop_key))
        shape = tuple(
            (null_digit is not None, valid is not None) for valid, null_digit in zip(valids, null_digits)
        )
        return _combine_kernel(shape, drop_key is not None)(*args)
    xp = np
    combined = xp.zeros(keys[0].shape[0], dtype=np.int64)
    missing = None
    for key, valid, lo, radix, null_digit in zip(keys, valids, los, radices, null_digits):
        digit = key.astype(np.int64) - lo
        if null_digit is not None:
            miss = (digit < 0) | (digit >= null_digit)
            if valid is not None:
                miss |= ~valid
            digit[miss] = null_digit
            missing = miss if missing is None else missing | miss
        combined *= max(radix, 1)
        combined += digit
    if drop_key is not None and missing is not None:
        combined[missing] = drop_key
    return combined


def split_keys(combined: Any, radices: list[int]) -> list[Any]:
    """``combine_keys`` undone: each key's digit (int64) of mixed-radix combined keys. On the device one
    elementwise pass writes every digit."""
    radices = [max(r, 1) for r in radices]
    strides = [int(np.prod(radices[i + 1 :], dtype=object)) for i in range(len(radices))]
    if not is_device_array(combined) or len(radices) > len(_TYPE_LETTERS):
        return [(combined // stride) % radix for stride, radix in zip(strides, radices)]
    args = [combined] + [np.int64(v) for pair in zip(strides, radices) for v in pair]
    outs = _split_kernel(len(radices))(*args)
    return list(outs) if isinstance(outs, tuple) else [outs]


@functools.cache
def _split_kernel(nkeys: int) -> Any:
    params = ", ".join(f"int64 s{i}, int64 r{i}" for i in range(nkeys))
    outs = ", ".join(f"int64 d{i}" for i in range(nkeys))
    body = " ".join(f"d{i} = (c / s{i}) % r{i};" for i in range(nkeys))
    return _cp().ElementwiseKernel(f"int64 c, {params}", outs, body, f"ember_split_keys_{nkeys}")


_TYPE_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"  # CuPy takes a single letter as a type placeholder


@functools.cache
def _combine_kernel(shape: tuple[tuple[bool, bool], ...], drop: bool) -> Any:
    """The elementwise kernel of ``combine_keys`` for keys that may miss or not, with a validity array
    or not: one input ``k<i>`` per key (its own type letter), then its validity, then (lo, radix,
    null digit) for each key."""
    ins, params, body = [], [], ["long long acc = 0, d; bool miss = false;"]
    for i, (may_miss, has_valid) in enumerate(shape):
        ins.append(f"{_TYPE_LETTERS[i] if i < len(_TYPE_LETTERS) else 'int64'} k{i}")
        if may_miss and has_valid:
            ins.append(f"bool v{i}")
        params += [f"int64 lo{i}", f"int64 r{i}", f"int64 nd{i}"]
        body.append(f"d = (long long)k{i} - lo{i};")
        if may_miss:
            valid_test = f"!v{i} || " if has_valid else ""
            body.append(f"if ({valid_test}d < 0 || d >= nd{i}) {{ d = nd{i}; miss = true; }}")
        body.append(f"acc = acc * r{i} + d;")
    body.append("out = (drop_key >= 0 && miss) ? drop_key : acc;" if drop else "out = acc;")
    name = "ember_combine_keys_" + "".join(f"{int(m)}{int(v)}" for m, v in shape) + ("_drop" if drop else "")
    return _cp().ElementwiseKernel(
        ", ".join(ins + params + ["int64 drop_key"]), "int64 out", " ".join(body), name
    )


_HASH_LOAD = 1.5  # table capacity per distinct key it may have to hold (linear probing, load <= 2/3)
_MAX_HASH_CAPACITY = 1 << 30  # the slots are int32, the null slot one past the table


def hash_capacity(n: int, span: int) -> int | None:
    """The hash table's capacity for ``n`` rows of a key with ``span`` possible values (a power of two,
    at least 1.5x the distinct keys there can be), or None when int32 slots cannot index it."""
    need = max(int(min(n, span) * _HASH_LOAD), 2)
    capacity = 1 << (need - 1).bit_length()
    return capacity if capacity <= _MAX_HASH_CAPACITY else None


def hash_slots(key: Any, span: int, key_valid: Any = None) -> tuple[Any, Any, Any, Any]:
    """A slot per distinct value of an int64 key whose values lie in [0, span): (the slot of each row,
    int32; the key of each slot, int64; rows per slot; each slot's first row, ``len(key)`` when empty).
    On the device the last three are strided views of one table of 16-byte entries (counts and first
    rows int32). The last slot is the null slot: a row whose key is not valid or lies outside
    [0, span) gets it, and its key is ``span`` (past every key, so it sorts last). Empty slots hold
    the key -1.

    On the device one pass of an open-addressing table (``ember_hash_slots``) of ``hash_capacity``
    slots, in no particular order; on the host pandas' hash table numbers the distinct keys in order
    of appearance (a perfect hash). The caller orders the slots it finds occupied (``number_groups``)."""
    n = int(key.shape[0])
    if not is_device_array(key):
        inside = (key >= 0) & (key < span)
        if key_valid is not None:
            inside &= key_valid.astype(bool, copy=False)
        return _host_hash_slots(key, span, inside)
    capacity = hash_capacity(n, span)
    if capacity is None:
        raise ValueError(f"hash_slots: {n} rows need more than {_MAX_HASH_CAPACITY} slots")
    cp = _cp()
    # entries of 16 bytes: the key (int64), then the first row and the row count (int32 each)
    table = _table_fill()(np.int64(n), size=2 * (capacity + 1)).reshape(capacity + 1, 2)
    row_slot = cp.empty(n, dtype=np.int32)
    if n:
        fn = _module("i8", "f8", "f8").get_function("ember_hash_slots")
        args = (
            key.astype(np.int64, copy=False),
            _ptr(key_valid),
            np.int64(n),
            np.int64(span),
            np.uint64(capacity - 1),
            np.int32(64 - (capacity.bit_length() - 1)),
            table.view(np.uint64),
            row_slot,
        )
        fn((_grid(cp, n),), (_THREADS,), args)
    table[capacity, 0] = span
    halves = table.view(np.int32)  # (capacity + 1, 4): key low, key high, first row, count
    return row_slot, table[:, 0], halves[:, 3], halves[:, 2]


@functools.cache
def _table_fill() -> Any:
    """A hash table's empty entries: key -1, then (first row ``n``, count 0) as one int64."""
    return _cp().ElementwiseKernel(
        "int64 n", "int64 out", "out = (i & 1) ? n : -1LL", "ember_hash_table_fill"
    )


def _host_hash_slots(key: Any, span: int, inside: Any) -> tuple[Any, Any, Any, Any]:
    """``hash_slots`` on the host: ``pandas.factorize`` (a hash table, O(rows)) numbers the kept rows'
    keys by first appearance, so a slot's first row is where the running highest slot rises."""
    import pandas as pd

    n = int(key.shape[0])
    kept = np.flatnonzero(inside)
    codes, distinct = pd.factorize(key[kept], sort=False)
    null_slot = len(distinct)
    row_slot = np.full(n, null_slot, dtype=np.int32)
    row_slot[kept] = codes
    counts = np.bincount(row_slot, minlength=null_slot + 1).astype(np.int64)
    rises = np.flatnonzero(np.diff(np.maximum.accumulate(codes), prepend=-1) > 0)
    outside = np.flatnonzero(~inside)
    first = np.append(kept[rises], outside[0] if len(outside) else n).astype(np.int64)
    return row_slot, np.append(np.asarray(distinct, dtype=np.int64), np.int64(span)), counts, first


def number_groups(row_slot: Any, first: Any, drop_null: bool) -> tuple[Any, Any]:
    """Groups numbered in order of first appearance from the rows: (whether each row is its slot's first
    row, the running count of those rows, int64). ``drop_null``: the null slot (the last) is no group.
    The ranks of a group's first row is its number + 1; the last entry is the number of groups."""
    null_slot = first.shape[0] - 1
    if not is_device_array(row_slot):
        heads = first[row_slot] == np.arange(row_slot.shape[0])
        if drop_null:
            heads &= row_slot != null_slot
        return heads, np.cumsum(heads, dtype=np.int64)
    heads = _heads_kernel()(row_slot, first, np.int32(null_slot), np.bool_(drop_null))
    return heads, _cp().cumsum(heads, dtype=np.int64)


def place_groups(heads: Any, rank: Any, row_slot: Any, ngroups: int, nslots: int) -> tuple[Any, Any]:
    """(each group's slot, each slot's group) from ``number_groups``; a slot that is no group's keeps
    whatever its entry held (no row looks it up) except the null slot, -1."""
    xp = array_module(row_slot)
    slot_of_group = xp.empty(ngroups, dtype=np.int64)
    group_of_slot = xp.empty(nslots, dtype=np.int64)
    group_of_slot[nslots - 1] = -1
    if not is_device_array(row_slot):
        at = np.flatnonzero(heads)
        slot_of_group[rank[at] - 1] = row_slot[at]
        group_of_slot[row_slot[at]] = rank[at] - 1
    else:
        _place_kernel()(heads, rank, row_slot, slot_of_group, group_of_slot)
    return slot_of_group, group_of_slot


@functools.cache
def _heads_kernel() -> Any:
    return _cp().ElementwiseKernel(
        "int32 s, raw F first, int32 null_slot, bool drop_null",
        "bool head",
        "head = first[s] == i && !(drop_null && s == null_slot)",
        "ember_group_heads",
    )


@functools.cache
def _place_kernel() -> Any:
    return _cp().ElementwiseKernel(
        "bool head, int64 rank, int32 s",
        "raw int64 slot_of_group, raw int64 group_of_slot",
        "if (head) { slot_of_group[rank - 1] = s; group_of_slot[s] = rank - 1; }",
        "ember_place_groups",
    )


def _host_sums(
    key: Any,
    lo: int,
    nslots: int,
    values: Any,
    key_valid: Any,
    valid: Any,
    nan_missing: bool,
    want_sums: bool,
    want_counts: bool,
    acc: Any,
) -> tuple[Any, Any]:
    s = slot_index(key, lo, nslots, key_valid)
    keep = None if valid is None else valid.astype(bool, copy=False)
    if nan_missing and values.dtype.kind == "f":
        finite = ~np.isnan(values)
        keep = finite if keep is None else keep & finite
    if keep is not None:
        s, values = s[keep], values[keep]
    counts = np.bincount(s, minlength=nslots).astype(np.int64) if want_counts else None
    if not want_sums:
        return None, counts
    if acc.kind == "f":
        return np.bincount(s, weights=values.astype(np.float64), minlength=nslots), counts
    sums = np.zeros(nslots, dtype=acc)
    np.add.at(sums, s, values.astype(acc, copy=False))
    return sums, counts


def _ptr(arr: Any) -> Any:
    """A device array argument, or a null pointer for None (bool arrays passed as bytes)."""
    if arr is None:
        return np.uintp(0)
    return arr.view(np.uint8) if arr.dtype == np.bool_ else arr


def source(key_code: str, val_code: str, acc_code: str) -> str:
    """``slots.cu`` for one (key, value, accumulator) type triple (NumPy dtype codes: "i4", "f8", ...)."""
    path = os.path.join(os.path.dirname(__file__), "slots.cu")
    with open(path, encoding="utf-8") as f:
        body = f.read()
    minmax = "unsigned long long" if key_code.startswith("u") else "long long"
    return (
        f"#define EMBER_SLOT_TYPES\ntypedef {_KEY_TYPES[key_code]} ember_key_t;\n"
        f"typedef {_C_TYPES[val_code]} ember_val_t;\ntypedef {_C_TYPES[acc_code]} ember_acc_t;\n"
        f"#define EMBER_MINMAX_TYPE\ntypedef {minmax} ember_minmax_t;\n{body}"
    )


def keys_min_max(keys: list[Any], valids: list[Any]) -> Any:
    """The least and greatest valid value of each integer key, on the device: an (nkeys, 2) int64 array
    (an unsigned key's pair as uint64 bits), one pass per key and no sync. A key with no valid value
    gets (greatest, least) of its type."""
    cp = _cp()
    init = np.empty((len(keys), 2), dtype=np.int64)
    for row, key in zip(init, keys):
        if key.dtype.kind == "u":
            row[:] = np.array([np.iinfo(np.uint64).max, 0], dtype=np.uint64).view(np.int64)
        else:
            row[:] = [np.iinfo(np.int64).max, np.iinfo(np.int64).min]
    out = cp.asarray(init)
    for row, key, valid in zip(out, keys, valids):
        n = int(key.shape[0])
        if n:
            fn = _module(key.dtype.str[1:], "f8", "f8").get_function("ember_key_min_max")
            fn((_grid(cp, n),), (_THREADS,), (key, _ptr(valid), np.int64(n), row))
    return out


@functools.cache
def _module(key_code: str, val_code: str, acc_code: str) -> Any:
    """The kernels compiled for one type triple (CuPy caches the binary on disk)."""
    return _cp().RawModule(code=source(key_code, val_code, acc_code))


def _grid(cp: Any, n: int) -> int:
    sms = cp.cuda.Device().attributes["MultiProcessorCount"]
    return int(max(1, min(8 * sms, (n + _THREADS - 1) // _THREADS)))


def _cp() -> Any:
    from ember.backend.device import cupy_module

    return cupy_module()
