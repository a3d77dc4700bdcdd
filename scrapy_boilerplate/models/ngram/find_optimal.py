"""FindOptimal in numpy: the alternation count of every a for one n in a single pass.

A position j is covered at (n, a) when some n-gram starting in [j-n+1, j] is among the top
k = a*D//100, i.e. when the sliding minimum ``cover`` of the n-gram buckets (the smallest a
whose top share holds the n-gram) over that window is <= a.  Two neighbours j, j+1 of one
document then differ exactly for a in [min(cover_j, cover_j+1), max(...)), so counting those
bounds once gives A_D(n, a) for all a at the cost of one alternation: the Fig. 3 walk then just
reads a table per n.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from scrapy_boilerplate.models.ngram.corpus import SEP, Corpus
from scrapy_boilerplate.models.ngram.counting import MAX_PERCENT, NEVER, Level, NGramCounter
from scrapy_boilerplate.models.ngram.cut_point import CutPoint, fig3_walk

CHUNK = 1 << 16


def _shift_min(out: np.ndarray, shift: int) -> None:
    """``out[j] = min(out[j], out[j - shift])`` in place, back to front in chunks (small temporaries)."""
    end = len(out)
    while end > shift:
        start = max(shift, end - CHUNK)
        np.minimum(out[start:end], out[start - shift : end - shift], out=out[start:end])
        end = start


def window_min(values: np.ndarray, width: int, in_place: bool = False) -> np.ndarray:
    """``out[j] = min(values[max(0, j-width+1) : j+1])`` by doubling (O(N log width))."""
    out = values if in_place else values.copy()
    span = 1
    while span * 2 <= width:
        _shift_min(out, span)
        span *= 2
    if width > span:
        _shift_min(out, width - span)
    return out


def separator_pairs(corpus: Corpus) -> np.ndarray:
    """Indices j where neighbours j, j+1 straddle a separator (never a boundary)."""
    ids = corpus.ids
    return np.flatnonzero((ids[:-1] == SEP) | (ids[1:] == SEP))


def table_from_cover(corpus: Corpus, cover: np.ndarray, separators: np.ndarray | None = None) -> np.ndarray:
    """A_D(n, a) for a = 0 .. 100 from each position's best covering bucket (int64, 101 counts);
    ``separators`` is :func:`separator_pairs` of ``corpus`` when the caller keeps it across n.

    Only neighbours whose buckets differ count (a few percent of them once n passes ~8); chunk by
    chunk, so the temporaries stay small."""
    separators = separator_pairs(corpus) if separators is None else separators
    from_a = np.zeros(NEVER + 1, dtype=np.int64)  # pairs that differ from this a on ...
    pairs = len(cover) - 1
    for start in range(0, pairs, CHUNK):
        end = min(start + CHUNK, pairs)
        differ = cover[start:end] != cover[start + 1 : end + 1]
        inside = separators[np.searchsorted(separators, start) : np.searchsorted(separators, end)]
        differ[inside - start] = False
        left = np.flatnonzero(differ)
        left += start
        low, high = cover[left], cover[left + 1]
        np.minimum(low, high, out=low)
        np.maximum(cover[left], high, out=high)
        from_a += np.bincount(low, minlength=NEVER + 1)
        from_a -= np.bincount(high, minlength=NEVER + 1)  # ... minus those equal again
    return np.cumsum(from_a)[: MAX_PERCENT + 1]


def alternation_table(corpus: Corpus, level: Level) -> np.ndarray:
    """A_D(n, a) for a = 0 .. 100 (int64 array of 101 counts)."""
    return table_from_cover(corpus, window_min(level.bucket_at, level.n))


@dataclass
class AlternationTables:
    """Alternation tables per n, computed lazily as the walk asks for a new n."""

    counter: NGramCounter
    tables: dict[int, np.ndarray] = field(default_factory=dict)
    ranked: dict[int, tuple[int, np.ndarray]] = field(default_factory=dict)  # n -> (D, repeated_first)
    separators: np.ndarray | None = None  # separator_pairs of the corpus, computed once

    def get(self, n: int) -> np.ndarray:
        while n not in self.tables:
            if self.counter.n < n:
                self.counter.advance()
            level = self.counter.level()
            cover = window_min(level.bucket_at, level.n, in_place=True)  # the buckets are not needed again
            if self.separators is None:
                self.separators = separator_pairs(self.counter.corpus)
            self.tables[level.n] = table_from_cover(self.counter.corpus, cover, self.separators)
            self.ranked[level.n] = (level.distinct, level.repeated_first)
            self.ranked.pop(level.n - 2, None)  # the walk never goes back
            del level, cover
        return self.tables[n]


def walk(table_of, longest: int) -> CutPoint:
    """Fig. 3 over alternation tables (``table_of(n)[a]`` = A_D(n, a))."""
    return fig3_walk(lambda n, a: int(table_of(n)[a]), longest)


def find_optimal_fast(corpus: Corpus, delimiters: bool = False) -> CutPoint:
    """The paper's FindOptimal on a corpus; agrees with :func:`.reference.find_optimal`."""
    return find_optimal_with_starts(corpus, delimiters)[0]


def find_optimal_with_starts(corpus: Corpus, delimiters: bool = False) -> tuple[CutPoint, np.ndarray]:
    """FindOptimal and one start position of each useless n-gram at the cut it finds."""
    tables = AlternationTables(NGramCounter(corpus, delimiters))
    longest = int(corpus.lengths.max()) if len(corpus.lengths) else 0
    cut = walk(tables.get, longest)
    distinct, repeated_first = tables.ranked[cut.n]
    k = cut.a * distinct // 100
    if k <= len(repeated_first):  # the usual case: no n-gram seen once is useless
        return cut, repeated_first[:k].astype(np.int64)
    return cut, top_positions(corpus, cut.n, cut.a, delimiters)


def top_positions(corpus: Corpus, n: int, a: int, delimiters: bool = False) -> np.ndarray:
    """One start position (the first occurrence) of each of the top ``a`` percent n-grams."""
    counter = NGramCounter(corpus, delimiters)
    while counter.n < n:
        counter.advance()
    level = counter.level()
    k = level.top(a)
    first = level.repeated_first[:k].astype(np.int64)
    if k > len(first):
        first = np.concatenate([first, counter.single_positions()[: k - len(first)]])
    return first
