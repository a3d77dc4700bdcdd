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
from dataclasses import dataclass

import lxml.etree

from scrapy_boilerplate.html import iter_blocks, iter_elements
from scrapy_boilerplate.page import Page

_DIGITS = re.compile(r"\d+")
SIGNATURE_BYTES = 8  # 64-bit signatures: collisions are negligible for a site's few thousand regions


def _step(element: lxml.etree._Element) -> str:
    """One element's contribution to a path: tag, id and class tokens with digits removed."""
    names = [element.tag]
    element_id = element.get("id")
    if element_id:
        names.append("#" + _DIGITS.sub("", element_id))
    classes = sorted({_DIGITS.sub("", token) for token in (element.get("class") or "").split()})
    names.extend("." + token for token in classes if token)
    return "".join(names)


def _signatures(root: lxml.etree._Element) -> dict[lxml.etree._Element, str]:
    """Map every element under ``root`` to the hash of its root-to-element path (one top-down pass).

    Sibling elements with the same tag, id and class (list items, paragraphs) share one path, so
    steps and hashes are memoised per (parent path, raw attributes) within the page.
    """
    out: dict[lxml.etree._Element, str] = {}
    memo: dict[tuple[str, str, str | None, str | None], str] = {}
    for el in iter_elements(root):
        parent = el.getparent()
        prefix = out.get(parent, "") if parent is not None else ""
        memo_key = (prefix, el.tag, el.get("id"), el.get("class"))
        signature = memo.get(memo_key)
        if signature is None:
            digest = hashlib.blake2b((prefix + "/" + _step(el)).encode("utf-8"), digest_size=SIGNATURE_BYTES)
            signature = memo[memo_key] = digest.hexdigest()
        out[el] = signature
    return out


def block_signatures(page: Page) -> Counter[str]:
    """Visible characters per block signature of ``page`` (its template regions, weighted by text)."""
    signatures = _signatures(page.tree)
    chars: Counter[str] = Counter()
    for block in iter_blocks(page.body):
        if block.text:
            chars[signatures[block.element]] += len(block.text)
    return chars


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

    @classmethod
    def of(cls, pages: Iterable[Page]) -> Fingerprint:
        """Fingerprint a sample; a page's unseen share counts regions that no *other* page showed."""
        per_page = [block_signatures(page) for page in pages]
        page_counts: Counter[str] = Counter()
        for chars in per_page:
            page_counts.update(chars.keys())
        shares = []
        for chars in per_page:
            own = {signature for signature in chars if page_counts[signature] > 1}
            shares.append(unseen_share(chars, own))
        mean = sum(shares) / len(shares) if shares else 0.0
        return cls(frozenset(page_counts), mean)

    def unseen(self, page: Page) -> float:
        """Share of ``page``'s text in regions this fingerprint never saw."""
        return unseen_share(block_signatures(page), self.signatures)
