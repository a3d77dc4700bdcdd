"""The shared model life cycle between workers: sample together, fit once, load, notice drift.

Each worker is a :class:`SpiderStore` (the store's side) with the crawl's :class:`SampleFitter`
and :class:`DriftWatch`, as a crawl's store session puts them together."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from helpers.model_outputs import STATEFUL_MODELS, assert_same_outputs
from helpers.parses import count_parses
from helpers.store_support import redesign, run_out_fit_lock
from twisted.internet.task import Clock

from scrapy_boilerplate import Page
from scrapy_boilerplate.crawl.site_fit import SampleFitter
from scrapy_boilerplate.drift import DriftMonitor, DriftWatch, Fingerprint, clean_and_measure
from scrapy_boilerplate.models.spec import ModelSpec
from scrapy_boilerplate.store import DirectoryStore, LocalCoordinator, RedisStore, SpiderStore, StoreError
from scrapy_boilerplate.store.redis_coordination import RedisCoordinator
from scrapy_boilerplate.testing.synthetic import make_site

SAMPLE = 5
PAGES = [Page(s.html, s.url) for s in make_site("shared.example", 40, seed=9)]


def store_error(what: str, error: StoreError) -> None:
    raise AssertionError(f"{what}: {error}")


class Worker:
    """One worker of a crawl: its view of the shared store, its fitter and its drift watch."""

    def __init__(self, samples: SpiderStore, monitor: DriftMonitor | None = None, **fitter) -> None:
        self.samples = samples
        self.fitter = SampleFitter(samples.spec, **fitter)
        self.drifted: list[str] = []
        self.drift = DriftWatch(monitor, lambda key: True, samples.restart_sample, store_error, self.drifted.append)

    def fit(self, domain: str, parsed=()):
        return self.fitter.fit(self.samples, domain, parsed)

    def __getattr__(self, name: str):  # offer, load, state, needs_fit, newer, store, coordinator
        return getattr(self.samples, name)


@dataclass
class Workers:
    """A factory of workers on one shared store (``spec``: the model, pvalue unless given), and a
    way to run a fit lock's TTL out (see :func:`run_out_fit_lock`)."""

    make: Callable[..., Worker]
    run_out: Callable[[Worker, str, float], None]

    def __call__(self, **kw) -> Worker:
        return self.make(**kw)


@pytest.fixture(params=["local", "redis"])
def workers(request, tmp_path: Path):
    """Workers on one shared store: in-process on a clock the test moves, or separate Redis clients."""
    spec = ModelSpec("pvalue")
    if request.param == "local":
        clock = Clock()
        store, coordinator = DirectoryStore(tmp_path / "models"), LocalCoordinator(clock.seconds)
        yield Workers(
            lambda **kw: Worker(
                SpiderStore(store, coordinator, "spider", kw.get("spec", spec), SAMPLE, kw.get("ttl", 30)),
                kw.get("monitor"),
            ),
            lambda _worker, _domain, ttl: clock.advance(ttl),
        )
        return
    url, prefix, stores = request.getfixturevalue("redis_url"), f"test-{uuid.uuid4().hex}", []

    def make(**kw) -> Worker:
        stores.append(RedisStore.from_url(url, prefix))
        coordinator = RedisCoordinator(stores[-1].client, prefix)
        return Worker(
            SpiderStore(stores[-1], coordinator, "spider", kw.get("spec", spec), SAMPLE, kw.get("ttl", 30)),
            kw.get("monitor"),
        )

    yield Workers(make, lambda worker, domain, ttl: run_out_fit_lock(worker.coordinator, "spider", domain, ttl))
    for name in stores[0].client.scan_iter(f"{prefix}:*"):
        stores[0].client.delete(name)
    for store in stores:
        store.close()


def fill(a: Worker, b: Worker, pages: list[Page]) -> list[bool]:
    """Two workers offering pages alternately, as a shared request queue hands them out."""
    return [(a if i % 2 else b).offer("shared.example", page).accepted for i, page in enumerate(pages)]


@pytest.mark.parametrize("model", STATEFUL_MODELS)
def test_workers_fill_one_sample_and_the_model_is_fitted_once(workers, model):
    a, b = workers(spec=ModelSpec(model)), workers(spec=ModelSpec(model))
    assert a.load("shared.example") is None
    assert fill(a, b, PAGES[:8]) == [True] * SAMPLE + [False] * 3
    state = b.state("shared.example")
    assert b.needs_fit(state, None)
    fitted = a.fit("shared.example")
    assert fitted.status == "fitted" and fitted.saved
    assert fitted.stored.entry.pages == SAMPLE
    assert set(fitted.sample_cleans) == {p.url for p in PAGES[:SAMPLE]}  # both workers' pages
    again = b.fit("shared.example")
    assert again.status == "loaded"  # not fitted twice
    assert again.stored.entry.fitted_at == fitted.stored.entry.fitted_at
    assert not b.needs_fit(b.state("shared.example"), again.stored.entry)
    assert a.offer("shared.example", PAGES[20]).accepted is False  # the sample stays closed
    assert_same_outputs(again.stored.model, fitted.stored.model, PAGES[:SAMPLE] + PAGES[30:33])


@pytest.mark.parametrize("model", STATEFUL_MODELS)
def test_a_later_crawl_loads_the_stored_model_and_sees_newer_ones(workers, model):
    a, b = workers(spec=ModelSpec(model)), workers(spec=ModelSpec(model))
    fill(a, b, PAGES[:SAMPLE])
    fitted = a.fit("shared.example").stored
    later = workers(spec=ModelSpec(model))
    loaded = later.load("shared.example")
    assert loaded is not None and loaded.entry.fitted_at == fitted.entry.fitted_at
    assert_same_outputs(loaded.model, fitted.model, PAGES[:SAMPLE] + PAGES[30:33])
    assert later.newer("shared.example", loaded.entry) is None
    assert later.newer("shared.example", None).entry.fitted_at == fitted.entry.fitted_at


def test_only_one_worker_fits_at_a_time_and_an_abandoned_lock_expires(workers):
    a, b = workers(ttl=20), workers(ttl=20)
    fill(a, b, PAGES[:SAMPLE])
    held = a.coordinator.acquire_fit_lock("spider", "shared.example", 20)  # a worker dies mid-fit
    assert held is not None
    assert b.fit("shared.example").status == "busy"
    workers.run_out(a, "shared.example", 20)
    assert b.fit("shared.example").status == "fitted"


class _BrokenSpec:
    """A model spec whose model crashes while fitting."""

    label = "broken"

    def create(self):
        class Broken:
            def fit(self, pages):
                raise RuntimeError("model bug")

        return Broken()


def test_a_failed_fit_releases_the_lock_for_the_next_worker(workers):
    a, b = workers(), workers()
    fill(a, b, PAGES[:SAMPLE])
    a.fitter.spec = _BrokenSpec()
    with pytest.raises(RuntimeError, match="model bug"):
        a.fit("shared.example")
    assert b.fit("shared.example").status == "fitted"


def test_if_storing_fails_the_model_is_used_and_the_sample_stays_open_for_another_fitter(workers, monkeypatch):
    a, b = workers(), workers()
    fill(a, b, PAGES[:SAMPLE])

    def down(stored):
        raise StoreError("disk full")

    monkeypatch.setattr(a.store, "put", down)
    outcome = a.fit("shared.example")
    assert (outcome.status, outcome.saved) == ("fitted", False)
    assert outcome.stored.model.clean(PAGES[30]).text
    monkeypatch.undo()
    assert b.fit("shared.example").status == "fitted"
    assert b.load("shared.example") is not None


def test_a_closed_sample_whose_model_vanished_is_sampled_again(workers):
    a, b = workers(), workers()
    fill(a, b, PAGES[:SAMPLE])
    a.fit("shared.example")
    a.store.delete("spider", "shared.example")
    assert b.needs_fit(b.state("shared.example"), None)
    assert b.fit("shared.example").status == "incomplete"
    assert all(fill(a, b, PAGES[10 : 10 + SAMPLE]))
    assert b.fit("shared.example").status == "fitted"


def test_drift_opens_a_new_sample_once_and_the_refit_replaces_the_model(workers):
    a = workers(monitor=DriftMonitor(window=5, tolerance=0.25, every=1))
    b = workers(monitor=DriftMonitor(window=5, tolerance=0.25, every=1))
    fill(a, b, PAGES[:SAMPLE])
    first = a.fit("shared.example").stored
    known_b = b.load("shared.example")
    a.drift.watch("shared.example", first)
    b.drift.watch("shared.example", known_b)
    redesigned = [Page(redesign(p.html), p.url + "?v2") for p in PAGES[10:30]]
    for worker, stored in ((a, first), (b, known_b)):
        for page in redesigned[:5]:
            fingerprint = worker.drift.due("shared.example", stored.model)
            if fingerprint is not None:
                cleaned, unseen = clean_and_measure(stored.model, page, fingerprint)
                worker.drift.observe("shared.example", stored.model, cleaned.removed_share, unseen)
    assert a.drifted == b.drifted == ["shared.example"]  # each worker noticed ...
    state = a.state("shared.example")
    assert state.generation == 1 and not state.closed  # ... but the sample was restarted once
    assert b.needs_fit(b.state("shared.example"), known_b.entry) is False  # still sampling
    fill(a, b, redesigned[5 : 5 + SAMPLE])
    refit = b.fit("shared.example")
    assert refit.status == "fitted" and refit.stored.entry.generation == 1
    assert a.newer("shared.example", first.entry).entry.generation == 1
    page = redesigned[-1]
    baseline = refit.stored.entry.baseline
    assert Fingerprint(baseline.signatures, baseline.unseen_share).unseen(page) < 0.2  # it saw the new template


def test_a_model_stored_with_another_model_setting_is_re_learned(tmp_path: Path):
    store, coordinator = DirectoryStore(tmp_path / "models"), LocalCoordinator()
    first = Worker(SpiderStore(store, coordinator, "spider", ModelSpec("pvalue"), SAMPLE, 30))
    for page in PAGES[:SAMPLE]:
        first.offer("shared.example", page)
    assert first.fit("shared.example").status == "fitted"
    assert first.load("shared.example").model.name == "pvalue"

    changed = Worker(SpiderStore(store, LocalCoordinator(), "spider", ModelSpec("style_tree"), SAMPLE, 30))
    assert changed.load("shared.example") is None  # the user switched BOILERPLATE_MODEL: learn anew
    paper = SpiderStore(store, LocalCoordinator(), "spider", ModelSpec("pvalue", {"variant": "paper"}), SAMPLE, 30)
    assert paper.load("shared.example") is None  # same model, other parameters
    for page in PAGES[:SAMPLE]:
        changed.offer("shared.example", page)
    assert changed.fit("shared.example").status == "fitted"
    assert changed.load("shared.example").model.name == "style_tree"


def test_a_fit_reads_the_pages_parsed_beforehand_and_parses_only_changed_ones(tmp_path, monkeypatch):
    # A crawl parses its local sample on the reactor thread and hands the pages to the fit thread.
    learning = Worker(
        SpiderStore(DirectoryStore(tmp_path), LocalCoordinator(), "spider", ModelSpec("style_tree"), SAMPLE, 30)
    )
    for page in PAGES[:SAMPLE]:
        learning.offer("shared.example", Page(page.html, page.url))
    parsed = [page.parse() for page in learning.local_sample("shared.example")]
    assert [page.url for page in parsed] == [page.url for page in PAGES[:SAMPLE]]
    parsed[0] = Page(parsed[0].html + "<p>changed since</p>", parsed[0].url).parse()
    parses = count_parses(monkeypatch)
    outcome = learning.fit("shared.example", parsed)
    assert parses == [PAGES[0].html]  # the page whose HTML is not the sample's, parsed from the sample
    fresh = Worker(
        SpiderStore(
            DirectoryStore(tmp_path / "fresh"), LocalCoordinator(), "spider", ModelSpec("style_tree"), SAMPLE, 30
        )
    )
    for page in PAGES[:SAMPLE]:
        fresh.offer("shared.example", Page(page.html, page.url))
    unparsed = fresh.fit("shared.example")
    assert {url: kept.cleaned.text for url, kept in outcome.sample_cleans.items()} == {
        url: kept.cleaned.text for url, kept in unparsed.sample_cleans.items()
    }


def test_a_crawl_without_a_cleaned_html_field_keeps_no_cleaned_html_of_its_sample(tmp_path):
    def sample_cleans(keep: bool) -> dict:
        samples = SpiderStore(
            DirectoryStore(tmp_path / str(keep)), LocalCoordinator(), "spider", ModelSpec("style_tree"), SAMPLE, 30
        )
        worker = Worker(samples, keep_cleaned_html=keep)
        for page in PAGES[:SAMPLE]:
            worker.offer("shared.example", Page(page.html, page.url))
        return worker.fit("shared.example").sample_cleans

    kept, dropped = sample_cleans(True), sample_cleans(False)
    assert all(c.cleaned.html.startswith("<") for c in kept.values())
    assert all(c.cleaned.html == "" for c in dropped.values())
    assert {u: c.cleaned.text for u, c in kept.items()} == {u: c.cleaned.text for u, c in dropped.items()}
