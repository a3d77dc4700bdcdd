"""``CleanedPage.decisions`` and ``.html`` made on first read: the same as made at once, made once, nothing kept after."""

from __future__ import annotations

import copy
import dataclasses
import gc
import pickle

import lxml.etree
import pytest

from scrapy_boilerplate.models import create_model
from scrapy_boilerplate.models.base import CleanedPage, Decision
from scrapy_boilerplate.page import Page
from scrapy_boilerplate.testing.synthetic import make_site

DECISIONS = (Decision("/html/body/div[1]", False, 12, "nav"), Decision("/html/body/div[2]", True, 300, "main"))
SITE = make_site("lazy.example", 30, seed=5, linked=True)


def _page(i: int) -> Page:
    return Page(SITE[i].html, SITE[i].url)


def _deferred(calls: list[int]) -> CleanedPage:
    def make() -> tuple[Decision, ...]:
        calls.append(1)
        return DECISIONS

    return CleanedPage("main", "<p>main</p>", "t", 312, 300, 0.5, make)


def test_a_function_is_called_on_the_first_read_only_and_its_tuple_kept():
    calls: list[int] = []
    cleaned = _deferred(calls)
    assert calls == [] and cleaned.text == "main" and cleaned.removed_share == 12 / 312
    first = cleaned.decisions
    assert first == DECISIONS and cleaned.decisions is first and calls == [1]


def test_deferred_decisions_compare_copy_and_print_as_given_ones():
    given = CleanedPage("main", "<p>main</p>", "t", 312, 300, 0.5, DECISIONS)
    assert _deferred([]) == given and hash(_deferred([])) == hash(given)
    assert _deferred([]) != dataclasses.replace(given, decisions=DECISIONS[:1])
    assert repr(_deferred([])) == repr(given) and "decisions" not in repr(given)
    assert pickle.loads(pickle.dumps(_deferred([]))) == given
    assert copy.deepcopy(_deferred([])).decisions == DECISIONS
    assert dataclasses.replace(_deferred([]), text="other").decisions == DECISIONS
    assert dataclasses.asdict(_deferred([]))["decisions"] == dataclasses.asdict(given)["decisions"]
    assert CleanedPage("", "", "t", 0, 0).decisions == () and CleanedPage("", "", "t", 0, 0, None, ()).decisions == ()
    with pytest.raises(dataclasses.FrozenInstanceError):
        given.decisions = ()  # type: ignore[misc]


@pytest.mark.parametrize("spec", ["style_tree", "style_tree:variant=paper", "pvalue", "pvalue:variant=paper"])
def test_decisions_read_late_are_those_read_at_once(spec: str):
    name, _, variant = spec.partition(":variant=")
    model = create_model(name, **({"variant": variant} if variant else {})).fit([_page(i) for i in range(20)])
    late = [model.clean(_page(i)) for i in range(20, 30)]
    at_once = [model.clean(_page(i)).decisions for i in range(20, 30)]
    assert [c.decisions for c in late] == at_once
    assert all(len(d) >= 2 for d in at_once)


def test_style_tree_names_each_region_as_lxml_does():
    model = create_model("style_tree", variant="paper", local_noise=False).fit([_page(i) for i in range(20)])
    page = _page(25)
    cleaned = model.clean(page)
    getpath = page.tree.getroottree().getpath
    regions = model.regions(page)
    assert [(d.path, d.kept, d.reason) for d in cleaned.decisions] == [
        (getpath(r.element), r.kept, r.reason) for r in regions
    ]


def _holds_an_element(root: object, depth: int = 6) -> bool:
    seen, layer = set(), [root]
    for _ in range(depth):
        layer = [
            o
            for o in (r for x in layer for r in gc.get_referents(x))
            if id(o) not in seen and not isinstance(o, type) and not seen.add(id(o))
        ]
        if any(isinstance(o, lxml.etree._Element) for o in layer):
            return True
    return False


ALL_SPECS = [
    "style_tree",
    "style_tree:variant=paper",
    "pvalue",
    "pvalue:variant=paper",
    "block_dup",
    "block_dup:variant=paper",
    "entropy",
    "ngram",
    "ngram:variant=paper",
]


def _fitted(spec: str):
    name, _, variant = spec.partition(":variant=")
    return create_model(name, **({"variant": variant} if variant else {})).fit([_page(i) for i in range(20)])


@pytest.mark.parametrize("spec", ALL_SPECS)
def test_cleaned_html_read_late_is_the_html_read_at_once(spec: str):
    model = _fitted(spec)
    late = [model.clean(_page(i)) for i in range(20, 30)]  # read after every other clean of the model
    at_once = [model.clean(_page(i)).html for i in range(20, 30)]
    assert [c.html for c in late] == at_once
    assert all(h.startswith("<") and h.endswith(">") for h in at_once)
    kept_words = [c.text.split()[:3] for c in late if c.text]
    assert kept_words and all(all(w in h for w in words) for words, h in zip(kept_words, at_once, strict=False))


def test_cleaned_html_is_made_once_and_travels_made():
    calls: list[int] = []

    def make() -> str:
        calls.append(1)
        return "<p>main</p>"

    cleaned = CleanedPage("main", make, "t", 312, 300)
    given = CleanedPage("main", "<p>main</p>", "t", 312, 300)
    assert calls == [] and cleaned.removed_share == 12 / 312
    assert cleaned.html == "<p>main</p>" and cleaned.html is cleaned.html and calls == [1]
    assert pickle.loads(pickle.dumps(CleanedPage("main", make, "t", 312, 300))) == given
    copied = copy.deepcopy(CleanedPage("main", make, "t", 312, 300))
    assert len(calls) == 3  # made for the copy, as for the pickle
    assert copied == given and copied.html == "<p>main</p>" and len(calls) == 3  # the copy holds the HTML


def test_a_read_lets_the_page_tree_go():
    model = create_model("style_tree").fit([_page(i) for i in range(20)])
    cleaned = model.clean(_page(25))
    assert _holds_an_element(cleaned)  # the unread decisions and HTML still need it
    decisions = cleaned.decisions
    assert _holds_an_element(cleaned)  # the HTML is not serialised yet
    html = cleaned.html
    assert not _holds_an_element(cleaned) and cleaned.decisions is decisions and cleaned.html is html


def test_pages_prepared_by_a_crawl_fit_hold_no_parsed_tree(tmp_path):
    from scrapy_boilerplate.crawl.site_fit import SampleFitter
    from scrapy_boilerplate.models.spec import ModelSpec
    from scrapy_boilerplate.store import DirectoryStore, LocalCoordinator, SpiderStore

    spec = ModelSpec("style_tree")
    samples = SpiderStore(DirectoryStore(tmp_path), LocalCoordinator(), "spider", spec, 20, 30)
    for i in range(20):
        samples.offer("lazy.example", _page(i))
    outcome = SampleFitter(spec).fit(samples, "lazy.example")
    assert len(outcome.sample_cleans) == 20
    assert not _holds_an_element(outcome.sample_cleans)
    html, prepared, _ = outcome.sample_cleans[_page(3).url]
    fresh = outcome.stored.model.clean(_page(3))
    assert html == _page(3).html and (prepared.text, prepared.html, prepared.removed_share) == (
        fresh.text,
        fresh.html,
        fresh.removed_share,
    )  # what an item gets: the same as a clean of its own
