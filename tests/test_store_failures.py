"""A model store that fails at any step never stalls a crawl: real crawls with a broken store.

Each case breaks the store in one way (its path under a regular file, found when the crawl starts, a
directory where a record belongs, a record nobody may read, a full disk, Redis going away mid-crawl
and coming back).  In
every case both sites are fitted, no item waits for its deadline, every failure is counted under
``boilerplate/store/errors`` and each kind of failure is logged once.
"""

from __future__ import annotations

import ctypes
import os
import signal
from collections import Counter
from pathlib import Path

import pytest
from helpers.signal_stats import signal_at, wait_until_stopped
from helpers.store_harness import FULL_DISK_ENV, start_crawl
from helpers.store_support import free_port, running_redis

from scrapy_boilerplate.crawl import stats as keys
from scrapy_boilerplate.crawl.fallback import FallbackReason
from scrapy_boilerplate.store import DirectoryStore
from scrapy_boilerplate.testing.localsite import serve_directory, write_linked_site

pytestmark = pytest.mark.slow  # real crawls with a failing store

MODEL = "test_stored_blocks"
SITES = ("alpha.example", "beta.example")
PAGES_PER_SITE = 14
SETTINGS = {
    "BOILERPLATE_MODEL": MODEL,
    "BOILERPLATE_SAMPLE_SIZE": 6,
    # Short enough that a stalled fit fails the test in seconds, long enough never to be reached
    # by a crawl whose fits run (these take about a second).
    "BOILERPLATE_HOLD_TIMEOUT": 15.0,
    "BOILERPLATE_MAX_TEMPLATES": 1,  # a domain's record is the store's unit here: one per domain
}
DEADLINE_RELEASES = keys.ITEMS_RELEASED.format(reason=FallbackReason.DEADLINE.key)


@pytest.fixture(scope="module")
def sites(tmp_path_factory):
    """Two linked synthetic sites, each on its own loopback port; yields their base URLs."""
    roots = [tmp_path_factory.mktemp(name) for name in SITES]
    for seed, (root, name) in enumerate(zip(roots, SITES, strict=True)):
        write_linked_site(root, name, PAGES_PER_SITE, seed=seed + 11)
    with serve_directory(roots[0]) as first, serve_directory(roots[1]) as second:
        yield [first, second]


def urls(bases: list[str]) -> list[str]:
    return [f"{base}/article/{i}.html" for base in bases for i in range(PAGES_PER_SITE)]


def record_path(store: Path, base: str) -> Path:
    """Where the directory store keeps the record of ``base``'s domain for the harness's spider."""
    return DirectoryStore(store).path("site", base.split("://", 1)[1])


def assert_fitted_without_waiting(result, bases: list[str], fitted: int) -> None:
    """Every page came out once, cleaned by its site model, and nothing waited for its deadline."""
    assert result.stats.get("finish_reason") == "finished", result.log[-3000:]
    assert Counter(item["url"] for item in result.items) == Counter(urls(bases))
    models = Counter(item["boilerplate_model"] for item in result.items)
    assert models == {MODEL: len(result.items)}, "\n".join(
        line for line in result.log.splitlines() if "boilerplate" in line or "ERROR" in line
    )[-8000:]
    assert result.stats.get(keys.MODELS_FITTED, 0) == fitted, result.log[-3000:]
    assert DEADLINE_RELEASES not in result.stats
    assert keys.ITEMS_FALLBACK not in result.stats


def failure_lines(log: str) -> list[str]:
    return [line for line in log.splitlines() if "boilerplate: model store" in line and " step) while " in line]


def test_a_store_path_under_a_regular_file_is_said_once_at_start_and_the_models_fit_in_memory(sites, tmp_path):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a regular file")
    settings = {**SETTINGS, "BOILERPLATE_STORE": str(blocker / "models")}
    result = start_crawl(tmp_path / "out", urls(sites), settings, follow="^$").result()
    assert_fitted_without_waiting(result, sites, fitted=2)
    # found unusable when the crawl starts: one failure, one line, and no step fails after it
    assert result.stats[keys.STORE_ERRORS] == 1 and keys.STORE_SAVED not in result.stats
    (line,) = [line for line in result.log.splitlines() if "WARNING" in line and "boilerplate" in line]
    assert f"model store {blocker / 'models'} cannot be used" in line and "will not be stored" in line
    assert failure_lines(result.log) == [] and "persist in" not in result.log


def test_a_directory_in_place_of_a_record_costs_only_that_domain_its_stored_model(sites, tmp_path):
    store = tmp_path / "models"
    record_path(store, sites[0]).mkdir(parents=True)
    settings = {**SETTINGS, "BOILERPLATE_STORE": str(store)}
    result = start_crawl(tmp_path / "out", urls(sites), settings, follow="^$").result()
    assert_fitted_without_waiting(result, sites, fitted=2)
    assert result.stats[keys.STORE_ERRORS] == 2  # its load and its write
    assert result.stats[keys.STORE_SAVED] == 1  # the other domain's model is stored as usual
    assert DirectoryStore(store).entry("site", sites[1].split("://", 1)[1]).pages == 6


def _without_permission_override() -> None:
    """In a child process of root: drop the capabilities that let root read any file (Linux)."""
    libc = ctypes.CDLL(None, use_errno=True)
    for capability in (1, 2):  # CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH
        if libc.prctl(24, capability, 0, 0, 0) != 0:  # PR_CAPBSET_DROP
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP) failed")


def test_an_unreadable_record_is_counted_and_its_domain_fitted_again(sites, tmp_path):
    store = tmp_path / "models"
    record = record_path(store, sites[0])
    record.parent.mkdir(parents=True)
    record.write_text('{"format": "a record this crawl may not read"}')
    record.chmod(0)
    settings = {**SETTINGS, "BOILERPLATE_STORE": str(store)}
    crawl = start_crawl(
        tmp_path / "out",
        urls(sites),
        settings,
        follow="^$",
        preexec_fn=_without_permission_override if os.geteuid() == 0 else None,
    )
    result = crawl.result()
    assert_fitted_without_waiting(result, sites, fitted=2)
    assert result.stats[keys.STORE_ERRORS] == 1 and "Permission denied" in result.log
    assert result.stats[keys.STORE_SAVED] == 2  # the new record replaces the unreadable one
    assert sorted(entry.pages for entry in DirectoryStore(store).list()) == [6, 6]


def test_a_full_disk_counts_each_failed_write_and_the_models_still_clean(sites, tmp_path):
    store = tmp_path / "models"
    settings = {**SETTINGS, "BOILERPLATE_STORE": str(store)}
    env = {FULL_DISK_ENV: str(store)}
    result = start_crawl(tmp_path / "out", urls(sites), settings, env=env, follow="^$").result()
    assert_fitted_without_waiting(result, sites, fitted=2)
    assert result.stats[keys.STORE_ERRORS] == 2 and keys.STORE_SAVED not in result.stats
    (line,) = failure_lines(result.log)
    assert "(write step) while storing the model" in line and "No space left on device" in line
    assert DirectoryStore(store).list() == []


def test_redis_going_away_mid_crawl_and_coming_back_never_stalls_the_crawl(sites, tmp_path):
    pytest.importorskip("redis", reason="redis-py is not installed (pip install 'scrapy-boilerplate[redis]')")
    port = free_port()
    settings = {
        **SETTINGS,
        "BOILERPLATE_STORE": f"redis://127.0.0.1:{port}/0",
        "BOILERPLATE_STORE_POLL": 0.2,
        # the crawl stops itself twice: at its second sample page (both samples incomplete), while the
        # test takes the server away; at its first failure of the store, while the test brings it back
        **signal_at((keys.SAMPLE_PAGES, 2, "SIGSTOP"), (keys.STORE_ERRORS, 1, "SIGSTOP")),
    }
    for name in ("before", "after"):
        (tmp_path / name).mkdir()
    with running_redis(port, tmp_path / "before"):
        crawl = start_crawl(tmp_path / "out", urls(sites), settings, follow="^$")
        wait_until_stopped(crawl.process)
    try:
        os.kill(crawl.process.pid, signal.SIGCONT)  # the server is gone
        wait_until_stopped(crawl.process)
        with running_redis(port, tmp_path / "after"):
            os.kill(crawl.process.pid, signal.SIGCONT)
            result = crawl.result()
    finally:
        if crawl.process.returncode is None:  # a failure above: leave no stopped process behind
            crawl.process.kill()
            crawl.process.wait()
    assert_fitted_without_waiting(result, sites, fitted=2)
    assert result.stats[keys.STORE_ERRORS] >= 1
    assert result.log.count("continuing without the shared model store") == 1
