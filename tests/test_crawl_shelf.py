"""Fitted models kept in memory up to a bound; the others come back from the store when a page needs them."""

from __future__ import annotations

import pytest
from helpers.crawl_harness import register_test_models
from helpers.crawl_models import FitPages

from scrapy_boilerplate.crawl.shelf import ModelGone, ModelShelf
from scrapy_boilerplate.page import Page
from scrapy_boilerplate.store import MemoryStore
from scrapy_boilerplate.store.record import StoredModel
from scrapy_boilerplate.testing.synthetic import make_site


def fitted_sites(store: MemoryStore, names: list[str]) -> dict[str, StoredModel]:
    """A model fitted on each named site, stored in ``store``."""
    register_test_models()  # the store reads a record back by its model's registered name
    stored = {}
    for name in names:
        pages = [Page(p.html, p.url) for p in make_site(name, 4, seed=len(name))]
        stored[name] = StoredModel.new("spider", name, FitPages().fit(pages), len(pages))
        store.put(stored[name])
    return stored


def test_past_the_bound_the_least_recently_used_model_is_dropped_and_comes_back_from_the_store():
    store = MemoryStore()
    names = ["a.example", "b.example", "c.example"]
    fitted = fitted_sites(store, names)
    shelf = ModelShelf(2, lambda key: store.get("spider", key))
    shelved = {name: shelf.shelve(name, fitted[name]).model for name in names}
    assert [shelved[name].loaded for name in names] == [False, True, True]  # a.example was used least recently
    page = Page(make_site("a.example", 5, seed=9)[4].html)
    assert shelved["a.example"].clean(page).text == fitted["a.example"].model.clean(page).text
    assert shelf.reloads == 1 and shelved["a.example"].loaded and not shelved["b.example"].loaded
    assert len(shelf) == 2
    assert shelved["b.example"].name == "test_fit_pages"  # read without loading it
    assert not shelved["b.example"].loaded


def test_a_model_whose_record_is_gone_raises_so_the_item_falls_back():
    store = MemoryStore()
    fitted = fitted_sites(store, ["a.example", "b.example"])
    shelf = ModelShelf(1, lambda key: store.get("spider", key))
    first = shelf.shelve("a.example", fitted["a.example"]).model
    shelf.shelve("b.example", fitted["b.example"])
    store.delete("spider", "a.example")
    with pytest.raises(ModelGone):
        first.clean(Page("<html><body><p>text</p></body></html>"))
