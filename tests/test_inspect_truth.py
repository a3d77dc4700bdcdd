"""The report tells the truth: what it marks kept is, token for token, the model's output.

Checked for every model on synthetic sites and on the bundled example sites (everywhere), and on
every page of the development data when it is present (``SCRAPY_BOILERPLATE_DATASETS``, by
default ``../shared/datasets`` beside the repository; its sites are spread over one process per
core).
"""

from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path

import pytest
from helpers.report_checks import check_report, check_site

from scrapy_boilerplate.corpus import find_sites
from scrapy_boilerplate.inspection import build_report, mark_page, summarize_site
from scrapy_boilerplate.inspection.align import align
from scrapy_boilerplate.models import available_models
from scrapy_boilerplate.models.base import CleanedPage
from scrapy_boilerplate.page import Page
from scrapy_boilerplate.testing.synthetic import make_site

MODELS = available_models()
EXAMPLE = Path(__file__).resolve().parent.parent / "example_project"
BUNDLED = [EXAMPLE / "saved_pages", EXAMPLE / "demo" / "corpus"]
DEV_SETS = ("dragnet", "cleaneval", "chaos", "readability")
UNPLACED_SHARE = 0.01  # output words a report may fail to place on their page, per model and data set


def _w(text: str) -> list[str]:
    return text.split()


def test_alignment_keeps_order_places_moved_runs_and_flags_the_rest():
    page = _w("the nav home about the title of the story the body text of the story ends here")
    in_order = align(page, _w("the title of the story the body text"))
    assert [t for t, k in zip(page, in_order.page_kept, strict=True) if k] == _w("the title of the story the body text")
    moved = align(page, _w("body text of the story the nav home"))
    assert moved.unplaced == 0 and moved.moved > 0
    assert [t for t, k in zip(page, moved.page_kept, strict=True) if k] == _w("the nav home body text of the story")
    flagged = align(page, _w("the story ends with words the page lacks"))
    assert flagged.unplaced == 5 and sum(flagged.page_kept) == 3  # "the story ends" placed, the rest is not there
    ambiguous = align(_w("a b x a b y"), _w("y a b"))
    assert ambiguous.output_placed == [True, False, False]  # "a b" before "y" could be either copy


def test_a_run_on_a_copy_the_decisions_remove_moves_to_the_copy_they_keep():
    # the headline (kept by the decisions), a menu, the headline again as a link just before the
    # article (removed by them): order alone puts the output's headline on the link
    page = _w("news the big storm hits the coast menu home the big storm hits the coast it rained all day")
    kept_by_decisions = [False] + [True] * 6 + [False] * 8 + [True] * 4
    output = _w("the big storm hits the coast it rained all day")
    plain = align(page, output)
    assert plain.page_kept == [False] * 9 + [True] * 10
    chosen = align(page, output, decided_kept=kept_by_decisions)
    assert chosen.page_kept == [False] + [True] * 6 + [False] * 8 + [True] * 4 and chosen.unplaced == 0
    short = align(_w("x a b y a b z"), _w("a b z"), decided_kept=[False, True, True, False, False, False, True])
    assert short.page_kept == [False] * 4 + [True] * 3  # a run under three tokens could be any copy: left in order


def _check_site(site_dir: Path, model: str) -> tuple[int, int, int]:
    """Reports of every page of each site under ``site_dir``: pages, output words, unplaced words."""
    counts = [check_site(site, model) for site in find_sites(site_dir)]
    return _total(counts)


def _total(counts) -> tuple[int, int, int]:
    pages, words, unplaced = (sum(column) for column in zip(*counts, strict=True)) if counts else (0, 0, 0)
    return pages, words, unplaced


@pytest.mark.parametrize("model", MODELS)
def test_kept_is_the_output_on_synthetic_sites(model: str, tmp_path: Path):
    for name, seed in (("news.example", 1), ("blog.example", 2)):
        folder = tmp_path / name
        folder.mkdir()
        for i, page in enumerate(make_site(name, 6, seed=seed)):
            (folder / f"{i:02d}.html").write_text(page.html, encoding="utf-8")
    pages, words, unplaced = _check_site(tmp_path, model)
    assert pages == 12 and words > 0 and unplaced <= words * UNPLACED_SHARE


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("bundled", BUNDLED, ids=lambda p: p.name)
def test_kept_is_the_output_on_the_bundled_sites(model: str, bundled: Path):
    pages, words, unplaced = _check_site(bundled, model)
    assert pages >= 14 and words > 0 and unplaced <= words * UNPLACED_SHARE


@pytest.fixture(scope="module")
def workers():
    """One process per core: the dev pages' reports are independent, site by site."""
    with ProcessPoolExecutor(max_workers=os.cpu_count() or 1, mp_context=get_context("spawn")) as pool:
        yield pool


@pytest.mark.slow  # every page of the four sets, for every model
@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("data_set", DEV_SETS)
def test_kept_is_the_output_on_every_dev_page(model: str, data_set: str, dev_data: Path, workers):
    sites = find_sites(dev_data / data_set)
    pages, words, unplaced = _total(list(workers.map(check_site, sites, [model] * len(sites))))
    assert pages > 0
    assert unplaced <= words * UNPLACED_SHARE, f"{unplaced} of {words} output words not placed"


def test_a_page_without_text_gives_an_honest_empty_report():
    page = Page("<html><body><div><img src='x.png'></div></body></html>")
    from scrapy_boilerplate.models import create_model

    for model in MODELS:
        cleaned = create_model(model).fit([page]).clean(page)
        shown = check_report(build_report(page, cleaned, summarize_site(model, 1, [])), page, cleaned, model)
        assert shown.page == shown.kept == shown.output == []


def test_a_character_of_several_tokens_is_never_shown_half_kept():
    # "r½" is the tokens "r1" and "2" in one run of characters: the output's "r1" alone cannot be shown
    page = Page("<html><body><p>the root r<sup>½</sup> is here</p></body></html>")
    cleaned = CleanedPage("the root r1 is here", "", "t", 30, 20, None)
    marked = mark_page(page, cleaned)
    assert [s.text for s in marked.all_segments() if not s.kept] == [" r", "½"]
    assert marked.alignment.unplaced == 1  # and the report says so
    shown = check_report(build_report(page, cleaned, summarize_site("t", 1, [])), page, cleaned)
    assert shown.kept == ["the", "root", "is", "here"] and shown.unplaced == ["r1"]
