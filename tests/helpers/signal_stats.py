"""A crawl that sends itself a signal once one of its stats reaches a value.

A test acts at a known point of a crawl this way rather than watching it from outside (a poll that
sleeps, and a point that depends on the machine's speed): ``SIGKILL`` once a worker has recorded 8
waiting items, ``SIGSTOP`` so the test can take the Redis server away at that point (the test sees
the stop with :func:`wait_until_stopped`), ``SIGINT`` as Ctrl-C after the sixth response.

Setting ``TEST_SIGNAL_AT``: a list of ``[stat, value, signal name]`` (or that list in JSON, as
``scrapy crawl -s`` gives it), each sent once, in the order they are reached.  Use :func:`signal_at`
in a crawl's settings, :func:`signal_at_options` on a command line.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import threading
from typing import Any

from scrapy.crawler import Crawler
from scrapy.statscollectors import MemoryStatsCollector

SETTING = "TEST_SIGNAL_AT"


class SignallingStats(MemoryStatsCollector):
    """Scrapy's stats in memory, sending this process a signal once a stat reaches a value."""

    def __init__(self, crawler: Crawler) -> None:
        super().__init__(crawler)
        triggers = crawler.settings.get(SETTING) or []
        triggers = json.loads(triggers) if isinstance(triggers, str) else triggers
        self.pending = [(stat, value, signal.Signals[name]) for stat, value, name in triggers]

    def set_value(self, key: str, value: Any, *args: Any, **kwargs: Any) -> None:
        super().set_value(key, value, *args, **kwargs)
        self._reached(key)

    def inc_value(self, key: str, *args: Any, **kwargs: Any) -> None:
        super().inc_value(key, *args, **kwargs)
        self._reached(key)

    def _reached(self, key: str) -> None:
        for trigger in list(self.pending):
            stat, value, sent = trigger
            if stat == key and self.get_value(key, 0) >= value:
                self.pending.remove(trigger)
                os.kill(os.getpid(), sent)


def signal_at(*triggers: tuple[str, int, str]) -> dict[str, Any]:
    """Settings that make the crawl send itself each ``(stat, value, signal name)`` once reached."""
    return {"STATS_CLASS": "helpers.signal_stats.SignallingStats", SETTING: [list(t) for t in triggers]}


def signal_at_options(*triggers: tuple[str, int, str]) -> list[str]:
    """:func:`signal_at` as ``NAME=VALUE`` settings for ``scrapy crawl -s`` (``tests/`` on the import path)."""
    settings = signal_at(*triggers)
    return [f"STATS_CLASS={settings['STATS_CLASS']}", f"{SETTING}={json.dumps(settings[SETTING])}"]


def wait_until_stopped(process: subprocess.Popen, hung_after: float = 120) -> None:
    """Return once ``process`` stopped itself (``SIGSTOP``); fail if it ends first, or hangs."""
    status: list[int] = []
    waiter = threading.Thread(target=lambda: status.append(os.waitpid(process.pid, os.WUNTRACED)[1]), daemon=True)
    waiter.start()
    waiter.join(hung_after)  # only a hung crawl takes this long: not a bound on its speed
    assert status, f"the crawl neither stopped nor ended in {hung_after} s"
    if not os.WIFSTOPPED(status[0]):
        process.returncode = os.waitstatus_to_exitcode(status[0])  # reaped here: tell Popen
        raise AssertionError(f"the crawl ended (status {process.returncode}) before it stopped itself")
