"""The plugin's counter adds to Scrapy's stats exactly as ``inc_value`` does, whatever the collector."""

from __future__ import annotations

from helpers.scrapy_compat import opened_crawler
from scrapy.statscollectors import DummyStatsCollector, MemoryStatsCollector, StatsCollector
from scrapy.utils.test import get_crawler

from scrapy_boilerplate.crawl.stats import counter


def test_counts_reach_the_crawl_stats_as_with_inc_value():
    crawler = opened_crawler()
    count = counter(crawler.stats)
    count("boilerplate/x")
    count("boilerplate/x")
    count("boilerplate/chars", 120)
    crawler.stats.inc_value("boilerplate/chars", 5)
    assert crawler.stats.get_stats() == {"boilerplate/x": 2, "boilerplate/chars": 125}


def test_counts_follow_a_replaced_stats_dict():
    stats = MemoryStatsCollector(get_crawler())
    count = counter(stats)
    count("a")
    stats.set_stats({"a": 10})
    count("a", 2)
    assert stats.get_value("a") == 12


class ForwardingStats(StatsCollector):
    """A collector with its own inc_value (e.g. one that forwards to a metrics service)."""

    def __init__(self, crawler) -> None:
        super().__init__(crawler)
        self.forwarded: list[tuple[str, int]] = []

    def inc_value(self, key, count=1, start=0, spider=None) -> None:
        self.forwarded.append((key, count))
        super().inc_value(key, count, start)


def test_collectors_with_their_own_inc_value_keep_it():
    forwarding = ForwardingStats(get_crawler())
    counter(forwarding)("a", 3)
    assert forwarding.forwarded == [("a", 3)] and forwarding.get_value("a") == 3
    dummy = DummyStatsCollector(get_crawler())
    counter(dummy)("a")
    assert dummy.get_stats() == {}
