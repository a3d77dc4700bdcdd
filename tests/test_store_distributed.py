"""The distributed recipe of docs/store.md, run as written: real scrapy-redis workers, a Redis server
started here, four local sites.  See helpers/recipe.py for how the page's blocks become a project."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest
from helpers.recipe import counted, exported, make_project, read_recipe, seed, start_worker, stat
from helpers.signal_stats import signal_at_options, wait_until_stopped
from helpers.store_support import running_redis

from scrapy_boilerplate.crawl import stats as keys
from scrapy_boilerplate.testing.localsite import SEED_PATH, serve_directory, write_linked_site

pytestmark = pytest.mark.slow  # real crawls against a Redis server

SITES = 4
PAGES = 20
# For the test only: a worker closes after 5 idle seconds rather than the page's 30.
TEST_SETTINGS = ("MAX_IDLE_TIME_BEFORE_CLOSE=5",)


@pytest.fixture(scope="module")
def redis_server(tmp_path_factory):
    """A Redis server of this module's own, so the recipe's default key names cannot meet another test's."""
    from helpers.store_support import free_port

    with running_redis(free_port(), tmp_path_factory.mktemp("redis")) as url:
        yield url


@pytest.fixture
def client(redis_server):
    import redis

    client = redis.Redis.from_url(redis_server)
    client.flushdb()
    yield client
    client.close()


@pytest.fixture(scope="module")
def sites(tmp_path_factory):
    """Four linked sites of 20 pages (and their gold article texts); yields (seeds, {url: page})."""
    root = tmp_path_factory.mktemp("sites")
    with (
        serve_directory(root / "s0") as s0,
        serve_directory(root / "s1") as s1,
        serve_directory(root / "s2") as s2,
        serve_directory(root / "s3") as s3,
    ):
        gold = {}
        for n, base in enumerate((s0, s1, s2, s3)):
            for i, page in enumerate(write_linked_site(root / f"s{n}", f"site{n}.example", PAGES, seed=n)):
                gold[f"{base}/article/{i}.html"] = page
            for text in (root / f"s{n}" / "article").glob("*.txt"):
                text.unlink()  # the gold texts are not pages of the site
        yield [base + SEED_PATH for base in (s0, s1, s2, s3)], gold


def check_crawl(project: Path, gold: dict, logs: list[str]) -> list[dict]:
    """Every page exported once across the workers, each article cleaned by its site's model."""
    items = exported(project)
    counts = counted(items)
    assert set(counts.values()) == {1}, counts.most_common(3)
    assert set(gold) <= set(counts)
    for item in items:
        if item["url"] in gold:
            assert "(fallback)" not in item["boilerplate_model"], item["url"]
            assert gold[item["url"]].article_text.split("\n\n")[1][:80] in item["text"]
    assert sum(stat(log, keys.MODELS_FITTED) for log in logs) == SITES  # one fit per domain
    return items


def test_the_documented_recipe_exports_every_page_once_with_one_fit_per_domain(sites, tmp_path, client, redis_server):
    seeds, gold = sites
    recipe = read_recipe(redis_server)
    project = make_project(tmp_path / "project", recipe)
    seed(recipe, seeds)
    # The second worker joins a crawl under way, and takes part however fast each starts: the first
    # stops itself after 10 pages until the second has crawled one (which stops it, in turn); then both
    # go on.  (The first is not taken for dead meanwhile: a worker timeout longer than any start-up.)
    joining = (*TEST_SETTINGS, "BOILERPLATE_WORKER_TIMEOUT=600")
    first = start_worker(
        project, recipe, "worker1", *joining, *signal_at_options(("response_received_count", 10, "SIGSTOP"))
    )
    wait_until_stopped(first)
    second = start_worker(
        project, recipe, "worker2", *joining, *signal_at_options(("response_received_count", 1, "SIGSTOP"))
    )
    try:
        wait_until_stopped(second)
    finally:
        for worker in (first, second):
            os.kill(worker.pid, signal.SIGCONT)
    for worker in (first, second):
        assert worker.wait(timeout=600) == 0
    logs = [(project / f"worker{n}.log").read_text() for n in (1, 2)]
    for log in logs:
        assert "'finish_reason': 'finished'" in log, log[-3000:]
        assert "Traceback" not in log, log[-3000:]
    items = check_crawl(project, gold, logs)
    assert all(stat(log, "item_scraped_count") for log in logs)  # the late worker took part
    assert len(items) == sum(stat(log, "item_scraped_count") for log in logs)
    from scrapy_boilerplate.store import open_store

    store = open_store(redis_server)
    entries = store.list("pages")
    store.close()
    assert len(entries) == SITES and {entry.pages for entry in entries} == {3}  # BOILERPLATE_SAMPLE_SIZE


def test_a_plain_spiders_start_requests_seen_before_are_said_once(sites, tmp_path, client, redis_server):
    """A plain Spider gives its start requests to every worker, and Scrapy never filters them; the
    second run (or worker) is told, once, that their pages are exported again."""
    seeds, _ = sites
    recipe = read_recipe(redis_server)
    project = make_project(tmp_path / "project", recipe)
    spider = project / "myproject" / "spiders" / "pages.py"
    plain = recipe.spider.replace("class PagesSpider(RedisSpider):", "class PagesSpider(scrapy.Spider):")
    spider.write_text(plain.replace('name = "pages"', f'name = "pages"\n    start_urls = {seeds[:1]!r}'))
    for name in ("run1", "run2"):
        worker = start_worker(project, recipe, name, "DOWNLOAD_DELAY=0", "DEPTH_LIMIT=1")
        assert worker.wait(timeout=600) == 0
    first, second = ((project / f"run{n}.log").read_text() for n in (1, 2))
    assert "was fetched before by another worker" not in first
    warnings = [line for line in second.splitlines() if "was fetched before by another worker" in line]
    assert len(warnings) == 1 and seeds[0] in warnings[0] and "'pages:start_urls'" in warnings[0]
    assert counted(exported(project))[seeds[0]] == 2  # what the warning says
