"""``style_tree``: the Site Style Tree of Yi, Liu and Li, "Eliminating Noisy Information in Web
Pages for Data Mining", KDD 2003.

``fit`` merges the sample's DOM trees into a site style tree (:mod:`.build`), computes node and
composite importance and marks noisy and meaningful nodes (:mod:`.importance`), and keeps the
simplified SST (:mod:`.compact`).  ``clean`` maps a page onto it (:mod:`.mapping`) and drops
what maps to noisy nodes.  The paper's three enhancements are switches: ``merge_elements``,
``virtual_leaves`` and ``local_noise``.

``variant="paper"`` stops there: the page minus its noise.  ``variant="improved"`` (default)
matches children by (key, occurrence) and then picks the main text inside what the SST kept
(:mod:`.refine`), because users want the article, not "everything that varies".
"""

from __future__ import annotations

import copy
from array import array
from functools import partial
from typing import Any

import lxml.etree
import lxml.html

from scrapy_boilerplate.html import raw_text, remove_keeping_tail, to_text
from scrapy_boilerplate.html.measure import Lengths, measure
from scrapy_boilerplate.html.structure import kept_html
from scrapy_boilerplate.html.text import collapsed_length
from scrapy_boilerplate.html.walk import element_path_finder
from scrapy_boilerplate.models.base import CleanedPage, Decision, SiteModel
from scrapy_boilerplate.models.errors import ModelFormatError
from scrapy_boilerplate.models.registry import register
from scrapy_boilerplate.models.style_tree.build import BuildOptions, SiteStyleTree
from scrapy_boilerplate.models.style_tree.compact import MEANINGFUL, CompactNode, from_state, simplify, to_state
from scrapy_boilerplate.models.style_tree.importance import ATTENUATION, LOCAL_NOISE_ENTROPY, NOISE_THRESHOLD, mark
from scrapy_boilerplate.models.style_tree.mapping import Region, Verdicts, locally_noisy_leaves, map_page
from scrapy_boilerplate.models.style_tree.refine import PROSE, Removal, find_main_text, is_prose
from scrapy_boilerplate.page import Page

VARIANTS = ("paper", "improved")
LOCAL_NOISE_MAX_CHARS = 120  # longer leaves are not checked for locally noisy features
FALLBACK_MIN_CHARS = 200  # less main text than this after SST: try picking it without SST,
FALLBACK_GAIN = 4  # and take that when it finds this many times more text,
FALLBACK_MIN_GAINED = 500  # and at least this much (short posts are often really short)
IMPROVED_SHINGLE = 3  # word 3-grams recur across pages only when the text itself does


def _inner(a: lxml.etree._Element, b: lxml.etree._Element) -> lxml.etree._Element | None:
    """The inner one of two nested elements, or None when they are disjoint."""
    if a is b or any(x is b for x in a.iterancestors()):
        return a
    if any(x is a for x in b.iterancestors()):
        return b
    return None


def _visible_chars(el: lxml.etree._Element) -> int:
    """Visible characters of an unmeasured subtree, whitespace collapsed (for the decisions report).

    A leaf's text is read as it is, without calling libxml2's text serialiser (~4k instructions).
    """
    if len(el):
        return collapsed_length(raw_text(el))
    text = el.text
    return collapsed_length(text) if text else 0


def _chars(removal: Removal, el: lxml.etree._Element) -> int:
    """Visible characters of ``el`` (whitespace collapsed), also once it has been removed."""
    lengths = removal.lengths.get(el)
    if lengths is not None:
        return lengths.text
    return removal.removed[el][1].text if el in removal.removed else 0


def _copy_without(
    el: lxml.etree._Element, removal: Removal, spared: frozenset = frozenset(), share: bool = False
) -> lxml.etree._Element:
    """A private copy of ``el``'s subtree without the removed elements but ``spared`` (the page stays untouched).

    With ``share``, ``el`` itself when nothing inside it goes, for a caller that only reads the
    subtree (its text, and its markup without the tail): no copy made, walked and freed.
    """
    removed = removal.removed
    # Positions in document order (the copy's walk has the same), so the original is walked once.
    gone = [i for i, theirs in enumerate(el.iter()) if theirs in removed and theirs not in spared]
    if share and not gone:
        return el
    out = copy.deepcopy(el)
    out.tail = None
    if not gone:  # (the usual case on template pages: the copy's elements are never made into objects)
        return out
    copies = list(out.iter())
    for mine in [copies[i] for i in gone]:
        if mine is out:
            return lxml.html.Element("div")
        remove_keeping_tail(mine)
    return out


# A decision as the clean records it, (element, kept, chars, reason): a plain tuple, its element
# not yet named by path (see _named).
_Decided = tuple[lxml.etree._Element, bool, int, str]


def _named(tree: lxml.etree._Element, decided: list[_Decided]) -> tuple[Decision, ...]:
    """The decisions with their elements named by path, made only when someone reads them.

    The page's tree is shared and read-only, and the clean builds its output on copies, so the
    paths are the ones the clean saw.
    """
    path = element_path_finder(tree)
    return tuple(Decision(path(element), kept, chars, reason) for element, kept, chars, reason in decided)


def _unit(name: str, value: float) -> float:
    value = float(value)
    if not 0.0 <= value <= 1.0:
        raise ValueError(f"{name} must be within [0, 1], got {value!r}")
    return value


@register
class StyleTreeModel(SiteModel):
    """Site Style Tree noise elimination.

    Parameters
    ----------
    variant: ``"paper"`` (the page minus SST noise) or ``"improved"`` (the main text within it).
    threshold: composite importance below which a node (and all below it) is noise.
    attenuation: the attenuating factor g of composite importance.
    merge_elements, virtual_leaves, local_noise: the paper's three enhancements.  ``local_noise=None``
        takes the variant's default: on for ``paper``; off for ``improved``, where on the dev set it
        bought +0.001 F1 for about 2 ms per page (the main-text pick already drops such leaves).
    local_noise_entropy: entropy from which a feature inside a meaningful node is locally noisy.
    """

    name = "style_tree"
    numpy_state = False  # the saved tree is array.array: a style_tree crawl never imports numpy

    def __init__(
        self,
        variant: str = "improved",
        threshold: float = NOISE_THRESHOLD,
        attenuation: float = ATTENUATION,
        merge_elements: bool = True,
        virtual_leaves: bool = True,
        local_noise: bool | None = None,
        local_noise_entropy: float = LOCAL_NOISE_ENTROPY,
    ) -> None:
        super().__init__()
        if variant not in VARIANTS:
            raise ValueError(f"variant must be one of {VARIANTS}, got {variant!r}")
        self.variant = variant
        self.threshold = _unit("threshold", threshold)
        self.attenuation = _unit("attenuation", attenuation)
        self.merge_elements = bool(merge_elements)
        self.virtual_leaves = bool(virtual_leaves)
        self.local_noise = None if local_noise is None else bool(local_noise)
        self.local_noise_entropy = _unit("local_noise_entropy", local_noise_entropy)
        self.sst_: CompactNode | None = None  # learned: the site style tree, compacted
        self._verdicts = Verdicts(self.threshold)  # of the current SST's nodes, reset with it

    @property
    def uses_local_noise(self) -> bool:
        """Whether locally noisy features are deleted (``local_noise``, or the variant's default)."""
        return self.variant == "paper" if self.local_noise is None else self.local_noise

    @property
    def shingle(self) -> int:
        """Words per text feature: the paper's single words, or word 3-grams in the improved variant."""
        return IMPROVED_SHINGLE if self.variant == "improved" else 1

    @property
    def aligned(self) -> bool:
        """Whether children are matched by (key, occurrence) rather than by whole style node."""
        return self.variant == "improved"

    def _fit(self, pages: list[Page]) -> None:
        if not pages:  # nothing learned: every part of a page is possibly meaningful
            self.sst_ = CompactNode("body", MEANINGFUL, 1.0)
            self._verdicts = Verdicts(self.threshold)
            return
        options = BuildOptions(
            virtual_leaves=self.virtual_leaves, merge_elements=self.merge_elements, shingle=self.shingle
        )
        sst = SiteStyleTree(options).add_pages(page.body for page in pages)
        sst.release()
        infos = mark(
            sst.root, self.threshold, self.attenuation, self.local_noise_entropy if self.uses_local_noise else None
        )
        self.sst_ = simplify(sst.root, infos, aligned=self.aligned)
        self._verdicts = Verdicts(self.threshold)

    def regions(self, page: Page) -> list[Region]:
        """The page's regions as the fitted SST decides them (``page`` is not modified)."""
        return self._regions(page.body)

    def _regions(self, body: lxml.etree._Element) -> list[Region]:
        assert self.sst_ is not None
        return map_page(self.sst_, body, self.threshold, self.aligned, verdicts=self._verdicts)

    def _clean(self, page: Page) -> CleanedPage:
        body = page.body  # (an ElementPath lookup per call: once per clean)
        regions = self._regions(body)
        noisy = {r.element: r.reason for r in regions if not r.kept}
        # One measuring pass over what SST kept; noisy subtrees are never measured.
        removal = Removal.measured(body, noisy)
        for el, reason in noisy.items():
            removal.record(el, reason, Lengths(_visible_chars(el)))
        if self.uses_local_noise and self.variant == "paper":
            regions += self._remove_local_noise(regions, removal)
        total = removal.lengths[body].text + sum(own.text for _, own in removal.removed.values())
        decided: list[_Decided] = []
        get, removed = removal.lengths.get, removal.removed
        for el, kept, reason, _ in regions:  # (_chars inlined: a call per region)
            own = get(el)
            if own is None:
                own = removed[el][1] if el in removed else Lengths()
            decided.append((el, kept, own.text, reason))
        if self.variant == "paper":
            output, score = _copy_without(body, removal, share=True), None
        else:
            output, score = self._main_text(body, removal, decided, regions)
        text = to_text(output)
        # serialised when read (output may be the page's own element: the page is read-only)
        html = partial(kept_html, output)
        return CleanedPage(
            text, html, self.name, max(total, len(text)), len(text), score, partial(_named, page.tree, decided)
        )

    def _remove_local_noise(
        self, regions: list[Region], removal: Removal, within: lxml.etree._Element | None = None
    ) -> list[Region]:
        """Find locally noisy leaves, take them out of ``removal`` and return them."""
        local = [r for r in self._local_noise_regions(regions, removal, within) if not removal.is_removed(r.element)]
        for region in local:
            removal.remove(region.element, region.reason)
        return local

    def _main_text(
        self, body: lxml.etree._Element, removal: Removal, decided: list[_Decided], regions: list[Region]
    ) -> tuple[lxml.etree._Element, float]:
        """The improved variant: the main text inside what SST kept (appends its decisions); the
        output may be the page's own element, to be read only."""
        sst_removed = set(removal.removed)
        main = find_main_text(body, removal)
        how = "inside the SST's keep"
        if _chars(removal, main.main) < FALLBACK_MIN_CHARS:
            # SST took (nearly) everything: the sample repeated this page's article (blog front
            # pages) or the page is unlike the sample.  Pick the main text without SST.
            alone = Removal.measured(body)
            alone_main = find_main_text(body, alone)
            if _chars(alone, alone_main.main) >= max(FALLBACK_GAIN * _chars(removal, main.main), FALLBACK_MIN_GAINED):
                how = f"without the SST (it left under {FALLBACK_MIN_CHARS} chars)"
                removal, main, sst_removed = alone, alone_main, set()
        if self.uses_local_noise and not how.startswith("without"):
            local = self._remove_local_noise(regions, removal, main.main)
            sst_removed |= {r.element for r in local}
            decided += [(r.element, False, removal.removed[r.element][1].text, r.reason) for r in local]
        inside = []  # SST noise long enough to be prose, inside the main text
        for el, (reason, own) in removal.removed.items():  # (one loop for both lists)
            if el not in sst_removed:
                decided.append((el, False, own.text, reason))
            elif own.text >= PROSE.min_size:
                for ancestor in el.iterancestors():
                    if ancestor is main.main:
                        inside.append(el)
                        break
        spared: frozenset[lxml.etree._Element] = frozenset()
        if inside:  # (rare: no comprehension run for nothing)
            spared = frozenset(el for el in inside if is_prose(measure(el, collapsed_length)[el]))
            decided += [
                (el, True, removal.removed[el][1].text, "SST noise, but prose inside the main text (kept)")
                for el in inside
                if el in spared
            ]
        decided.append(
            (main.main, True, _chars(removal, main.main), f"main text {how}: max P = {main.p:.3f}, widened to siblings")
        )
        if main.title:
            decided += [(el, True, _chars(removal, el), "title/byline just above the main text") for el in main.title]
        output = _copy_without(main.main, removal, spared, share=not main.title)
        if main.title:
            wrapper: lxml.etree._Element = lxml.html.Element("div")
            for el in [*(_copy_without(t, removal) for t in main.title), output]:
                wrapper.append(el)
            output = wrapper
        return output, main.p

    def _local_noise_regions(
        self, regions: list[Region], removal: Removal, within: lxml.etree._Element | None = None
    ) -> list[Region]:
        """Leaves of meaningful regions whose features are all locally noisy (enhancement 3).

        With ``within``, only the part of each region inside that element is searched (the
        improved variant outputs nothing else).  Leaves longer than :data:`LOCAL_NOISE_MAX_CHARS`
        are not tokenised: that much text always holds some feature not spread over every page.
        """

        def short(el: lxml.etree._Element) -> bool:
            return _chars(removal, el) <= LOCAL_NOISE_MAX_CHARS

        out = []
        for region in regions:
            if region.kept and region.node is not None and region.node.local_noise:
                noise = region.node.local_noise
                root = region.element if within is None else _inner(region.element, within)
                if root is None:
                    continue
                for leaf in locally_noisy_leaves(root, noise, self.virtual_leaves, self.shingle, short):
                    reason = f"every content feature has entropy >= {self.local_noise_entropy:.2f} (locally noisy)"
                    out.append(Region(leaf, False, reason, None))
        return out

    def _get_state(self) -> tuple[dict[str, Any], dict[str, array]]:
        assert self.sst_ is not None
        return to_state(self.sst_)

    def _set_state(self, state: dict[str, Any], arrays: dict[str, Any]) -> None:
        if not isinstance(state, dict):
            raise ModelFormatError("style_tree state must be an object")
        self.sst_ = from_state(state, arrays)
        self._verdicts = Verdicts(self.threshold)
