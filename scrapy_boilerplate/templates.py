"""Which template of its site a page belongs to, from the page's structure.

A template's pages share the skeleton of their markup: the tags and first class names of the
elements of the top levels under ``<body>``.  A page's structure signature is the set of those
element paths (hashed); a site's pages are grouped greedily, each joining the first template whose
first page's signature it overlaps enough (Jaccard similarity), else opening a new template while
the site has fewer than its cap.  A page that matches no template once the cap is reached belongs
to none: it is cleaned without site evidence, never by another template's fit.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import lxml.etree

from scrapy_boilerplate.models.errors import ModelFormatError

Element = lxml.etree._Element

DEPTH = 3  # element levels under <body> that make the signature
CLASSES = 2  # leading class names of an element that count
SIMILARITY = 0.7  # Jaccard similarity at or above which a page joins a template
MAX_TEMPLATES = 8  # templates per site
_DIGITS = re.compile(r"\d+")

Signature = frozenset[int]


def structure_signature(body: Element, depth: int = DEPTH) -> Signature:
    """The hashed paths (tag and first class names, digits masked) of the elements of the first
    ``depth`` levels under ``body``."""
    found: set[int] = set()
    level: list[tuple[Element, str]] = [(body, "")]
    for _ in range(depth):
        below: list[tuple[Element, str]] = []
        for element, prefix in level:
            for child in element:
                tag = child.tag
                if not isinstance(tag, str):
                    continue
                classes = (child.get("class") or "").split()[:CLASSES]
                path = f"{prefix}/{tag}." + ".".join(sorted(_DIGITS.sub("0", name) for name in classes))
                found.add(zlib.crc32(path.encode("utf-8", "surrogatepass")))
                below.append((child, path))
        level = below
    return frozenset(found)


def similarity(a: Signature, b: Signature) -> float:
    """Jaccard similarity of two signatures (1.0 for two empty ones)."""
    union = len(a | b)
    return len(a & b) / union if union else 1.0


@dataclass
class TemplateGroups:
    """A site's templates so far: each template's first signature, in the order they were found."""

    signatures: list[Signature] = field(default_factory=list)
    cap: int = MAX_TEMPLATES
    threshold: float = SIMILARITY

    def match(self, signature: Signature) -> int | None:
        """The first template ``signature`` is similar enough to, or None."""
        for index, known in enumerate(self.signatures):
            if similarity(signature, known) >= self.threshold:
                return index
        return None

    def assign(self, signature: Signature) -> int | None:
        """The template of a page with ``signature``: a known one, a new one under the cap, or None."""
        index = self.match(signature)
        if index is None and len(self.signatures) < self.cap:
            self.signatures.append(signature)
            index = len(self.signatures) - 1
        return index

    def group(self, signatures: Iterable[Signature]) -> list[int | None]:
        """The template of each page, assigned in order."""
        return [self.assign(signature) for signature in signatures]

    def state(self) -> dict[str, Any]:
        """JSON-able state."""
        return {"cap": self.cap, "threshold": self.threshold, "signatures": [sorted(s) for s in self.signatures]}

    @classmethod
    def from_state(cls, state: Any) -> TemplateGroups:
        """Rebuild what :meth:`state` gave; raise ``ModelFormatError`` on anything else."""
        try:
            signatures = [frozenset(int(n) for n in signature) for signature in state["signatures"]]
            groups = cls(signatures, int(state["cap"]), float(state["threshold"]))
        except (KeyError, TypeError, ValueError) as exc:
            raise ModelFormatError(f"bad template state: {exc!r}") from None
        if groups.cap < 1 or len(signatures) > groups.cap:
            raise ModelFormatError("bad template state: more templates than its cap")
        return groups
