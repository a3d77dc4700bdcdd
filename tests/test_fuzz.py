"""Fuzzing in the suite: seeded mutants of the example pages through every built-in model, page
decoding, the pipeline and model loading (``benchmarks/fuzz.py`` runs the long version), and
property tests of decoding and parsing on any bytes."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from scrapy_boilerplate.html import write_text
from scrapy_boilerplate.html.parse import parse_html
from scrapy_boilerplate.page import Page
from scrapy_boilerplate.testing.fuzz import MAX_PAGE_BYTES, builtin_models, run_fuzz

EXAMPLES = Path(__file__).resolve().parent.parent / "example_project"
FOLDERS = [EXAMPLES / "saved_pages", EXAMPLES / "demo" / "corpus"]


def test_the_fuzz_covers_every_built_in_model():
    assert {"pvalue", "style_tree", "ngram", "block_dup", "entropy"} <= set(builtin_models())


def test_a_seeded_fuzz_of_every_model_the_pipeline_and_model_loading_finds_nothing():
    report = run_fuzz(200, seed=25, folders=FOLDERS, model_files=100)
    assert report.cases == 200 and report.model_files == 100
    assert report.cleans >= 200 * len(builtin_models()) * 0.9  # (pages that decode to nothing are not cleaned)
    assert report.failures == [], "\n".join(map(str, report.failures[:20]))
    # (each clean was timed; the time budget is the long run's, benchmarks/fuzz.py: CPU time moves with load)
    assert report.slowest is not None and report.slowest.size <= MAX_PAGE_BYTES


CHARSETS = st.sampled_from(["utf-8", "cp1252", "utf-16", "base64", "rot13", "idna", "undefined", "x-bogus", ""])


@settings(max_examples=300, deadline=None)
@given(body=st.binary(max_size=2000), charset=st.none() | CHARSETS, meta=st.none() | CHARSETS)
def test_any_bytes_under_any_declared_charset_make_a_page(body, charset, meta):
    if meta is not None:
        body = f'<meta charset="{meta}">'.encode() + body
    page = Page.from_bytes(body, "http://any.example/", f"text/html; charset={charset}" if charset else None)
    assert isinstance(page.html, str) and page.body is not None


ANY_CHARACTER = st.characters(exclude_categories=())  # lone surrogates and control characters too


@settings(max_examples=300, deadline=None)
@given(text=st.text(ANY_CHARACTER, max_size=200), tail=st.text(ANY_CHARACTER, max_size=50))
def test_any_text_can_be_written_back_into_a_tree(text, tail):
    root = parse_html("<p>a</p>").root
    paragraph = root.find(".//p")
    write_text(paragraph, "text", text)
    write_text(paragraph, "tail", tail)
    # every character XML 1.0 can hold is kept, in order; only the others are dropped
    assert (paragraph.text or "") == xml_chars(text)
    assert (paragraph.tail or "") == xml_chars(tail)


def xml_chars(text: str) -> str:
    """``text`` without the characters outside XML 1.0's ``Char`` production (which lxml refuses)."""
    return "".join(
        c for c in text if c in "\t\n\r" or "\x20" <= c <= "\ud7ff" or "\ue000" <= c <= "\ufffd" or c >= "\U00010000"
    )
