"""The ``ngram`` site model on synthetic multi-page sites and small hand-made pages."""

from __future__ import annotations

import random
import re

import numpy as np
import pytest

from scrapy_boilerplate.evaluation.metric import score_text
from scrapy_boilerplate.models import ModelFormatError, create_model, dump_model, load_model, read_model, save_model
from scrapy_boilerplate.models.ngram.model import NGramModel
from scrapy_boilerplate.models.ngram.text_ranges import RemovedRanges, locate, split_words
from scrapy_boilerplate.models.spec import ModelSpec
from scrapy_boilerplate.page import Page
from scrapy_boilerplate.testing.synthetic import make_site

SITES = ("alpha.example", "beta.example", "gamma.example")


def fitted(spec: str, site: str, n_pages: int = 10, seed: int = 0):
    synthetic = make_site(site, n_pages, seed=seed)
    pages = [Page(s.html, s.url) for s in synthetic]
    return ModelSpec.parse(spec).create().fit(pages), pages, synthetic


@pytest.mark.parametrize("site", SITES)
def test_improved_keeps_the_article_and_drops_the_template_on_every_site(site):
    model, pages, synthetic = fitted("ngram", site)
    f1 = []
    for page, truth in zip(pages, synthetic, strict=False):
        cleaned = model.clean(page)
        score = score_text(cleaned.text, truth.article_text)
        assert score.r > 0.9
        f1.append(score.f1)
        for boilerplate in truth.template_texts:
            if len(boilerplate.split()) >= 3:  # single navigation words may occur in articles too
                assert boilerplate not in cleaned.text
    assert sum(f1) / len(f1) > 0.9  # reader comments vary per page, so they may stay


@pytest.mark.parametrize("site", SITES)
def test_improved_variant_beats_the_paper_on_synthetic_sites(site):
    scores = {}
    for spec in ("ngram", "ngram:variant=paper"):
        model, pages, synthetic = fitted(spec, site)
        scores[spec] = sum(
            score_text(model.clean(p).text, t.article_text).f1 for p, t in zip(pages, synthetic, strict=False)
        )
    assert scores["ngram"] > scores["ngram:variant=paper"]


def test_a_model_fitted_on_one_site_cleans_unseen_pages_of_it():
    model, _, _ = fitted("ngram", "alpha.example", n_pages=12, seed=1)
    unseen = make_site("alpha.example", 16, seed=1)[12:]
    for truth in unseen:
        cleaned = model.clean(Page(truth.html, truth.url))
        assert score_text(cleaned.text, truth.article_text).f1 > 0.8
        assert "Accept all cookies" not in cleaned.text


@pytest.mark.parametrize("spec", ["ngram", "ngram:variant=paper", "ngram:delimiters=true"])
def test_no_markup_leaks_into_the_text(spec):
    model, pages, _ = fitted(spec, "beta.example")
    for page in pages:
        text = model.clean(page).text
        assert not re.search(r"<[a-z/!]|href=|class=|=\"", text), text[:200]


def test_paper_variant_reports_its_cut_point_and_removes_something():
    model, pages, _ = fitted("ngram:variant=paper", "gamma.example")
    assert model.cut_.n >= 2 and 1 <= model.cut_.a < 100
    cleaned = model.clean(pages[0])
    assert 0 < cleaned.kept_chars < cleaned.total_chars
    assert any(not d.kept for d in cleaned.decisions)
    assert f"n={model.cut_.n}, top {model.cut_.a}%" in cleaned.decisions[0].reason


def test_decisions_tile_the_source_as_character_ranges():
    model, pages, _ = fitted("ngram", "alpha.example")
    page = pages[3]
    decisions = model.clean(page).decisions
    spans = [tuple(map(int, re.fullmatch(r"chars:(\d+)-(\d+)", d.path).groups())) for d in decisions]
    assert spans[0][0] == 0 and spans[-1][1] == len(page.html)
    assert all(a[1] == b[0] for a, b in zip(spans, spans[1:], strict=False))
    assert all(d.chars == e - s for d, (s, e) in zip(decisions, spans, strict=False))
    assert all(a.kept != b.kept for a, b in zip(decisions, decisions[1:], strict=False))
    removed = [page.html[s:e] for d, (s, e) in zip(decisions, spans, strict=False) if not d.kept]
    assert any("cookie-banner" in chunk for chunk in removed)


def test_the_paragraph_of_an_article_stays_whole_and_in_order():
    model, pages, synthetic = fitted("ngram", "gamma.example")
    text = model.clean(pages[2]).text
    paragraphs = synthetic[2].article_text.split("\n\n")[1:]  # the title's "The" is on every page
    positions = [text.find(p) for p in paragraphs]
    assert all(p >= 0 for p in positions) and positions == sorted(positions)


def test_entities_and_comments_inside_kept_text_are_handled():
    template = (
        '<html><body><div class="nav"><a href="/">Home of the site</a> | <a href="/news">All the news</a>'
        ' | <a href="/sport">Sport pages</a></div>{}<div class="foot">Copyright the example site, '
        "all rights reserved, contact us.</div></body></html>"
    )
    words = ["red", "green", "blue", "amber", "violet", "olive"]
    bodies = [
        f"<p>{w.title()} caf&eacute; &amp; {w}-bar<!-- c --> number {i * 7919} of the {w}s.</p>"
        for i, w in enumerate(words)
    ]
    pages = [Page(template.format(b)) for b in bodies]
    model = create_model("ngram").fit(pages)
    assert model.clean(pages[4]).text == "Violet café & violet-bar number 31676 of the violets."


def test_save_load_keeps_the_hash_array_and_cut_point(tmp_path):
    model, pages, _ = fitted("ngram:variant=paper", "alpha.example")
    path = tmp_path / "m.json"
    save_model(model, path)
    loaded = read_model(path, NGramModel)
    assert loaded.cut_ == model.cut_
    assert loaded.useless_.dtype == np.uint64 and np.array_equal(loaded.useless_, model.useless_)
    assert loaded.clean(pages[0]).decisions == model.clean(pages[0]).decisions


def test_load_rejects_an_unsorted_hash_array():
    model, _, _ = fitted("ngram", "alpha.example")
    model.useless_ = model.useless_[::-1].copy()
    with pytest.raises(ModelFormatError, match="increasing"):
        load_model(dump_model(model))


@pytest.mark.parametrize("bad", [{"variant": "other"}, {"delimiters": "yes"}, {"min_range_share": 2}])
def test_bad_parameters_are_refused(bad):
    with pytest.raises(ValueError):
        NGramModel(**bad)


def test_char_ranges_are_maximal_runs():
    removed = np.array([0, 0, 1, 1, 1, 0], dtype=bool)
    assert RemovedRanges.from_mask(removed).ranges() == [(0, 2, False), (2, 5, True), (5, 6, False)]
    assert RemovedRanges.from_mask(~removed).ranges() == [(0, 2, True), (2, 5, False), (5, 6, True)]
    assert RemovedRanges.from_mask(removed[:0]).ranges() == []


def test_words_split_on_every_kind_of_whitespace_as_str_split_does():
    from scrapy_boilerplate.models.ngram.text_ranges import split_words

    texts = ["a\xa0b\u3000c", " \u2009lead and trail\n", "x\x1cy", "one", "\U0001f600 emoji\u200bzero-width"]
    words = split_words(texts)
    for k, text in enumerate(texts):
        lo, hi = words.bounds[k], words.bounds[k + 1]
        found = [text[s:e] for s, e in zip(words.start[lo:hi].tolist(), words.end[lo:hi].tolist(), strict=False)]
        assert found == text.split()
    # the whitespace table stops at the BMP: nothing beyond it is whitespace
    assert re.search(r"\s", "".join(map(chr, range(0x10000, 0x110000)))) is None


def test_removed_ranges_count_the_removed_characters_before_any_position():
    removed = np.array([1, 0, 0, 1, 1, 0, 1], dtype=bool)
    ranges = RemovedRanges.from_mask(removed)
    positions = np.arange(len(removed) + 1)
    expected = np.concatenate([[0], np.cumsum(removed)])
    assert np.array_equal(ranges.removed_before(positions), expected)
    assert np.array_equal(ranges.cuts(), np.flatnonzero(removed[1:] != removed[:-1]) + 1)
    assert ranges.removed == 4


def _keep(html: str, removed_spans: list[tuple[int, int]], share: float = 0.0) -> str:
    from scrapy_boilerplate.html import to_text
    from scrapy_boilerplate.models.ngram.text_ranges import keep_text

    page = Page(html)
    removed = np.zeros(len(html), dtype=bool)
    for start, end in removed_spans:
        removed[start:end] = True
    tree = page.copy_tree()
    keep_text(tree, html, RemovedRanges.from_mask(removed), share)
    return to_text(tree.find("body"))


def test_elements_left_without_text_go_with_their_subtree_but_their_tails_stay():
    import lxml.html

    from scrapy_boilerplate.models.ngram.text_ranges import keep_text

    html = (
        '<html><body><div><ul><li><a>Home</a></li><li><a>News</a><img src="n.png"></li></ul>'
        'after menu</div><p>kept &amp; <b>bold</b> <img src="k.png"> text</p></body></html>'
    )
    menu = html.index("<ul>"), html.index("after menu")
    page = Page(html)
    removed = np.zeros(len(html), dtype=bool)
    removed[menu[0] : menu[1]] = True
    tree = page.copy_tree()
    keep_text(tree, html, RemovedRanges.from_mask(removed))
    body = lxml.html.tostring(tree.find("body"), encoding="unicode")
    # the menu list goes whole (its image too); the image inside kept text stays
    assert body == '<body><div>after menu</div><p>kept &amp; <b>bold</b> <img src="k.png"> text</p></body>'


def test_words_are_located_in_text_not_in_attributes():
    html = '<html><body><p>go <a href="a b">a</a> b</p></body></html>'
    tag = html.index("<a href")
    # the tag's own characters are removed: a word wrongly located in the attribute would go
    assert _keep(html, [(tag, tag + len('<a href="a b">'))]) == "go a b"


def test_the_kept_range_floor_drops_small_islands_of_kept_text():
    article = " ".join(f"word{i}" for i in range(60))
    html = f"<html><body><p>{article}</p><div>NAVIGATION</div><p>tiny island</p></body></html>"
    nav = html.index("<div>")
    removed = [(nav, nav + len("<div>NAVIGATION</div>"))]
    assert _keep(html, removed, 0.0).endswith("tiny island")
    assert _keep(html, removed, 0.3) == article


def test_a_spec_label_parses_back_to_the_same_spec():
    for text in ("ngram:delimiters=true", "ngram:variant=paper", "ngram:min_range_share=0.3"):
        spec = ModelSpec.parse(text)
        assert ModelSpec.parse(spec.label) == spec  # bench children re-parse the label


def test_absence_proofs_never_skip_a_text_that_occurs():
    from scrapy_boilerplate.models.ngram.text_ranges import AbsenceProof

    sources = [
        "<p>caf\u00e9 &amp; cr\u00e8me</p>\r\n<p>two\r\nlines</p>",
        "<p>a&nbsp;b\nc\r\nd</p>",
        "<p>\u2019quoted\u2019 text</p>\r\n",
        "<p>plain</p>",
    ]
    for html in sources:
        proof = AbsenceProof(html)
        for start in range(len(html)):  # every substring that occurs must be searched for
            for end in range(start + 1, min(len(html), start + 12) + 1):
                assert not proof.cannot_occur(html[start:end]), (html, html[start:end])


def test_absence_proofs_catch_decoded_entities_and_crlf_sources():
    from scrapy_boilerplate.models.ngram.text_ranges import AbsenceProof

    crlf = AbsenceProof("<p>caf&eacute;</p>\r\n<p>two\r\nlines</p>\r\n")
    assert crlf.cannot_occur("caf\u00e9")  # the parser decoded the entity: no such character in the source
    assert crlf.cannot_occur("two\nlines")  # the parser turned CRLF into LF
    assert not crlf.cannot_occur("\ntwo") and not crlf.cannot_occur("lines")
    mixed = AbsenceProof("<p>two\nlines</p>\r\n")
    assert not mixed.cannot_occur("two\nlines")  # a bare LF exists here: it must be searched for


def test_solid_chars_agrees_with_str_isspace_on_every_code_point():
    from scrapy_boilerplate.models.ngram.text_ranges import solid_chars

    codes = np.arange(0x110000, dtype=np.uint32)
    expected = np.array([not chr(code).isspace() for code in range(0x110000)])
    assert np.array_equal(solid_chars(codes), expected)


def test_word_pieces_skip_occurrences_inside_tags_up_to_the_try_limit():
    from scrapy_boilerplate.models.ngram.text_ranges import MAX_ANCHOR_TRIES, SourceAligner

    html = '<p>caf&eacute; <a title="word word">x</a> word</p>'
    text_at = html.rindex("word")
    # "café" cannot occur (the source spells the entity); "word" is found past the attribute
    assert SourceAligner(html).locate_pieces("caf\u00e9 word", 10) == [(15, text_at, text_at + 4)]
    crowded = '<p>caf&eacute; <a title="' + "word " * (MAX_ANCHOR_TRIES - 1) + '">x</a> word</p>'
    assert SourceAligner(crowded).locate_pieces("caf\u00e9 word")[0][1] == crowded.rindex("word")
    too_crowded = '<p>caf&eacute; <a title="' + "word " * MAX_ANCHOR_TRIES + '">x</a> word</p>'
    assert SourceAligner(too_crowded).locate_pieces("caf\u00e9 word") == []  # gave up: left unlocated


class ScanCountingSource(str):
    """Page source that adds up how many characters its ``find`` calls scan."""

    scanned = 0

    def find(self, sub, start=None, end=None):  # str.find, counted
        found = super().find(sub, start, end)
        ScanCountingSource.scanned += (found if found >= 0 else len(self)) - (start or 0)
        return found


def test_text_found_nowhere_outside_tags_costs_searches_in_proportion_to_the_page():
    """Text whose words occur in the source only inside a huge attribute (an unclosed <title>
    swallowing markup reads so): each word was searched to its eighth occurrence or the end of
    the page from a cursor that never moved (a fuzzed 178 KB page took 4.7 s, scanning 288,000
    times its size)."""
    rng = random.Random(7)
    junk = "".join(rng.choice("abcxyz0123456789 -_=/+&;") for _ in range(60_000))
    source = ScanCountingSource(f'<html><body><div data-x="{junk}"></div><p>the end</p></body></html>')
    texts = [f"Swallowed {junk}", "the end"]
    spans = locate(source, texts, split_words(texts))
    assert len(spans.word) > 0  # the last text is still found, verbatim
    assert ScanCountingSource.scanned < 5000 * len(source)
