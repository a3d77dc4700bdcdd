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
_CHUNK = 1 << 18  # positions per chunk where a full-size temporary would raise the peak
PACK_BITS = 63  # (class, next symbol, position) keys are packed into one int64 when they fit
SORT_ALL_SHARE = 0.3  # when more positions than this share split, one full sort is cheaper


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


def _splitting(following: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """Bool per position (grouped by class, by position within a class): its class is followed by
    more than one symbol, so it splits at n + 1 and its positions need sorting; other classes keep
    their order."""
    change = np.empty(len(following), dtype=bool)
    change[:1] = False
    np.not_equal(following[1:], following[:-1], out=change[1:])
    present = sizes > 0
    starts = (np.cumsum(sizes) - sizes)[present]
    change[starts] = False  # a new class, not a new symbol
    split = np.zeros(len(sizes), dtype=bool)
    if len(starts):
        split[present] = np.logical_or.reduceat(change, starts)
    return np.repeat(split, sizes)


@dataclass(frozen=True)
class Level:
    """The ranked n-grams of one n."""

    n: int
    distinct: int  # D: number of distinct n-grams
    repeated_first: np.ndarray  # int32 first position of each repeated n-gram, in rank order
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

    def _sort_and_group(self, keys: np.ndarray, unsorted: np.ndarray | None = None) -> None:
        """Sort packed (class key, position) in place, then split into classes (callers then drop
        ``keys`` and retire the single n-grams, so the two never live together).

        ``unsorted`` (bool per key) marks the only keys out of order: whole classes whose keys
        are in order everywhere else, so sorting just those and putting them back sorts all.
        """
        if unsorted is None:
            keys.sort()
        else:
            part = keys[unsorted]
            part.sort()
            keys[unsorted] = part
            del part
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
        nxt = self.corpus.ids[n:][self._pos]  # the symbol each (n+1)-gram adds (one gather)
        ok = nxt != SEP
        if self._delim is not None and n >= 2:
            ok &= ~self._delim[n - 1 :][self._pos]  # that symbol moves inside the n-gram
        dropped = np.flatnonzero(~ok)  # few: n-grams reaching a document's end or a delimiter
        group_of_dropped = np.searchsorted(np.cumsum(self._sizes), dropped, side="right")
        kept = self._sizes - np.bincount(group_of_dropped, minlength=len(self._sizes))
        if len(dropped):
            pos, nxt = self._pos[ok], nxt[ok]
        else:
            pos = self._pos
        del ok
        self._pos = np.zeros(0, dtype=np.int32)  # release the old positions before sorting
        packed = _bits(max(len(self._sizes), 1) * symbols) + self._pos_bits <= PACK_BITS
        unsorted = _splitting(nxt, kept) if packed else None
        if unsorted is not None and np.count_nonzero(unsorted) > SORT_ALL_SHARE * len(unsorted):
            unsorted = None
        keys = np.repeat(np.arange(len(self._sizes), dtype=np.int64), kept)
        self.n = n + 1
        if packed:
            keys *= symbols
            keys += nxt
            del nxt
            keys <<= self._pos_bits
            keys |= pos
            del pos
            self._sort_and_group(keys, unsorted)
            del unsorted
            del keys
            self._retire()
        else:  # too many classes to pack: a slower lexicographic sort
            order = np.lexsort((pos, nxt, keys))
            self._pos, keys = pos[order], keys[order] * symbols + nxt[order]
            self._sizes = _group_sizes(keys)
            self._retire()

    def level(self) -> Level:
        """Rank the current n-grams: count descending, ties by first occurrence."""
        sizes, count = self._sizes, len(self._sizes)
        first = self._pos[np.cumsum(sizes) - sizes] if count else np.zeros(0, dtype=np.int32)
        rank_at = np.empty(self.corpus.size, dtype=np.int32)
        if 2 * self._pos_bits <= PACK_BITS:  # one int64 sort of (count descending, first position)
            keys = np.int64(sizes.max(initial=0)) - sizes.astype(np.int64)
            keys <<= self._pos_bits
            keys |= first
            keys.sort()
            ranked_first = (keys & ((1 << self._pos_bits) - 1)).astype(np.int32)
            del keys
            rank_at[ranked_first] = np.arange(count, dtype=np.int32)  # rank_at as scratch space
            rank_of_class = rank_at[first]
        else:
            order = np.lexsort((first, -sizes.astype(np.int64)))
            ranked_first = first[order]
            rank_of_class = np.empty(count, dtype=np.int32)
            rank_of_class[order] = np.arange(count, dtype=np.int32)
        rank_at.fill(NO_RANK)
        distinct = count  # singles rank after the repeated n-grams, by position (in chunks: small temporaries)
        for start in range(0, len(rank_at), _CHUNK):
            singles = np.flatnonzero(self._single[start : start + _CHUNK])
            rank_at[singles + start] = np.arange(distinct, distinct + len(singles), dtype=np.int32)
            distinct += len(singles)
        rank_at[self._pos] = np.repeat(rank_of_class, sizes)
        return Level(self.n, distinct, ranked_first, rank_at)

    def single_positions(self) -> np.ndarray:
        """Positions of n-grams seen once, in position order (their rank order too)."""
        return np.flatnonzero(self._single)
