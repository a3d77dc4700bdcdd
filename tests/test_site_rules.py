"""Site rules: votes by block path from sample decisions, their CSS selectors, and pinned selectors."""

from __future__ import annotations

import math

import lxml.etree
import pytest
from parsel.csstranslator import HTMLTranslator

from scrapy_boilerplate.models.errors import ModelFormatError
from scrapy_boilerplate.models.fusion.siterules.paths import PathFinder
from scrapy_boilerplate.models.fusion.siterules.repeats import RepeatIndex
from scrapy_boilerplate.models.fusion.siterules.rule import SiteRule
from scrapy_boilerplate.models.fusion.siterules.selectors import PinnedRules, path_selector
from scrapy_boilerplate.page import Page

PAGE = (
    '<html><body><div id="post-4711" class="entry post-4711 hentry"><h1>Title</h1>'
    '<div class="body"><p>First paragraph.</p><p>Second paragraph.</p></div></div>'
    '<aside class="related"><ul><li class="item-1"><a href="/a">Other story</a></li></ul></aside>'
    '<div class="comments"><p>A reader said this.</p></div></body></html>'
)


def blocks_of(html: str) -> tuple[Page, list]:
    page = Page(html)
    return page, page.text_blocks()


def test_paths_mask_digits_and_sort_classes() -> None:
    page, blocks = blocks_of(PAGE)
    paths = PathFinder().paths(block.element for block in blocks)
    assert paths[0] == "div.entry.hentry.post-0#post-0 > h1"
    assert paths[1] == paths[2] == "div.entry.hentry.post-0#post-0 > div.body > p"
    other, other_blocks = blocks_of(PAGE.replace("4711", "95"))
    assert PathFinder().paths(block.element for block in other_blocks) == paths


def test_a_path_decides_when_seen_on_enough_pages_and_the_votes_agree() -> None:
    rule = SiteRule(min_pages=2, agreement=1.0)
    rule.add_page(["a", "a", "b", "c"], [True, True, False, True])
    rule.add_page(["a", "b", "c", "d"], [True, False, False, True])
    decisions = rule.decide(["a", "b", "c", "d", "e"])
    assert decisions.decided.tolist() == [True, True, False, False, False]  # c disagreed, d seen once, e never
    assert decisions.keep[:2].tolist() == [True, False]
    assert decisions.reasons[1] == "site rule: removed (2 of 2 blocks on this path, on 2 of 2 sample pages)"
    assert decisions.coverage == pytest.approx(2 / 5)
    assert not SiteRule(min_pages=2, agreement=0.6).decide(["c"]).decided.any()  # no votes: silent


def test_rule_state_round_trips_and_bad_state_is_refused() -> None:
    rule = SiteRule()
    rule.add_page(["a", "b"], [True, False])
    rule.add_page(["a", "b"], [True, False])
    again = SiteRule.from_state(rule.state())
    assert again.decide(["a", "b"]).keep.tolist() == rule.decide(["a", "b"]).keep.tolist() == [True, False]
    with pytest.raises(ModelFormatError):
        SiteRule.from_state({"pages": 1, "min_pages": 2, "agreement": 1.0, "votes": {"a": [3, 2, 1]}})
    with pytest.raises(ModelFormatError):
        SiteRule.from_state({"votes": {}})


def test_a_learned_path_prints_as_a_selector_that_finds_its_blocks_on_another_page() -> None:
    _, blocks = blocks_of(PAGE)
    paths = PathFinder().paths(block.element for block in blocks)
    other = Page(PAGE.replace("4711", "95").replace("item-1", "item-22"))
    for path in set(paths):
        selector = path_selector(path)
        found = lxml.etree.XPath(HTMLTranslator().css_to_xpath(selector))(other.tree)
        expected = [b.element for b in other.text_blocks() if PathFinder().path(b.element) == path]
        assert found == expected, selector
    assert path_selector(paths[0]) == 'body > div.entry.hentry[class*="post-"][id^="post-"] > h1'


def test_pinned_selectors_decide_by_the_nearest_match_and_boilerplate_wins_a_tie() -> None:
    page, blocks = blocks_of(PAGE)
    pinned = PinnedRules.from_mapping(
        {"content": ["div.entry", ".comments"], "boilerplate": [".entry h1", ".comments"]}
    )
    decisions = pinned.decide(page.tree, [block.element for block in blocks])
    assert decisions.decided.tolist() == [True, True, True, False, True]  # the related link: no selector reaches it
    assert decisions.keep.tolist() == [False, True, True, False, False]
    assert decisions.reasons[0] == "pinned selector '.entry h1': boilerplate"


def test_a_bad_pinned_selector_is_refused_with_its_text() -> None:
    with pytest.raises(ValueError, match=r"bad CSS selector 'div\[\['"):
        PinnedRules.from_mapping({"content": ["div[["]})
    with pytest.raises(ValueError, match="not \\['keep'\\]"):
        PinnedRules.from_mapping({"keep": ["p"]})
    with pytest.raises(ValueError, match="must be a list"):
        PinnedRules.from_mapping({"content": "p"})


def product(name: str, weight: str) -> str:
    return (
        '<html><body><nav class="menu"><a href="/">Home</a> <a href="/shop">Shop</a></nav>'
        f'<div class="product"><h1 class="name">{name}</h1><p class="blurb">The {name} is made for long days outdoors.</p>'
        f'<table class="specs"><tr><th>Weight</th><td>{weight}</td></tr></table></div>'
        '<footer class="foot">Free returns within 30 days</footer></body></html>'
    )


def repeat_rows(index: RepeatIndex, html: str) -> dict[str, list[float]]:
    page, blocks = blocks_of(html)
    paths = PathFinder().paths(block.element for block in blocks)
    rows = index.features(html, paths, [block.text for block in blocks])
    return {block.text: row.tolist() for block, row in zip(blocks, rows, strict=True)}


def test_repeats_tell_a_repeated_text_from_a_repeated_place_with_new_text() -> None:
    sample = [product("Trail tent", "2.1 kg"), product("Summit stove", "0.4 kg"), product("Canyon pack", "1.3 kg")]
    index = RepeatIndex()
    for html in sample:
        page, blocks = blocks_of(html)
        index.add_page(html, PathFinder().paths(b.element for b in blocks), [b.text for b in blocks])
    rows = repeat_rows(index, product("River kayak", "19 kg"))
    # path_share, text_share, path_text_same, in_varying_core
    assert rows["Home Shop"] == [1.0, 1.0, 1.0, 0.0]  # the menu: same place, same text, outside what varies
    assert rows["River kayak"] == [1.0, 0.0, 0.0, 1.0]  # the product name: same place, new text
    assert rows["Weight"] == [1.0, 1.0, 1.0, 1.0]  # a spec label repeats, but among the text that varies
    assert rows["Free returns within 30 days"][3] == 0.0
    own = repeat_rows(index, sample[0])  # a sample page is compared with the other two only
    assert own["Trail tent"] == [1.0, 0.0, 0.0, 1.0]
    assert RepeatIndex.from_state(index.state()) == index
    lone = RepeatIndex()
    lone.add_page(sample[0], ["p"], ["x"])
    assert all(math.isnan(value) for value in repeat_rows(lone, sample[0])["Trail tent"])  # no other page
