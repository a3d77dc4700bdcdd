"""What reads as prose: enough text, little of it in links.  One rule, with each use's own bounds.

A paragraph of an article is long and mostly outside links; a menu, a link list, a caption or a
label is not.  Each use measures in its own unit and sets its own floor, because each asks a
different question:

- :data:`~scrapy_boilerplate.rescue.RESCUE_PROSE`: the empty-text rescue's stand-in paragraph
  (40 words, at most 30% of its characters in links: a whole paragraph, never a link list);
- ``style_tree``'s spared noise (150 non-link characters, at most 30% in links: a reader's post
  among the template's repeated parts);
- ``fusion``'s page threshold (10 words, at most half in links, plus function words or
  punctuation: any sentence counts towards the page's prose core);
- ``inspect``'s prose pieces (12 words, at most half in links: what the header counts as prose).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, overload

if TYPE_CHECKING:  # arrays are one kind of input; numpy is not imported for the others (style_tree's crawl)
    import numpy as np


@dataclass(frozen=True)
class ProseRule:
    """Prose has at least ``min_size`` (words or characters, as the caller counts) and at most
    ``max_link_share`` of its ``total`` inside links."""

    min_size: float
    max_link_share: float

    @overload
    def holds(self, size: float, linked: float, total: float) -> bool: ...
    @overload
    def holds(self, size: np.ndarray, linked: np.ndarray, total: np.ndarray | float) -> np.ndarray: ...
    def holds(self, size: Any, linked: Any, total: Any) -> Any:
        """Whether text of ``size``, of which ``linked`` (of ``total``) in links, is prose; numbers
        or numpy arrays (then element-wise)."""
        return (size >= self.min_size) & (linked <= self.max_link_share * total)
