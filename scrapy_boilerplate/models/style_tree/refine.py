"""The improved variant's main-text pick inside what the Site Style Tree kept.

SST removes what the site repeats, but it keeps whatever varies from page to page: reader
comments, teaser lists, share widgets with counters.  On the development set (Dragnet, site-level
subset) that caps SST alone at F1 ~0.75 with recall ~0.97.  So, over what SST kept:

1. elements whose class/id/role name a non-content role (comments, sharing, related links...) go,
   unless they hold most of the remaining text;
2. the ``pvalue`` density signal picks the main-text element, widened to its siblings
   (:mod:`scrapy_boilerplate.html.density`);
3. a "Comments" heading inside it cuts off what follows; a heading just above it (the title,
   with byline and date) joins it.

Everything here reads the page's own tree and one table of lengths, which is updated as regions
are removed instead of re-measured, so cleaning stays one measuring pass.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Collection
from dataclasses import dataclass, field

import lxml.etree

from scrapy_boilerplate.html import normalize_space, to_text
from scrapy_boilerplate.html.blocks import BLOCK_TAGS
from scrapy_boilerplate.html.density import LINK_BLOCK_MAX_CHARS, LINK_DENSITY_LIMIT, highest_p, widen_to_siblings
from scrapy_boilerplate.html.measure import Lengths, measure
from scrapy_boilerplate.html.prose import ProseRule
from scrapy_boilerplate.html.text import collapsed_length

Element = lxml.etree._Element

# Matched anywhere inside the lower-cased class/id/role ("commentbody", "sharedaddy", "relatedposts").
NEGATIVE_PARTS: tuple[str, ...] = tuple(
    [
        "comment",
        "disqus",
        "respond",
        "reply",
        "share",
        "sharing",
        "social",
        "related",
        "recommended",
        "popular",
        "trending",
        "sidebar",
        "widget",
        "navigation",
        "navbar",
        "menu",
        "breadcrumb",
        "footer",
        "masthead",
        "promo",
        "advert",
        "sponsor",
        "newsletter",
        "subscribe",
        "signup",
        "cookie",
        "popup",
        "modal",
        "tagcloud",
        "pagination",
        "pager",
        "outbrain",
        "taboola",
    ]
)
# Short names match only as whole words ("nav", but not "canvas").
NEGATIVE_WORDS: tuple[str, ...] = tuple(["nav", "ad", "ads", "jp", "tags"])
# A negatively named element is spared when it holds at least this share of the remaining text
# (then the name describes a wrapper, e.g. <div id="main-nav-and-content">).
NEGATIVE_MAX_SHARE = 0.5
# ... or when it holds a fair share and most of that sits in an element named like an article.
WRAPPED_MIN_SHARE = 0.2
WRAPPED_ARTICLE_SHARE = 0.5
POSITIVE_RE = re.compile(r"article|content|entry|story|post-?body|main")
# Widen the max-P element to its parent while it holds less than this share of the parent's
# non-link text: higher than pvalue's 0.6, since SST and the vocabulary already took the noise out.
SIBLING_SHARE = 0.8
# A post among like-named siblings that are prose too (this many non-link characters, at most
# this share of link text) is one of several posts on the page, and they all are main text.
REPEAT_MAX_LEVELS = 3
REPEAT_MIN_CHARS = 200
# SST calls a recurring paragraph noise, but inside the main text a paragraph that recurs (a
# post shown on several front pages, a standing intro) is still part of what readers read: prose
# of 150 non-link characters or more, at most 30% of them in links.
PROSE = ProseRule(min_size=150, max_link_share=0.3)
TITLE_TAGS = ("h1", "h2", "h3", "h4")
TITLE_MAX_LEVELS = 3  # how far up from the main-text element the title may sit
TITLE_MAX_CHARS = 400  # text between title and main text beyond this is not a byline
COMMENT_RE = re.compile(r"comment|disqus|respond|repl(y|ies)")
COMMENT_MIN_LEFT = 0.2  # a "comment" wrapper around more than 80% of the text is not a thread
COMMENT_HEADING_MAX_CHARS = 40
COMMENT_HEADING = re.compile(
    r"^(\d+\s+)?(comments?|responses?|replies|reader comments|leave a (comment|reply)|discussion)\b", re.I
)

NAMED_XPATH = lxml.etree.XPath(".//*[@class or @id or @role]")
NEGATIVE_RE = re.compile("|".join([*NEGATIVE_PARTS, *(rf"(?<![a-z0-9]){word}(?![a-z0-9])" for word in NEGATIVE_WORDS)]))
COMMENT_HEADING_TAGS = frozenset({"h2", "h3", "h4", "p", "div"})
# A comment heading is a few words in a little markup; an element with more markup than this
# (tags and text) around a short text is a wrapper, not a heading.  The bound also bounds the
# text walks below: an element is walked only for the ancestors within this much markup, where
# a nest of short elements (thousands of divs with empty children) made each one re-walk the
# nest, quadratic in its depth (a 163 KB page took 16 s).
COMMENT_HEADING_MAX_MARKUP = 4000
# XPath's own normalize-space (it collapses only space, tab, CR and LF) decides what is short.
SHORT_TEXT_XPATH = lxml.etree.XPath(f"string-length(normalize-space()) <= {COMMENT_HEADING_MAX_CHARS}")


@dataclass
class Removal:
    """Elements removed from a page (outermost only), with reasons, and the lengths they left."""

    lengths: dict[Element, Lengths]
    removed: dict[Element, tuple[str, Lengths]] = field(default_factory=dict)  # reason, own lengths
    # The attributes of measured elements that have any, in document order (what drop_by_vocabulary reads).
    attributes: dict[Element, list[tuple[str, str]]] = field(default_factory=dict)

    @classmethod
    def measured(cls, body: Element, skip: Collection[Element] = ()) -> Removal:
        """Nothing removed yet from ``body`` but the ``skip`` subtrees (left unmeasured for the caller to
        :meth:`record`): lengths with whitespace collapsed, and the attributes, from one measuring pass."""
        if body in skip:
            return cls({body: Lengths()})
        attributes: dict[Element, list[tuple[str, str]]] = {}
        return cls(measure(body, collapsed_length, skip, attributes), attributes=attributes)

    def remove(self, el: Element, reason: str) -> None:
        """Take ``el``'s subtree out of the lengths of its ancestors and of the candidates."""
        table = self.lengths
        get = table.get
        own = get(el)
        if own is None:  # inside an already removed subtree
            return
        text, link_text, markup = own.text, own.link_text, own.markup
        for ancestor in el.iterancestors():
            lengths = get(ancestor)
            if lengths is not None:
                lengths.text -= text
                lengths.link_text -= link_text
                lengths.markup -= markup
        pop = table.pop
        for node in el.iter():
            pop(node, None)
        self.removed[el] = (reason, own)

    def record(self, el: Element, reason: str, own: Lengths) -> None:
        """Note ``el`` as removed when it was never measured (it was skipped by :func:`measure`)."""
        self.removed[el] = (reason, own)

    def is_removed(self, el: Element) -> bool:
        """True when ``el`` is gone with a removed subtree."""
        return el not in self.lengths


def is_prose(lengths: Lengths) -> bool:
    """Enough non-link text to be a paragraph of an article rather than a widget or a label."""
    return PROSE.holds(lengths.valid_text, lengths.link_text, lengths.text)


@functools.lru_cache(maxsize=4096)
def _negative_names_of(names: tuple[str | None, str | None, str | None]) -> tuple[str, ...]:
    """:func:`negative_names` of one (class, id, role) triple, memoised: a site repeats its names on
    every page, and the vocabulary regex is most of the cost of dropping by vocabulary."""
    text = " ".join(name or "" for name in names).lower().replace("_", "-")
    return tuple(sorted(set(NEGATIVE_RE.findall(text))))


def negative_names(el: Element) -> list[str]:
    """The non-content names found in the element's class, id or role."""
    return list(_negative_names_of((el.get("class"), el.get("id"), el.get("role"))))


def wraps_article(el: Element, lengths: dict[Element, Lengths]) -> bool:
    """True when most of ``el``'s text sits in a descendant named like an article (``share_wrapper``
    around ``<div class="article">``)."""
    own = lengths[el].text
    for inner in NAMED_XPATH(el):
        if inner in lengths and lengths[inner].text >= WRAPPED_ARTICLE_SHARE * own:
            names = " ".join(inner.get(name) or "" for name in ("class", "id", "role")).lower()
            if POSITIVE_RE.search(names) and not NEGATIVE_RE.search(names):
                return True
    return False


def drop_by_vocabulary(body: Element, removal: Removal) -> None:
    """Remove elements named like non-content that hold a minor share of the remaining text.

    The outermost such elements go, in document order, as a walk from ``body`` that skips what it
    removes would take them.  Whether one goes depends only on its own subtree, which nothing
    removed before it in such a walk has touched, so each is judged on the lengths as they are, in
    the order of :attr:`Removal.attributes` (document order: no tree walk, no attribute read).
    """
    lengths = removal.lengths
    total = max(lengths[body].text, 1)
    doomed: dict[Element, tuple[tuple[str, ...], float]] = {}
    for el, attributes in removal.attributes.items():
        if el is body or el not in lengths:
            continue
        class_ = id_ = role = None
        for name, value in attributes:  # (a loop over the one or two pairs: cheaper than a dict)
            if name == "class":
                class_ = value
            elif name == "id":
                id_ = value
            elif name == "role":
                role = value
        if class_ is None and id_ is None and role is None:
            continue
        names = _negative_names_of((class_, id_, role))
        if not names:
            continue
        share = lengths[el].text / total
        if share < NEGATIVE_MAX_SHARE and not (share >= WRAPPED_MIN_SHARE and wraps_article(el, lengths)):
            doomed[el] = (names, share)
    for el, (names, share) in doomed.items():
        # In document order, so an outer doomed element goes first and takes the nested ones out of
        # the lengths table: those are left alone (only the outermost are removed).
        if el in lengths:
            removal.remove(el, f"class/id names {'/'.join(names)} and it holds {share:.0%} of the text")


def comment_thread(best: Element, body: Element, lengths: dict[Element, Lengths]) -> Element | None:
    """The outermost ancestor of ``best`` named like a comment thread, when taking it away still
    leaves a real share of the page's text (comments can outweigh the article they follow)."""
    thread = None
    el: Element | None = best
    while el is not None and el is not body:  # (climbing by getparent: no list of the ancestors)
        names = f"{el.get('class') or ''} {el.get('id') or ''}".lower()  # (no generator to join)
        if COMMENT_RE.search(names):
            thread = el
        el = el.getparent()
    if thread is None or lengths[body].text - lengths[thread].text < COMMENT_MIN_LEFT * lengths[body].text:
        return None
    return thread


def max_p(body: Element, lengths: dict[Element, Lengths]) -> tuple[Element | None, float]:
    """The element with the largest P (text density x share of non-link text)."""
    return highest_p(lengths, lengths[body].valid_text)


def cut_comments(region: Element, removal: Removal) -> None:
    """Remove a "Comments" heading inside ``region`` and everything after it at its level.

    The candidates are ``region``'s h2-h4, p and div elements whose text, XPath-normalised, is
    short.  The lengths table rules most out without reading their text: an element's remaining
    collapsed length (each text node collapsed on its own, any Unicode space, removed parts left
    out) never exceeds the XPath-normalised length of its whole text.
    """
    lengths = removal.lengths
    tags = COMMENT_HEADING_TAGS
    removed_markup: dict[Element, float] = {}
    for el in region.iterdescendants():
        if el.tag not in tags:
            continue
        known = lengths.get(el)
        if known is not None:
            if known.text > COMMENT_HEADING_MAX_CHARS or known.markup > COMMENT_HEADING_MAX_MARKUP:
                continue
        elif _removed_markup(el, removal, removed_markup) > COMMENT_HEADING_MAX_MARKUP:
            continue
        if not SHORT_TEXT_XPATH(el):
            continue
        text = normalize_space(to_text(el))
        if text and COMMENT_HEADING.match(text):
            reason = f"at or after the heading {text!r}: reader comments"
            for doomed in [el, *el.itersiblings()]:
                if isinstance(doomed.tag, str):
                    removal.remove(doomed, reason)
            return


def _removed_markup(el: Element, removal: Removal, memo: dict[Element, float]) -> float:
    """The markup length of the removed subtree that ``el`` lies in (bounds ``el``'s own; removed
    elements are no longer in the lengths table); ``memo`` keeps it for the elements climbed through."""
    climbed: list[Element] = []
    node: Element | None = el
    size: float = math.inf  # not inside a removed subtree: unmeasured, of unknown size
    while node is not None:
        if node in memo:
            size = memo[node]
            break
        if node in removal.removed:
            size = memo[node] = removal.removed[node][1].markup
            break
        climbed.append(node)
        node = node.getparent()
    for node in climbed:
        memo[node] = size
    return size


def widen_to_repeats(main: Element, body: Element, lengths: dict[Element, Lengths]) -> Element:
    """Climb to the parent when ``main`` is one of several like-named posts (a blog's front page)."""
    current = main
    for _ in range(REPEAT_MAX_LEVELS):
        parent = current.getparent()
        if parent is None or parent is body:
            return main
        tag, name = current.tag, current.get("class")
        for s in parent:  # a like-named sibling that is prose too (a loop: most siblings differ in tag)
            if s is not current and s.tag == tag and s.get("class") == name and s in lengths:
                own = lengths[s]
                if own.valid_text >= REPEAT_MIN_CHARS and own.link_text <= LINK_DENSITY_LIMIT * own.text:
                    return parent
        current = parent
    return main


def drop_link_blocks(region: Element, removal: Removal) -> None:
    """``pvalue``'s link-list rule on the lengths table: short, link-dominated blocks inside ``region``."""
    blocks, lengths = BLOCK_TAGS, removal.lengths
    # Not iter(*BLOCK_TAGS): its 50-tag matcher is set up per call.  lxml's own iteration with a
    # table lookup per element, not a pruned walk: a removed element's whole subtree is out of the
    # table (checked as the loop goes, so what it removes is skipped too).
    for el in region.iterdescendants():
        if el.tag not in blocks:
            continue
        own = lengths.get(el)
        if own is None:
            continue
        if 0 < own.text <= LINK_BLOCK_MAX_CHARS and own.link_text > LINK_DENSITY_LIMIT * own.text:
            removal.remove(el, f"link list: {own.link_text / own.text:.0%} of its {own.text} chars are links")


def title_above(region: Element, body: Element, removal: Removal) -> list[Element]:
    """The article's heading (and byline, date) just above ``region``: the preceding siblings,
    climbing a few levels, up to the first one holding an ``<h1>``/``<h2>``; none if that is far."""
    collected: list[Element] = []
    chars = 0
    current = region
    for _ in range(TITLE_MAX_LEVELS):
        for sibling in current.itersiblings(preceding=True):
            if not isinstance(sibling.tag, str) or removal.is_removed(sibling):
                continue
            chars += removal.lengths[sibling].text
            if chars > TITLE_MAX_CHARS:
                return []
            collected.append(sibling)
            if sibling.tag in TITLE_TAGS or next(sibling.iter(*TITLE_TAGS), None) is not None:
                return collected[::-1]
        parent = current.getparent()
        if parent is None or parent is body:
            return []
        current = parent
    return []


@dataclass(frozen=True)
class MainText:
    """The main-text element, the title elements above it, and the P that chose it."""

    main: Element
    title: tuple[Element, ...]
    p: float


def find_main_text(body: Element, removal: Removal) -> MainText:
    """Pick the main text of a page whose SST noise is already in ``removal`` (adds its own removals)."""
    drop_by_vocabulary(body, removal)
    best, p = max_p(body, removal.lengths)
    thread = comment_thread(best, body, removal.lengths) if best is not None else None
    if thread is not None:
        removal.remove(thread, "class/id names a comment thread around the densest text: reader comments")
        best, p = max_p(body, removal.lengths)
    if best is None:
        return MainText(body, (), 0.0)
    main = widen_to_siblings(best, body, removal.lengths, SIBLING_SHARE)
    main = widen_to_repeats(main, body, removal.lengths)
    cut_comments(main, removal)
    drop_link_blocks(main, removal)
    return MainText(main, tuple(title_above(main, body, removal)), p)
