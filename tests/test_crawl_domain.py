"""A domain's life cycle, the bound on sampling domains, the fit queue and the fallback report."""

from __future__ import annotations

import logging

import pytest
from scrapy.statscollectors import MemoryStatsCollector
from scrapy.utils.test import get_crawler

from scrapy_boilerplate.crawl import stats as keys
from scrapy_boilerplate.crawl.domain import DomainState, DomainStatus, TransitionError
from scrapy_boilerplate.crawl.fallback import FallbackReason, FallbackReport
from scrapy_boilerplate.crawl.sampling import SamplingDomains
from scrapy_boilerplate.models.registry import create_model
from scrapy_boilerplate.store.record import StoredModel


def learned() -> StoredModel:
    return StoredModel.new("test", "a.example", create_model("pvalue").fit([]), 5)


def test_items_wait_while_sampling_and_fitting_and_are_cleaned_once_a_model_is_adopted():
    state = DomainState()
    assert state.wants_pages and not state.items_wait  # no page offered yet: nothing to wait for
    state.urls.add("http://a.example/1")
    assert state.items_wait
    assert state.sample_filled() and state.status is DomainStatus.FITTING
    assert state.items_wait and not state.wants_pages
    state.adopt(learned())
    assert state.status is DomainStatus.READY and state.model is not None
    assert not state.items_wait and not state.wants_pages and state.urls == set()


def test_a_drifted_domain_keeps_its_model_while_it_samples_and_fits_again():
    state = DomainState()
    state.adopt(learned())
    state.drifted()
    assert state.status is DomainStatus.RESAMPLING and state.wants_pages and state.model is not None
    assert state.sample_filled() and state.status is DomainStatus.REFITTING and not state.items_wait
    state.sample_reopened()
    assert state.status is DomainStatus.RESAMPLING
    with pytest.raises(TransitionError):
        state.drifted()


def test_a_domain_that_falls_back_still_samples_and_one_given_up_never_does():
    state = DomainState()
    assert state.fall_back(FallbackReason.SAMPLE_NOT_FILLED)
    assert state.status is DomainStatus.FALLBACK and state.wants_pages and not state.items_wait
    assert not state.fall_back(FallbackReason.SAMPLE_NOT_FILLED)  # once
    assert state.sample_filled() and state.status is DomainStatus.FITTING  # a late fill gets its model
    state.sample_reopened()
    assert state.status is DomainStatus.FALLBACK
    sampling = DomainState()
    sampling.urls.add("http://a.example/1")
    assert sampling.sample_filled()
    sampling.sample_reopened()  # the page's item, on its way, still waits for the model
    assert sampling.status is DomainStatus.SAMPLING and sampling.items_wait
    assert state.give_up(FallbackReason.EVICTED)
    assert state.status is DomainStatus.CLOSED and not state.wants_pages and not state.sample_filled()
    ready = DomainState()
    ready.adopt(learned())
    ready.drifted()
    assert not ready.give_up(FallbackReason.EVICTED) and ready.status is DomainStatus.READY


def test_the_sampling_bound_evicts_the_domain_fed_least_recently_and_spares_one_about_to_fill():
    domains = SamplingDomains(max_domains=3, sample_size=5)
    domains.fed("stalled.example", 3)
    domains.fed("almost.example", 4)  # one page from a full sample
    domains.fed("busy.example", 1)
    domains.fed("stalled.example", 3)  # fed again: now the most recent
    domains.fed("busy.example", 2)
    assert domains.to_evict("new.example") == ["stalled.example"]
    domains.fed("new.example", 1)
    assert domains.to_evict("busy.example") == []  # already sampling: nothing to evict
    assert domains.to_evict("newer.example") == ["busy.example"]


def test_the_fallback_report_warns_once_per_domain_and_sums_up(caplog):
    """A failure warns once per domain; a template without a fit is no failure: one INFO line, its own stats."""
    stats = MemoryStatsCollector(get_crawler())
    report = FallbackReport(stats, "pvalue")
    with caplog.at_level(logging.INFO):
        for _ in range(3):
            report.cleaned("pvalue (single page)", "small.example", FallbackReason.SAMPLE_NOT_FILLED)
        report.cleaned("pvalue (fallback)", "busy.example", FallbackReason.HOLD_FULL)
        report.cleaned("pvalue (fallback)", "busy.example", FallbackReason.DEADLINE)
        report.cleaned("style_tree", "busy.example", None)
        report.log_summary({"no_html": 2})
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1
    assert "busy.example" in warnings[0] and "BOILERPLATE_HOLD_MAX_BYTES" in warnings[0]
    told = [r.getMessage() for r in caplog.records if r.levelno == logging.INFO and "small.example" in r.getMessage()]
    assert len(told) == 1 and "single-page pvalue" in told[0] and "sample_not_filled" in told[0]
    assert stats.get_value(keys.ITEMS_FALLBACK) == 2
    assert stats.get_value(keys.ITEMS_FALLBACK_REASON.format(reason="hold_full")) == 1
    assert stats.get_value(keys.ITEMS_FALLBACK_REASON.format(reason="sample_not_filled")) is None
    assert stats.get_value(keys.ITEMS_SINGLE_PAGE.format(reason="sample_not_filled")) == 3
    summary = caplog.records[-1].getMessage()
    assert summary == (
        "boilerplate: 6 items cleaned (pvalue (single page) 3, pvalue (fallback) 2, style_tree 1); "
        "3 by the single-page pvalue: sample_not_filled 3 in 1 domains; "
        "2 by the fallback pvalue: hold_full 1 in 1 domains, deadline 1 in 1 domains; passed on uncleaned: no_html 2"
    )


def test_fits_run_one_at_a_time_in_the_order_their_samples_filled(monkeypatch):
    from twisted.internet.defer import Deferred

    from scrapy_boilerplate.crawl import fitting
    from scrapy_boilerplate.crawl.events import FitJob

    monkeypatch.setattr(fitting, "deferred_from_coro", Deferred.fromCoroutine)  # no event loop needed
    gates: dict[str, Deferred] = {}
    log: list[str] = []

    async def fit(job: FitJob) -> None:
        log.append(f"start {job.key}")
        gates[job.key] = Deferred()
        await gates[job.key]
        log.append(f"end {job.key}")

    queue = fitting.FitQueue(fit)
    for domain in ("a", "b", "a", "c"):
        queue.submit(FitJob(domain))
    assert log == ["start a"] and len(queue) == 3 and "c" in queue
    finished = queue.finished()
    gates["a"].callback(None)
    assert log == ["start a", "end a", "start b"]
    gates["b"].callback(None)
    assert not finished.called  # c is still fitting
    gates["c"].callback(None)
    assert log[-2:] == ["start c", "end c"] and len(queue) == 0 and "a" not in queue
    assert finished.called and queue.finished().called
