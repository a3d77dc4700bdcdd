"""How much visible text a block holds, and how much of it is inside links: cues several features read."""

from __future__ import annotations

from scrapy_boilerplate.html import Block, raw_text


def visible_chars(text: str) -> int:
    """Characters of ``text`` other than whitespace."""
    return len("".join(text.split()))


def link_chars(block: Block) -> int:
    """Visible characters of the block's text inside links (whitespace ignored)."""
    element = block.element
    anchors = element.iter("a") if block.leaf else (child for child in element if child.tag == "a")
    total = 0
    for anchor in anchors:
        text = raw_text(anchor)
        if text:
            total += visible_chars(text)
    return total
