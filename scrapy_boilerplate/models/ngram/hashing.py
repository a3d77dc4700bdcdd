"""Polynomial rolling hashes of every position's n-gram, and the useless ranges they mark.

A fitted ``ngram`` model keeps its useless n-grams as a sorted uint64 array of these hashes
(compact, and numeric so it serialises under the model contract); cleaning a page hashes the
page's own n-grams the same way and looks them up with one ``searchsorted``.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from scrapy_boilerplate.models.ngram.corpus import DELIMITER_CODES

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
    if n <= HORNER_MAX_N:
        values = codes.astype(np.uint64)
        out = np.full(count, SEED, dtype=np.uint64)
        for t in range(n):
            out *= BASE
            out += values[t : t + count]
        return out
    prefix = np.zeros(len(codes) + 1, dtype=np.uint64)
    # codes[t] * B**-t, widened to uint64 by the multiply itself (no separate copy)
    np.cumsum(np.multiply(codes, _powers(_BASE_INVERSE, len(codes)), dtype=np.uint64), out=prefix[1:])
    out = prefix[n:] - prefix[:-n]
    out *= _powers(BASE, count + n - 1)[n - 1 :]  # B**(i + n - 1): one multiply, not two
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
    sorting the queries (one bucket lookup each, then a short probe of the rare crowded bucket).

    A finer table of which top-bit prefixes hold a value is asked first: most windows between
    template runs are no useless n-gram, and one bool lookup rejects nearly all of them.
    """

    def __init__(self, values: np.ndarray) -> None:
        self.values = values
        bits = min(max(len(values).bit_length() + 1, 1), INDEX_MAX_BITS)  # 2-4 buckets per value
        self._shift = np.uint64(64 - bits)
        top = (values >> self._shift).astype(np.intp)
        # values before each bucket: a running count of the (sorted) top bits, no search per bucket
        self._bounds = np.zeros((1 << bits) + 1, dtype=np.int32)
        np.cumsum(np.bincount(top, minlength=1 << bits), out=self._bounds[1:])
        self._crowded = np.diff(self._bounds) > 1  # buckets holding more than one value
        filter_bits = min(max(len(values).bit_length() + FILTER_EXTRA_BITS, 1), FILTER_MAX_BITS)
        self._filter_shift = np.uint64(64 - filter_bits)
        self._filter = np.zeros(1 << filter_bits, dtype=bool)  # True: some value has these top bits
        self._filter[(values >> self._filter_shift).astype(np.intp)] = True

    def maybe_contains(self, hashes: np.ndarray) -> np.ndarray:
        """Bool per hash: False only when it is certainly not one of ``values`` (a prefilter)."""
        return self._filter[np.right_shift(hashes, self._filter_shift).view(np.int64)]

    def contains(self, hashes: np.ndarray) -> np.ndarray:
        """Bool per hash: it is one of ``values``."""
        if not len(self.values):
            return np.zeros(len(hashes), dtype=bool)
        candidates = np.flatnonzero(self.maybe_contains(hashes))
        if 2 * len(candidates) > len(hashes):  # mostly members: the exact test alone is cheaper
            return self._exact(hashes)
        found = np.zeros(len(hashes), dtype=bool)
        found[candidates] = self._exact(hashes[candidates])
        return found

    def _exact(self, hashes: np.ndarray) -> np.ndarray:
        """Bool per hash: it is one of ``values`` (which must not be empty)."""
        values = self.values
        top = np.right_shift(hashes, self._shift).view(np.int64)  # below 2**26: the view is exact
        first = self._bounds[top]
        # a bucket's first value, or (empty bucket) a value of another bucket, which cannot match;
        # clipping only moves empty buckets past the end, which are never probed below
        np.minimum(first, len(values) - 1, out=first)
        found = values[first] == hashes
        # the other values of a crowded bucket, one step at a time (a bucket holds a few at most);
        # linear probing beats a binary search over all values, whose steps miss the cache
        rest = np.flatnonzero(self._crowded[top] & ~found)
        stop = self._bounds[top[rest] + 1]
        step = 1
        while len(rest):
            at = first[rest] + step
            hit = values[at] == hashes[rest]
            found[rest[hit]] = True
            keep = ~hit & (stop > at + 1)
            rest, stop = rest[keep], stop[keep]
            step += 1
        return found


INDEX_MAX_BITS = 26
FILTER_EXTRA_BITS = 4  # prefilter slots per value: 16-32, so a non-member passes 1 time in 16 or fewer
FILTER_MAX_BITS = 24  # at most 16 MB of prefilter
GRID_STEP = 16  # every GRID_STEP-th window is asked first when marking runs of n >= 2 * GRID_STEP


def _sparse_useless(count: int, useless_at: Callable[[np.ndarray | None], np.ndarray]) -> np.ndarray:
    """Sorted window starts that are useless n-grams, enough for the runs they cover (n >= 2 *
    GRID_STEP): every GRID_STEP-th window is asked first, and between two useless ones (at most
    n apart) the windows in between add nothing to the runs, so only the other gaps are asked."""
    grid = np.arange(0, count + GRID_STEP - 1, GRID_STEP)
    grid[-1] = count - 1
    on_grid = useless_at(grid)
    sizes = np.where(on_grid[:-1] & on_grid[1:], 0, np.diff(grid) - 1)
    total = int(sizes.sum())
    if 2 * total > count:  # scattered occurrences: asking every window is cheaper
        return np.flatnonzero(useless_at(None))
    between = np.arange(total) + np.repeat(grid[:-1] + 1 - (np.cumsum(sizes) - sizes), sizes)
    first = np.concatenate([grid[on_grid], between[useless_at(between)]])
    first.sort(kind="stable")  # two sorted runs: a merge
    return first


def covered_runs(
    codes: np.ndarray, n: int, useless: np.ndarray | HashIndex, delimiters: bool = False
) -> tuple[np.ndarray, np.ndarray]:
    """The maximal runs under occurrences of useless n-grams, as sorted (starts, ends) int64
    arrays of positions in ``codes`` (runs never touch); ``useless`` is the sorted hash array or a
    :class:`HashIndex` of it (kept across pages)."""
    index = useless if isinstance(useless, HashIndex) else HashIndex(useless)
    hashes = hash_windows(codes, n)
    if not len(hashes) or not len(index.values):
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    allowed = ~delimiter_inside(codes, n) if delimiters else None

    def useless_at(positions: np.ndarray | None) -> np.ndarray:
        """Bool per window of ``positions`` (None: every window) that is a useless n-gram."""
        if positions is None:
            found = index.contains(hashes)
            return found & allowed if allowed is not None else found
        found = index.contains(hashes[positions])
        return found & allowed[positions] if allowed is not None else found

    first = np.flatnonzero(useless_at(None)) if n < 2 * GRID_STEP else _sparse_useless(len(hashes), useless_at)
    # occurrence [p, p + n) joins the run before it unless p is past its end
    if not len(first):
        return first, first.copy()
    gaps = np.flatnonzero(np.diff(first) > n)
    return first[np.concatenate([[0], gaps + 1])], first[np.append(gaps, len(first) - 1)] + n


def covered(codes: np.ndarray, n: int, useless: np.ndarray | HashIndex, delimiters: bool = False) -> np.ndarray:
    """Range string as a bool mask: True under every occurrence of a useless n-gram (a "0");
    ``useless`` is the sorted hash array or a :class:`HashIndex` of it (kept across pages)."""
    starts, ends = covered_runs(codes, n, useless, delimiters)
    depth = np.zeros(len(codes) + 1, dtype=np.int8)  # difference array of the runs
    depth[starts] = 1
    depth[ends] = -1
    return np.cumsum(depth[:-1], dtype=np.int8) > 0
