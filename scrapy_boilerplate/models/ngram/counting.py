"""countsort for n = 1, 2, 3, ... in numpy, each n refining the previous one.

The positions of repeated n-grams are kept grouped by n-gram (suffix-array order up to depth n,
positions ascending inside a group), with the size of each group.  The (n+1)-gram at a position
is (its n-gram, the symbol n further on), so going to n + 1 gathers the next symbols once and
only reorders the groups followed by more than one symbol (7-30 % of the slots past n = 4 on
template-heavy pages): their slots are sorted in place, a batch of groups at a time, by packed
64-bit keys (group, next symbol, position); the others keep their slots.  An n-gram seen once
stays unique for every longer n, so its position retires to a mask in position order.
Classes are exact (no hashing), which is what lets this agree with the paper's dictionary-based
``countsort`` to the last tie.

A :class:`Level` ranks the n-grams of one n as ``countsort`` does (count descending, ties by
first occurrence) and gives each position the bucket of its n-gram's rank: the smallest a whose
top a percent holds it, all the alternation count of any a needs.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from scrapy_boilerplate.models.ngram.corpus import SEP, Corpus

MAX_PERCENT = 100
NEVER = MAX_PERCENT + 1  # bucket of positions no top-a share covers (no n-gram starts there)
CHUNK = 1 << 18  # slots or positions per chunk where a full-size temporary would raise the peak
PACK_BITS = 63  # (group, next symbol, position) keys are packed into one int64 when they fit


def _bits(value: int) -> int:
    return max(int(value).bit_length(), 1)


def buckets(ranks: np.ndarray, distinct: int) -> np.ndarray:
    """uint8 smallest a in 1..100 with ``rank < a * distinct // 100`` for each int64 rank (a rank
    is in the top ``k = a*D//100`` n-grams exactly for a >= its bucket)."""
    out = ranks + 1
    out *= MAX_PERCENT
    out += distinct - 1
    out //= max(distinct, 1)
    return out.astype(np.uint8)


def _by_symbol(ids: np.ndarray, symbols: int) -> tuple[np.ndarray, np.ndarray]:
    """Positions of every symbol but SEP grouped by symbol, ascending inside a group (int32), and
    the int64 group sizes: a counting sort, chunk by chunk (small temporaries)."""
    counts = np.bincount(ids, minlength=symbols)
    counts[SEP] = 0
    filled = np.cumsum(counts) - counts  # next free slot of each symbol
    pos = np.empty(int(counts.sum()), dtype=np.int32)
    for start in range(0, len(ids), CHUNK):
        chunk = ids[start : start + CHUNK]
        order = np.argsort(chunk, kind="stable")  # radix sort
        chunk_counts = np.bincount(chunk, minlength=symbols)
        chunk_counts[SEP] = 0
        order = order[len(order) - int(chunk_counts.sum()) :]  # SEP sorts first
        present = np.flatnonzero(chunk_counts)
        slots = np.repeat(
            filled[present] - (np.cumsum(chunk_counts[present]) - chunk_counts[present]), chunk_counts[present]
        )
        slots += np.arange(len(order))
        pos[slots] = order + start
        filled += chunk_counts
    return pos, counts[counts > 0]


def _slots(starts: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """Every slot of the groups with these ``starts`` and ``sizes``, in order (int64)."""
    out = np.repeat(starts - (np.cumsum(sizes) - sizes), sizes)
    out += np.arange(len(out))
    return out


def _spread(values: np.ndarray, starts: np.ndarray, total: int) -> np.ndarray:
    """uint8 value of its group for each of ``total`` slots, from one uint8 value (<= 127) per group
    (a cumulative sum of int8 steps: cheaper than ``np.repeat`` over many small groups)."""
    steps = np.zeros(total, dtype=np.int8)
    steps[starts] = np.diff(values.astype(np.int8), prepend=np.int8(0))
    return np.cumsum(steps, dtype=np.int8, out=steps).view(np.uint8)


@dataclass(frozen=True)
class Level:
    """The ranked n-grams of one n."""

    n: int
    distinct: int  # D: number of distinct n-grams
    repeated_first: np.ndarray  # int32 first position of each repeated n-gram, in rank order
    bucket_at: np.ndarray  # uint8 bucket of the n-gram starting at each position (NEVER: none)

    def top(self, a: int) -> int:
        """How many n-grams the top ``a`` percent is."""
        return a * self.distinct // 100


class NGramCounter:
    """Steps n upward over a corpus, keeping only the positions of repeated n-grams grouped."""

    def __init__(self, corpus: Corpus, delimiters: bool = False) -> None:
        self.corpus = corpus
        self.delimiters = delimiters
        self._delim = corpus.delimiter_mask() if delimiters else None
        self._pos_bits = _bits(corpus.size)
        self.n = 1
        self._single = np.zeros(corpus.size, dtype=bool)
        small = len(corpus.alphabet) <= 1 << 8  # one byte per symbol: a faster gather
        self._ids = corpus.ids.astype(np.uint8) if small else corpus.ids
        self._pos, self._sizes = _by_symbol(self._ids, len(corpus.alphabet))
        self._retire(np.zeros(len(self._sizes), dtype=bool), self._starts())

    def _starts(self) -> np.ndarray:
        """First slot of every group."""
        return np.cumsum(self._sizes) - self._sizes

    def _retire(self, dead: np.ndarray, starts: np.ndarray) -> None:
        """Drop the groups of ``dead`` (n-grams that stopped existing) and the groups of one slot,
        whose positions move to the singles mask (``starts``: each group's first slot)."""
        sizes = self._sizes
        lonely = (sizes == 1) & ~dead
        self._single[self._pos[starts[lonely]]] = True
        dead |= lonely
        if not dead.any():
            return
        if 8 * int(sizes[dead].sum()) > len(self._pos):  # many slots go: one mask over all
            keep = np.repeat(~dead, sizes)
        else:  # few: mark just their slots
            keep = np.ones(len(self._pos), dtype=bool)
            keep[_slots(starts[dead], sizes[dead])] = False
        self._pos = self._pos[keep]
        self._sizes = sizes[~dead]

    def _advance_singles(self) -> None:
        size, n = self.corpus.size, self.n
        head = max(size - n, 0)
        self._single[head:] = False
        self._single[:head] &= self._ids[n:] != SEP
        if self._delim is not None and n >= 2:
            self._single[:head] &= ~self._delim[n - 1 : size - 1]

    def _split(self, nxt: np.ndarray, splitting: np.ndarray, starts: np.ndarray) -> None:
        """Sort the slots of the ``splitting`` groups by (group, next symbol, position) in place,
        a batch of groups at a time, permuting ``nxt`` along."""
        symbol_bits, pos_bits = _bits(len(self.corpus.alphabet) - 1), self._pos_bits
        chosen = np.flatnonzero(splitting)
        starts, sizes = starts[chosen], self._sizes[chosen]
        offsets = np.cumsum(sizes) - sizes  # of each group among the slots to sort
        cuts = np.unique(np.append(np.searchsorted(offsets, np.arange(0, int(sizes.sum()), CHUNK)), len(sizes)))
        for begin, end in zip(cuts[:-1], cuts[1:], strict=False):
            slots = _slots(starts[begin:end], sizes[begin:end])
            sub_pos, sub_next = self._pos[slots], nxt[slots]
            group = np.repeat(np.arange(end - begin, dtype=np.int64), sizes[begin:end])
            if _bits(end - begin) + symbol_bits + pos_bits <= PACK_BITS:
                group <<= symbol_bits
                group |= sub_next
                group <<= pos_bits
                group |= sub_pos
                group.sort()
                self._pos[slots] = group & ((1 << pos_bits) - 1)
                group >>= pos_bits
                nxt[slots] = group & ((1 << symbol_bits) - 1)
            else:  # too many groups or positions to pack: a slower lexicographic sort
                order = np.lexsort((sub_pos, sub_next, group))
                self._pos[slots], nxt[slots] = sub_pos[order], sub_next[order]

    def advance(self) -> None:
        """Go from n to n + 1."""
        n = self.n
        self._advance_singles()
        self.n = n + 1
        if not len(self._pos):
            return
        nxt = np.empty(len(self._pos), dtype=self._ids.dtype)  # the symbol each (n+1)-gram adds
        for start in range(0, len(nxt), CHUNK):  # ``take`` casts its indices: chunked, small temporaries
            nxt[start : start + CHUNK] = np.take(self._ids[n:], self._pos[start : start + CHUNK])
        starts = self._starts()
        change = np.empty(len(nxt), dtype=bool)  # another next symbol than the slot before
        change[0] = True
        np.not_equal(nxt[1:], nxt[:-1], out=change[1:])
        change[starts] = False  # ... inside one group
        self._split(nxt, np.logical_or.reduceat(change, starts), starts)
        np.not_equal(nxt[1:], nxt[:-1], out=change[1:])  # sorted now: the new groups change symbol
        change[starts] = True
        starts = np.flatnonzero(change)
        del change
        self._sizes = np.diff(starts, append=len(nxt))
        dead = nxt[starts] == SEP  # n-grams reaching a document's end
        del nxt
        if self._delim is not None and n >= 2:  # the symbol at n - 1 moves inside the n-gram
            dead |= self._delim[self._pos[starts] + (n - 1)]
        self._retire(dead, starts)

    def level(self) -> Level:
        """Rank the current n-grams (count descending, ties by first occurrence) and bucket them."""
        sizes, pos = self._sizes, self._pos
        count = len(sizes)
        starts = self._starts()
        first = pos[starts]
        distinct = count + int(np.count_nonzero(self._single))
        bucket_at = np.empty(self.corpus.size, dtype=np.uint8)
        if 2 * self._pos_bits <= PACK_BITS:  # one int64 sort of (count descending, first position)
            keys = np.int64(sizes.max(initial=0)) - sizes
            keys <<= self._pos_bits
            keys |= first
            keys.sort()
            ranked_first = (keys & ((1 << self._pos_bits) - 1)).astype(np.int32)
            del keys
        else:
            ranked_first = first[np.lexsort((first, -sizes))].astype(np.int32)
        bucket_at[ranked_first] = buckets(np.arange(count, dtype=np.int64), distinct)  # as scratch
        of_slot = _spread(bucket_at[first], starts, len(pos))
        bucket_at.fill(NEVER)
        for start in range(0, len(pos), CHUNK):  # intp indices chunk by chunk: a faster scatter
            bucket_at[pos[start : start + CHUNK].astype(np.intp)] = of_slot[start : start + CHUNK]
        del of_slot
        rank = count  # singles rank after the repeated n-grams, by position (in chunks: small temporaries)
        for start in range(0, len(bucket_at), CHUNK):
            found = np.flatnonzero(self._single[start : start + CHUNK])
            bucket_at[found + start] = buckets(np.arange(rank, rank + len(found), dtype=np.int64), distinct)
            rank += len(found)
        return Level(self.n, distinct, ranked_first, bucket_at)

    def single_positions(self) -> np.ndarray:
        """Positions of n-grams seen once, in position order (their rank order too)."""
        return np.flatnonzero(self._single)
