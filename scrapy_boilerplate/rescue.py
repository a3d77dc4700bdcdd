"""No empty text where a page plainly has an article: its longest prose block stands in.

A model may keep nothing of a page that holds a long paragraph of prose (a fallback on a page
unlike any it knows, a site model on a page of another template).  Where the crawl and the
offline extract turn a model's output into an item, such an output is replaced by that
paragraph, and the item's model field says so.  The models' own output is left as it is.

Only an output without a word is replaced.  On the dev pages, an output of one to four words was
mostly the page's whole content (a photo or video page whose gold text is 4 to 15 words): the
longest paragraph in its place (reader comments, a sidebar blurb) lowered the F1 of 9 of the 11
such style_tree and fusion pages of dragnet, where each of the 6 empty outputs it replaced gained.
"""

from __future__ import annotations

import lxml.etree

from scrapy_boilerplate.html import iter_blocks, to_text
from scrapy_boilerplate.html.prose import ProseRule
from scrapy_boilerplate.html.structure import kept_html
from scrapy_boilerplate.models.base import CleanedPage
from scrapy_boilerplate.page import Page

# An output of fewer words than this is empty.
MIN_WORDS = 1
# A prose block: a paragraph (a leaf block) of at least 40 words, at most 30% of its characters in
# links (link lists and menus are not prose).
RESCUE_PROSE = ProseRule(min_size=40, max_link_share=0.3)
RESCUE_MARK = " (prose block)"  # appended to the model name in the model field


def longest_prose_block(page: Page) -> lxml.etree._Element | None:
    """The leaf block of ``page`` with the most words, if it is prose (see :data:`RESCUE_PROSE`)."""
    best, best_words = None, RESCUE_PROSE.min_size - 1  # (shorter blocks are never measured)
    for block in iter_blocks(page.body, include_mixed=False):
        words = len(block.text.split())
        if words <= best_words:
            continue
        links = sum(len(" ".join(link.itertext())) for link in block.element.iter("a"))
        if RESCUE_PROSE.holds(words, links, len(block.text)):
            best, best_words = block, words
    return best.element if best is not None else None


def prose_rescue(cleaned: CleanedPage, page: Page) -> CleanedPage | None:
    """``page``'s longest prose block, as a cleaned page of the same model, when ``cleaned`` kept
    no word; None when ``cleaned`` stands (or the page has no such block)."""
    if len(cleaned.text.split(None, MIN_WORDS)) >= MIN_WORDS:
        return None
    element = longest_prose_block(page)
    if element is None:
        return None
    text = to_text(element)
    return CleanedPage(text, kept_html(element), cleaned.model, cleaned.total_chars, len(text))
