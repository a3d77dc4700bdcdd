"""``ngram``: frequent n-grams of a site's pages are its template (FindOptimal cut point).

"A preprocessing method for Web mining" (``../shared/papers/000_bf2d73085f7cc8a4.txt``): treat
each page as a plain string, call every n-gram in the top a percent by frequency useless, and
choose the cut point (n, a) by walking from (2, 1) while the alternation count (the number of
useless/non-useless boundaries) drops.  The fitted state is the cut point and the useless
n-grams as a sorted array of 64-bit rolling hashes; cleaning a page marks the occurrences of
those hashes and keeps the rest, turned into text through the page's parsed tree.

``variant="paper"`` is FindOptimal as written.  ``variant="improved"`` (default) chooses the
cut point differently where the development data showed the paper's walk stops too early
(see :mod:`scrapy_boilerplate.models.ngram.shared_cut`).  ``delimiters=True`` is the paper's
future-work idea: ``<`` and ``>`` may only open or close an n-gram.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import numpy as np

from scrapy_boilerplate.html import body_text
from scrapy_boilerplate.html.structure import kept_html
from scrapy_boilerplate.models.arrays import sorted_unique
from scrapy_boilerplate.models.base import CleanedPage, Decision, SiteModel
from scrapy_boilerplate.models.errors import ModelFormatError
from scrapy_boilerplate.models.ngram.corpus import build_corpus, collapse
from scrapy_boilerplate.models.ngram.cut_point import CutPoint
from scrapy_boilerplate.models.ngram.find_optimal import find_optimal_with_starts
from scrapy_boilerplate.models.ngram.hashing import HashIndex, covered_runs, hash_at
from scrapy_boilerplate.models.ngram.shared_cut import shared_cut
from scrapy_boilerplate.models.ngram.text_ranges import RemovedRanges, keep_text
from scrapy_boilerplate.models.registry import register
from scrapy_boilerplate.page import Page, body_of

VARIANTS = ("paper", "improved")
# improved: a kept range with under this share of the richest kept range's text is dropped too
# (site-level F1 at n = 96 on 20 development sites: no floor 0.719, 0.2: 0.758; on 40 sites:
# 0.2: 0.793, 0.3: 0.805, 0.4: 0.807 with recall falling).
IMPROVED_RANGE_SHARE = 0.3


def removed_source_ranges(html: str, n: int, useless: np.ndarray | HashIndex, delimiters: bool) -> RemovedRanges:
    """The characters of ``html`` inside occurrences of useless n-grams, as maximal runs."""
    codes, offsets = collapse(html)
    starts, ends = covered_runs(codes, n, useless, delimiters)
    # a preprocessed character stands for its source characters up to the next one's (a run
    # ending at the last one ends with the source)
    source_ends = offsets[np.minimum(ends, len(offsets) - 1)]
    source_ends[ends == len(offsets)] = len(html)
    return RemovedRanges(offsets[starts], source_ends, len(html))


@register
class NGramModel(SiteModel):
    """Site model: useless n-grams learned from a sample of one site's pages.

    Parameters
    ----------
    variant:
        ``"paper"`` for FindOptimal as written, ``"improved"`` for the development-data choice.
    delimiters:
        Count only n-grams with ``<`` and ``>`` at their ends (the paper's future work; off by
        default because it lowered F1 on the development data, see docs/ngram.md).
    min_range_share:
        Drop kept ranges with less text than this share of the richest one (None: the variant's
        default, 0 for the paper, ``IMPROVED_RANGE_SHARE`` for the improved variant).
    """

    name = "ngram"

    def __init__(
        self, variant: str = "improved", delimiters: bool = False, min_range_share: float | None = None
    ) -> None:
        super().__init__()
        if variant not in VARIANTS:
            raise ValueError(f"variant must be one of {VARIANTS}, got {variant!r}")
        if delimiters not in (True, False):
            raise ValueError(f"delimiters must be true or false, got {delimiters!r}")
        if min_range_share is not None and not 0.0 <= float(min_range_share) <= 1.0:
            raise ValueError(f"min_range_share must be within [0, 1], got {min_range_share!r}")
        self.variant = variant
        self.delimiters = delimiters
        self.min_range_share = None if min_range_share is None else float(min_range_share)
        self.cut_: CutPoint | None = None
        self.useless_ = np.zeros(0, dtype=np.uint64)

    @property
    def range_share(self) -> float:
        """Kept ranges with less text than this share of the richest one are dropped too."""
        if self.min_range_share is not None:
            return self.min_range_share
        return 0.0 if self.variant == "paper" else IMPROVED_RANGE_SHARE

    def _fit(self, pages: list[Page]) -> None:
        delimiters = self.delimiters
        if self.variant == "paper":
            corpus = build_corpus([page.html for page in pages])
            if not len(corpus.lengths) or int(corpus.lengths.max()) < 2:
                self.cut_, self.useless_ = None, np.zeros(0, dtype=np.uint64)
                return
            cut, starts = find_optimal_with_starts(corpus, delimiters)
            self.cut_ = cut
            self.useless_ = sorted_unique(hash_at(corpus.ids, starts, cut.n, corpus.alphabet))
        else:
            self.cut_, self.useless_ = shared_cut([collapse(page.html)[0] for page in pages], delimiters=delimiters)

    def _index(self) -> HashIndex:
        """The lookup index of ``useless_``, built once per fitted or loaded array."""
        index = getattr(self, "_useless_index", None)
        if index is None or index.values is not self.useless_:
            index = self._useless_index = HashIndex(self.useless_)
        return index

    def _reason(self, removed: bool) -> str:
        cut = self.cut_
        where = f"n={cut.n}, top {cut.a}%" if cut is not None else "no cut point"
        return f"useless n-grams ({where})" if removed else f"no useless n-gram ({where})"

    def _clean(self, page: Page) -> CleanedPage:
        tree = page.private_tree()  # the page is read only through this tree: no shared parse
        total = len(body_text(body_of(tree)))
        if self.cut_ is None:
            removed = RemovedRanges.nothing(len(page.html))
        else:
            removed = removed_source_ranges(page.html, self.cut_.n, self._index(), self.delimiters)
        keep_text(tree, page.html, removed, self.range_share)
        body = body_of(tree)  # keep_text may have removed an empty body
        text = body_text(body)
        reasons = (self._reason(False), self._reason(True))
        decisions = tuple(Decision(f"chars:{s}-{e}", not gone, e - s, reasons[gone]) for s, e, gone in removed.ranges())
        kept_share = 1.0 - removed.removed / removed.length if removed.length else 1.0
        html = partial(kept_html, body)  # serialised when read
        return CleanedPage(text, html, self.name, total, min(len(text), total), kept_share, decisions)

    def _get_state(self) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
        cut = self.cut_
        state = {"cut": None if cut is None else {"n": cut.n, "a": cut.a, "alternation": cut.alternation}}
        return state, {"useless": self.useless_}

    def _set_state(self, state: dict[str, Any], arrays: dict[str, np.ndarray]) -> None:
        if set(state) != {"cut"} or set(arrays) != {"useless"}:
            raise ModelFormatError(
                f"ngram state needs 'cut' and array 'useless', got {sorted(state)}, {sorted(arrays)}"
            )
        cut, useless = state["cut"], arrays["useless"]
        if useless.dtype != np.uint64 or useless.ndim != 1 or np.any(useless[1:] <= useless[:-1]):
            raise ModelFormatError("ngram 'useless' must be a strictly increasing 1-D uint64 array")
        if cut is None:
            self.cut_ = None
        else:
            try:
                self.cut_ = CutPoint(int(cut["n"]), int(cut["a"]), int(cut["alternation"]))
            except (KeyError, TypeError, ValueError) as exc:
                raise ModelFormatError(f"ngram cut point is malformed: {exc}") from exc
            if self.cut_.n < 1 or not 0 <= self.cut_.a <= 100:
                raise ModelFormatError(f"ngram cut point out of range: {self.cut_}")
        self.useless_ = useless
