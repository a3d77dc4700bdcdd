"""The ``improved`` variant's cut point, chosen from what the development data showed.

On Dragnet's site-level subset the paper's walk from (2, 1) stops early (n ~ 10-25, a = 1-2 %):
most of the template stays and precision is ~0.39.  The alternation count itself keeps falling
as n grows once useless n-grams are those shared by pages, so it cannot pick n there either.
What works is ranking n-grams by document frequency instead of raw count (an n-gram repeated
inside one page, like comment markup, is not template; one on every page is) and cutting at
"seen on at least two sample pages", with a long fixed n (site-level F1 on 20 development
sites rose from 0.68 at n = 16 to 0.75 at n = 64-96 and fell after; 96 was best on 40 sites).  The cut is still reported as (n, a), a being the share of distinct n-grams
marked useless, with the alternation count it attains.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from scrapy_boilerplate.models.arrays import sorted_unique
from scrapy_boilerplate.models.ngram.cut_point import CutPoint
from scrapy_boilerplate.models.ngram.hashing import HashIndex, covered, delimiter_inside, hash_windows

IMPROVED_N = 96  # n-gram length of the improved variant
MIN_PAGES = 2  # an n-gram on at least this many sample pages is useless


def page_ngrams(codes: np.ndarray, n: int, delimiters: bool) -> np.ndarray:
    """Sorted distinct n-gram hashes of one preprocessed page."""
    hashes = hash_windows(codes, n)
    if delimiters and len(hashes):
        hashes = hashes[~delimiter_inside(codes, n)]
    return sorted_unique(hashes)


def shared_cut(
    pages: Sequence[np.ndarray], n: int = IMPROVED_N, min_pages: int = MIN_PAGES, delimiters: bool = False
) -> tuple[CutPoint, np.ndarray]:
    """The cut point and the sorted hashes of n-grams found on at least ``min_pages`` pages."""
    per_page = [page_ngrams(codes, n, delimiters) for codes in pages]
    if not per_page:
        return CutPoint(n, 0, 0), np.zeros(0, dtype=np.uint64)
    hashes, pages_with = np.unique(np.concatenate(per_page), return_counts=True)
    del per_page
    useless = hashes[pages_with >= min_pages]
    share = round(100 * len(useless) / len(hashes)) if len(hashes) else 0
    index = HashIndex(useless)
    alternation = sum(
        int(np.count_nonzero(np.diff(covered(codes, n, index, delimiters).view(np.int8)))) for codes in pages
    )
    return CutPoint(n, share, alternation), useless
