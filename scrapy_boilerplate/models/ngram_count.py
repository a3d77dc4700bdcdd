"""countsort for n = 1, 2, 3, ... in numpy, each n refining the previous one.

The (n+1)-gram at position i is the pair (class of the n-gram at i, symbol i+n), so each step
is one in-place sort of packed 64-bit keys (class, next symbol, position) over the positions
whose n-gram is still repeated: an n-gram seen once stays unique for every longer n, so those
positions retire from sorting.  Classes are exact (no hashing), which is what lets this agree
with the paper's dictionary-based ``countsort`` to the last tie.

A :class:`Level` ranks the n-grams of one n as ``countsort`` does (count descending, ties by
first occurrence) and gives each position the rank of its n-gram.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from scrapy_boilerplate.models.ngram_corpus import SEP, Corpus

NO_RANK = np.iinfo(np.int32).max  # rank of positions where no n-gram starts
PACK_BITS = 63  # (class, next symbol, position) keys are packed into one int64 when they fit


def _bits(value: int) -> int:
    return max(int(value).bit_length(), 1)


def _group_sizes(sorted_keys: np.ndarray) -> np.ndarray:
    """Lengths of the runs of equal values in ``sorted_keys`` (int32, with int32 temporaries)."""
    if not len(sorted_keys):
        return np.zeros(0, dtype=np.int32)
    changes = np.flatnonzero(sorted_keys[1:] != sorted_keys[:-1])
    bounds = np.empty(len(changes) + 2, dtype=np.int32)
    bounds[0], bounds[-1] = 0, len(sorted_keys)
    bounds[1:-1] = changes
    del changes
    bounds[1:-1] += 1
    return np.diff(bounds)


@dataclass(frozen=True)
class Level:
    """The ranked n-grams of one n."""

    n: int
    distinct: int  # D: number of distinct n-grams
    repeated_first: np.ndarray  # int32 first position of each repeated n-gram, in rank order
    repeated_counts: np.ndarray  # int32 count of each repeated n-gram, in rank order
    rank_at: np.ndarray  # int32 rank of the n-gram starting at each position (NO_RANK: none)

    def top(self, a: int) -> int:
        """How many n-grams the top ``a`` percent is."""
        return a * self.distinct // 100


class NGramCounter:
    """Steps n upward over a corpus, keeping only the positions of repeated n-grams sorted."""

    def __init__(self, corpus: Corpus, delimiters: bool = False) -> None:
        self.corpus = corpus
        self.delimiters = delimiters
        self._delim = corpus.delimiter_mask() if delimiters else None
        self._pos_bits = _bits(corpus.size)
        self.n = 1
        self._single = np.zeros(corpus.size, dtype=bool)
        separators = len(corpus.lengths) + 1
        self._pos = np.argsort(corpus.ids, kind="stable")[separators:].astype(np.int32)  # radix sort
        counts = np.bincount(corpus.ids, minlength=len(corpus.alphabet))[1:]
        self._sizes = counts[counts > 0].astype(np.int32)
        self._retire()

    def _sort_and_group(self, keys: np.ndarray) -> None:
        """Sort packed (class key, position) in place, then split into classes (callers then drop
        ``keys`` and retire the single n-grams, so the two never live together)."""
        keys.sort()
        self._pos = np.empty(len(keys), dtype=np.int32)
        np.bitwise_and(keys, (1 << self._pos_bits) - 1, out=self._pos, casting="unsafe")
        keys >>= self._pos_bits
        self._sizes = _group_sizes(keys)

    def _retire(self) -> None:
        """Move positions of n-grams seen once from the sorted arrays to the singles mask."""
        lonely = self._sizes == 1
        if lonely.any():
            ends = np.cumsum(self._sizes)
            self._single[self._pos[ends[lonely] - 1]] = True
            self._pos = self._pos[np.repeat(~lonely, self._sizes)]
            self._sizes = self._sizes[~lonely]

    def _still_valid(self, positions: np.ndarray) -> np.ndarray:
        """Which n-grams at ``positions`` extend to an (n+1)-gram."""
        ids, n = self.corpus.ids, self.n
        ok = ids[n:][positions] != SEP
        if self._delim is not None and n >= 2:
            ok &= ~self._delim[n - 1 :][positions]  # that symbol moves inside the n-gram
        return ok

    def _advance_singles(self) -> None:
        size, n = self.corpus.size, self.n
        head = max(size - n, 0)
        self._single[head:] = False
        self._single[:head] &= self.corpus.ids[n:] != SEP
        if self._delim is not None and n >= 2:
            self._single[:head] &= ~self._delim[n - 1 : size - 1]

    def advance(self) -> None:
        """Go from n to n + 1."""
        n, symbols = self.n, len(self.corpus.alphabet)
        self._advance_singles()
        ok = self._still_valid(self._pos)
        dropped = np.flatnonzero(~ok)  # few: n-grams reaching a document's end or a delimiter
        group_of_dropped = np.searchsorted(np.cumsum(self._sizes), dropped, side="right")
        kept = self._sizes - np.bincount(group_of_dropped, minlength=len(self._sizes))
        pos = self._pos[ok]
        del ok
        self._pos = np.zeros(0, dtype=np.int32)  # release the old positions before sorting
        keys = np.repeat(np.arange(len(self._sizes), dtype=np.int64), kept)
        self.n = n + 1
        following = self.corpus.ids[n:]  # a view: following[i] is the symbol at i + n
        if _bits(max(len(self._sizes), 1) * symbols) + self._pos_bits <= PACK_BITS:
            keys *= symbols
            keys += following[pos]
            keys <<= self._pos_bits
            keys |= pos
            del pos
            self._sort_and_group(keys)
            del keys
            self._retire()
        else:  # too many classes to pack: a slower lexicographic sort
            nxt = following[pos]
            order = np.lexsort((pos, nxt, keys))
            self._pos, keys = pos[order], keys[order] * symbols + nxt[order]
            self._sizes = _group_sizes(keys)
            self._retire()

    def level(self) -> Level:
        """Rank the current n-grams: count descending, ties by first occurrence."""
        sizes = self._sizes
        first = self._pos[np.cumsum(sizes) - sizes] if len(sizes) else np.zeros(0, dtype=np.int32)
        order = np.lexsort((first, -sizes.astype(np.int64)))
        rank_of_class = np.empty(len(sizes), dtype=np.int32)
        rank_of_class[order] = np.arange(len(sizes), dtype=np.int32)
        rank_at = np.cumsum(self._single, dtype=np.int32)  # singles rank after repeated n-grams
        rank_at += len(sizes) - 1
        rank_at[~self._single] = NO_RANK
        rank_at[self._pos] = np.repeat(rank_of_class, sizes)
        distinct = len(sizes) + int(np.count_nonzero(self._single))
        return Level(self.n, distinct, first[order].astype(np.int32), sizes[order], rank_at)

    def single_positions(self) -> np.ndarray:
        """Positions of n-grams seen once, in position order (their rank order too)."""
        return np.flatnonzero(self._single)
