"""A site template's fingerprint: the structural signatures of its text blocks.

A block's signature hashes the tag, id and class names of every element from the page root down
to it, ignoring positions and digits, so the same template region gets the same signature on
every page of a site while a redesigned template does not.  The fingerprint of a fitted sample
tells, for any later page, which share of its text sits in regions the model never saw: the
"unseen share" that the drift monitor watches.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

import lxml.etree

from scrapy_boilerplate.html.blocks import BLOCK_TAGS, BlockWalk
from scrapy_boilerplate.page import Page

_DIGITS = re.compile(r"\d+")
SIGNATURE_BYTES = 8  # 64-bit signatures: collisions are negligible for a site's few thousand regions


def _step(tag: str, element_id: str | None, element_class: str | None) -> str:
    """One element's contribution to a path: tag, id and class tokens with digits removed."""
    names = [tag]
    if element_id:
        names.append("#" + _DIGITS.sub("", element_id))
    classes = sorted({_DIGITS.sub("", token) for token in (element_class or "").split()})
    names.extend("." + token for token in classes if token)
    return "".join(names)


def _signature(steps: StepMemo, prefix: str, tag: str, node: lxml.etree._Element) -> str:
    """The signature of ``node`` (tagged ``tag``) under a parent signed ``prefix``, memoised in ``steps``."""
    element_id = element_class = None
    for name, value in node.items():  # one call for all attributes: cheaper than two get()s
        if name == "id":
            element_id = value
        elif name == "class":
            element_class = value
    key = (prefix, tag, element_id, element_class)
    signature = steps.get(key)
    if signature is None:
        digest = hashlib.blake2b(
            (prefix + "/" + _step(tag, element_id, element_class)).encode("utf-8"), digest_size=SIGNATURE_BYTES
        )
        signature = digest.hexdigest()
        if len(steps) >= STEP_MEMO_LIMIT:
            steps.clear()
        steps[key] = signature
    return signature


# Most memoised path steps kept per fingerprint (a site template has a few hundred).
STEP_MEMO_LIMIT = 4096
StepMemo = dict[tuple[str, str, str | None, str | None], str]


class _Signer:
    """Signatures of one page's elements, computed on demand from the root down.

    Sibling elements with the same tag, id and class (list items, paragraphs) and the same
    regions on every page of a site share one path, so steps and hashes are memoised per
    (parent path, raw attributes) in ``steps``, which may outlive the page (see :class:`Fingerprint`).
    """

    def __init__(self, steps: StepMemo) -> None:
        self.steps = steps
        self.by_element: dict[lxml.etree._Element, str] = {}
        # the blocks signed by :meth:`blocks`, apart: its keys are then exactly the page's blocks
        self.by_block: dict[lxml.etree._Element, str] = {}

    def __call__(self, element: lxml.etree._Element) -> str:
        """The hash of ``element``'s root-to-element path."""
        parent = element.getparent()
        if parent is None:
            return self._sign(element, "")
        prefix = self.by_element.get(parent)  # the usual case: blocks come after their ancestors
        return self._sign(element, prefix if prefix is not None else self._sign_ancestors(parent))

    def _sign_ancestors(self, element: lxml.etree._Element) -> str:
        """Sign ``element`` and its unsigned ancestors, from the top down (no recursion: deep pages are fine)."""
        get, get_block = self.by_element.get, self.by_block.get
        chain = []
        node: lxml.etree._Element | None = element
        prefix = ""
        while node is not None:
            signed = get(node)
            if signed is None:
                signed = get_block(node)
            if signed is not None:
                prefix = signed
                break
            chain.append(node)
            node = node.getparent()
        for node in reversed(chain):
            prefix = self._sign(node, prefix)
        return prefix

    def _sign(self, node: lxml.etree._Element, prefix: str) -> str:
        """The signature of ``node`` under a parent signed ``prefix``, kept in :attr:`by_element`."""
        tag = node.tag
        assert isinstance(tag, str)  # an ancestor of an element is an element, never a comment or a PI
        signature = self.by_element[node] = _signature(self.steps, prefix, tag, node)
        return signature

    def blocks(self, root: lxml.etree._Element) -> dict[lxml.etree._Element, str]:
        """The block elements of ``root`` (:attr:`BlockWalk.blocks`, in document order) with their
        signatures: :attr:`by_block`.

        One loop over the tree that reads each element's tag once, both to tell a block and for
        its signature (lxml's own tag filter sets up a matcher of all block tags per walk, which
        costs more than the tags of a crawled page's few non-block elements).  A block's parent
        is almost always an earlier block, signed just before: one dict lookup gives its path.
        """
        tags, steps = BLOCK_TAGS, self.steps
        by_block = self.by_block
        signed = by_block.get
        for node in root.iter():
            tag = node.tag
            if tag not in tags:  # (a comment's tag is a function: not in it either)
                continue
            parent = node.getparent()
            if parent is None:
                prefix = ""
            else:
                found = signed(parent)
                prefix = self._sign_ancestors(parent) if found is None else found
            by_block[node] = _signature(steps, prefix, tag, node)
        return by_block


def _signed_walk(page: Page, steps: StepMemo) -> tuple[BlockWalk, dict[lxml.etree._Element, str]]:
    """The block walk of ``page`` and its blocks' signatures (a dict in the walk's order)."""
    root = page.body
    signed = _Signer(steps).blocks(root)
    return BlockWalk(root, blocks=list(signed), block_set=signed.keys()), signed


def block_signatures(page: Page, steps: StepMemo | None = None) -> Counter[str]:
    """Visible characters per block signature of ``page`` (its template regions, weighted by text).

    ``steps`` memoises path steps across the pages of one site (a fresh memo when None).
    """
    walk, signed = _signed_walk(page, steps if steps is not None else {})
    return _weighed(signed, walk.lengths())


def _weighed(signed: dict[lxml.etree._Element, str], lengths: list[int]) -> Counter[str]:
    """Visible characters per signature, from the blocks' signatures and lengths (in the walk's order)."""
    chars: Counter[str] = Counter()
    for signature, length in zip(signed.values(), lengths, strict=False):
        if length:
            chars[signature] += length
    return chars


def _text_signatures(
    page: Page, steps: StepMemo, page_counts: Mapping[str, int]
) -> tuple[BlockWalk, dict[lxml.etree._Element, str], set[str], list[int] | None]:
    """The walk of ``page``, its blocks' signatures, the keys of :func:`block_signatures` that
    :meth:`Fingerprint.of` needs, and the blocks' lengths when they had to be measured.

    A signature is in once one of its blocks shows text (list items and paragraphs share theirs),
    and a signature that ``page_counts`` already has on two pages is not looked at (it is in the
    fingerprint and no page's own region, whatever this page holds).  When a block's text must be
    measured to tell, the whole page is measured once (the keys are then all of them).
    """
    walk, signed = _signed_walk(page, steps)
    shows_text = walk.shows_text
    seen_on = page_counts.get
    keys: set[str] = set()
    for element, signature in signed.items():
        if signature in keys or seen_on(signature, 0) >= 2:
            continue
        shown = shows_text(element)
        if shown is None:
            lengths = walk.lengths()
            return walk, signed, {s for s, length in zip(signed.values(), lengths, strict=False) if length}, lengths
        if shown:
            keys.add(signature)
    return walk, signed, keys, None


def unseen_share(chars: Mapping[str, int], known: frozenset[str] | set[str]) -> float:
    """Share of a page's block text whose signature is not in ``known`` (0 for an empty page)."""
    total = sum(chars.values())
    if not total:
        return 0.0
    return sum(n for signature, n in chars.items() if signature not in known) / total


@dataclass(frozen=True)
class Fingerprint:
    """The signatures a sample showed and its own leave-one-out unseen share (the drift baseline)."""

    signatures: frozenset[str]
    unseen_share: float
    # Path steps of this site's pages, memoised across the pages it measures (not part of its value).
    _steps: StepMemo = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def of(cls, pages: Iterable[Page]) -> Fingerprint:
        """Fingerprint a sample; a page's unseen share counts regions that no *other* page showed.

        A page whose regions all show on some other page has a share of 0 whatever its text, so
        block texts are measured only on pages with a region of their own; elsewhere a block only
        tells whether it has text, and only while its region is on fewer than two pages.
        """
        steps: StepMemo = {}
        page_counts: Counter[str] = Counter()  # pages with text in each region (exact up to 2)
        per_page = []
        for page in pages:
            walk, signed, keys, lengths = _text_signatures(page, steps, page_counts)
            page_counts.update(keys)
            per_page.append((walk, signed, keys, lengths))
        shares = []
        for walk, signed, keys, lengths in per_page:
            if all(page_counts[signature] > 1 for signature in keys):
                shares.append(0.0)  # (what unseen_share gives when every signature is known)
                continue
            chars = _weighed(signed, walk.lengths() if lengths is None else lengths)  # block_signatures(page)
            own = {signature for signature in chars if page_counts[signature] > 1}
            shares.append(unseen_share(chars, own))
        mean = sum(shares) / len(shares) if shares else 0.0
        return cls(frozenset(page_counts), mean)

    def unseen(self, page: Page) -> float:
        """Share of ``page``'s text in regions this fingerprint never saw.

        The same figure as ``unseen_share(block_signatures(page), self.signatures)``, but the text
        of blocks in known regions is only measured when some text is unseen: a page of a known
        template (the usual case) costs its block signatures and no text at all.
        """
        walk, signed = _signed_walk(page, self._steps)
        known = self.signatures
        unseen = 0
        seen_blocks = []
        for element, signature in signed.items():
            if signature in known:
                seen_blocks.append(element)
            else:
                unseen += walk.length(element)
        if not unseen:
            return 0.0
        return unseen / (unseen + sum(map(walk.length, seen_blocks)))
