"""``bench`` counts, per model, the pages where it lost the article that readability-lxml found."""

from __future__ import annotations

from scrapy_boilerplate.evaluation.bench import BenchRow, count_lost, format_table
from scrapy_boilerplate.evaluation.metric import MeanScore


def _row(label: str, page_f1: dict[str, float]) -> BenchRow:
    mean = MeanScore(len(page_f1), 0.5, 0.5, 0.5)
    return BenchRow(label, mean, mean, None, 1.0, 10.0, 0, page_f1)


def test_a_page_is_lost_when_the_model_misses_what_readability_finds():
    model = _row("fusion", {"a": 0.2, "b": 0.9, "c": 0.1, "d": 0.45})
    peer = _row("readability", {"a": 0.95, "b": 0.9, "c": 0.5, "d": 0.8})
    count_lost([model, peer])
    assert model.lost == 2  # a and d: c is lost by both
    assert peer.lost == 0
    table = format_table([model, peer])
    assert "2 (50.0%)" in table
    assert "lost: pages with F1 < 0.5 where readability scores >= 0.8" in table


def test_without_readability_in_the_run_nothing_is_counted():
    model = _row("fusion", {"a": 0.1})
    count_lost([model, _row("trafilatura", {"a": 0.9})])
    assert model.lost is None
    assert "lost:" not in format_table([model])
