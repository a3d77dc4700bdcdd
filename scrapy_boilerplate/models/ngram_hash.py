"""Polynomial rolling hashes of every position's n-gram, and the useless ranges they mark.

A fitted ``ngram`` model keeps its useless n-grams as a sorted uint64 array of these hashes
(compact, and numeric so it serialises under the model contract); cleaning a page hashes the
page's own n-grams the same way and looks them up with one ``searchsorted``.
"""

from __future__ import annotations

import numpy as np

from scrapy_boilerplate.models.ngram_corpus import DELIMITER_CODES

BASE = np.uint64(0x100000001B3)  # odd, so the hash is a bijection on each symbol step (mod 2**64)
SEED = np.uint64(0xCBF29CE484222325)


_MOD = 1 << 64
_BASE_INVERSE = np.uint64(pow(int(BASE), -1, _MOD))
HORNER_MAX_N = 12  # up to this n, n shifted passes beat the prefix-sum form


_POWERS: dict[int, np.ndarray] = {}  # base -> its powers so far (read-only, grown by doubling)


def _powers(base: np.uint64, count: int) -> np.ndarray:
    """``base ** i`` mod 2**64 for i in range(count) (a read-only view of a kept table)."""
    table = _POWERS.get(int(base))
    if table is None or len(table) < count:
        size = max(count, 2 * len(table) if table is not None else 1 << 16)
        table = np.full(size, base, dtype=np.uint64)
        table[:1] = 1
        np.cumprod(table, out=table)
        table.flags.writeable = False
        _POWERS[int(base)] = table
    return table[:count]


def hash_windows(codes: np.ndarray, n: int) -> np.ndarray:
    """Hash of ``codes[i : i + n]`` for every i: ``SEED * B**n + sum_t codes[i+t] * B**(n-1-t)`` mod 2**64.

    Small n: Horner's rule over n shifted slices.  Larger n: the rolling (prefix-sum) form,
    ``B**(i+n-1) * (S[i+n] - S[i])`` with ``S`` the prefix sums of ``codes[t] * B**-t`` (B is odd,
    so it has an inverse mod 2**64), which costs the same for any n.
    """
    count = len(codes) - n + 1
    if n <= 0 or count <= 0:
        return np.zeros(0, dtype=np.uint64)
    values = codes.astype(np.uint64)
    if n <= HORNER_MAX_N:
        out = np.full(count, SEED, dtype=np.uint64)
        for t in range(n):
            out *= BASE
            out += values[t : t + count]
        return out
    prefix = np.zeros(len(values) + 1, dtype=np.uint64)
    values *= _powers(_BASE_INVERSE, len(values))
    np.cumsum(values, out=prefix[1:])
    out = prefix[n:] - prefix[:-n]
    out *= _powers(BASE, count)
    out *= np.uint64(pow(int(BASE), n - 1, _MOD))
    out += np.uint64(int(SEED) * pow(int(BASE), n, _MOD) % _MOD)
    return out


def hash_at(codes: np.ndarray, positions: np.ndarray, n: int, alphabet: np.ndarray | None = None) -> np.ndarray:
    """Hash of ``codes[p : p + n]`` for each p of ``positions`` (same values as :func:`hash_windows`);
    with ``alphabet``, ``codes`` are symbol ids and ``alphabet[id]`` the code point hashed."""
    out = np.full(len(positions), SEED, dtype=np.uint64)
    for t in range(n):
        symbols = codes[positions + t]
        out *= BASE
        out += (alphabet[symbols] if alphabet is not None else symbols).astype(np.uint64)
    return out


def delimiter_inside(codes: np.ndarray, n: int) -> np.ndarray:
    """For every window start, True when ``<`` or ``>`` sits strictly inside the n-gram."""
    count = len(codes) - n + 1
    if count <= 0:
        return np.zeros(0, dtype=bool)
    delim = np.isin(codes, np.array(DELIMITER_CODES, dtype=codes.dtype))
    inside = np.zeros(count, dtype=bool)
    for t in range(1, n - 1):
        inside |= delim[t : t + count]
    return inside


class HashIndex:
    """A sorted uint64 hash array with a direct index on its top bits: membership tests without
    sorting the queries (one bucket lookup each, a binary search only in the rare crowded bucket)."""

    def __init__(self, values: np.ndarray) -> None:
        self.values = values
        bits = min(max(len(values).bit_length() + 1, 1), INDEX_MAX_BITS)  # 2-4 buckets per value
        self._shift = np.uint64(64 - bits)
        top = (values >> self._shift).astype(np.intp)
        self._bounds = np.searchsorted(top, np.arange((1 << bits) + 1)).astype(np.int32)

    def contains(self, hashes: np.ndarray) -> np.ndarray:
        """Bool per hash: it is one of ``values``."""
        values = self.values
        if not len(values):
            return np.zeros(len(hashes), dtype=bool)
        top = (hashes >> self._shift).astype(np.intp)
        first = self._bounds[top]
        crowded = self._bounds[top + 1] - first > 1
        # a bucket's first value, or (empty bucket) a value of another bucket, which cannot match
        found = values[np.minimum(first, len(values) - 1)] == hashes
        again = np.flatnonzero(crowded & ~found)
        if len(again):
            queries = hashes[again]
            found[again] = values[np.minimum(np.searchsorted(values, queries), len(values) - 1)] == queries
        return found


INDEX_MAX_BITS = 26


def covered(codes: np.ndarray, n: int, useless: np.ndarray | HashIndex, delimiters: bool = False) -> np.ndarray:
    """Range string as a bool mask: True under every occurrence of a useless n-gram (a "0");
    ``useless`` is the sorted hash array or a :class:`HashIndex` of it (kept across pages)."""
    index = useless if isinstance(useless, HashIndex) else HashIndex(useless)
    hashes = hash_windows(codes, n)
    mask = np.zeros(len(codes), dtype=bool)
    if not len(hashes) or not len(index.values):
        return mask
    starts = index.contains(hashes)
    if delimiters:
        starts &= ~delimiter_inside(codes, n)
    depth = np.zeros(len(codes) + 1, dtype=np.int32)  # difference array of the covered ranges
    depth[: len(starts)] += starts
    depth[n : n + len(starts)] -= starts
    return np.cumsum(depth[:-1]) > 0
