"""Run several real crawls one after another in one fresh process: ``python -m helpers.crawl_batch SPECS.json``.

Each spec is one of :mod:`helpers.crawl_harness` (its ``out`` folder gets ``items.jsonl``,
``stats.json`` and ``crawl.log``; ``failure.txt`` when the crawl raised).  One process and one
reactor for all: Python, Scrapy and Twisted start once, which keeps real crawls cheap enough for
the quick tier.  Tests call :func:`run_crawls`.
"""

from __future__ import annotations

import json
import logging
import subprocess
import sys
import traceback
from pathlib import Path
from typing import Any

from helpers.crawl_harness import (
    CrawlResult,
    crawl_settings,
    harness_command,
    harness_env,
    read_result,
    register_test_models,
    spider_class,
    write_stats,
)

REACTOR = "twisted.internet.asyncioreactor.AsyncioSelectorReactor"


def run_crawls(folder: Path, specs: dict[str, dict[str, Any]], timeout: float = 120) -> dict[str, CrawlResult]:
    """Run each named spec (``start_urls``, ``settings`` and the rest of a crawl_harness spec) in turn
    in one subprocess; each crawl writes under ``folder/NAME``.  Returns each crawl's result by name."""
    folder.mkdir(parents=True, exist_ok=True)
    outs = {name: folder / name for name in specs}
    batch = [{**spec, "out": str(outs[name])} for name, spec in specs.items()]
    spec_path = folder / "batch.json"
    spec_path.write_text(json.dumps(batch))
    proc = subprocess.run(
        harness_command("crawl_batch", spec_path), capture_output=True, text=True, timeout=timeout, env=harness_env()
    )
    return {name: crawl_result(out, proc) for name, out in outs.items()}


def crawl_result(out: Path, proc: subprocess.CompletedProcess[str]) -> CrawlResult:
    """One crawl's result: a non-zero return code when it raised or the batch process failed."""
    failure = out / "failure.txt"
    failed = failure.exists() or proc.returncode != 0
    extra = (failure.read_text() if failure.exists() else "") + proc.stderr
    return read_result(out, 1 if failed else 0, extra)


def crawl_log_handler(out: Path, settings: dict[str, Any]) -> logging.Handler:
    """A handler writing this crawl's log lines to ``out/crawl.log`` as Scrapy formats them."""
    from scrapy.settings import Settings

    defaults = Settings(settings)
    handler = logging.FileHandler(out / "crawl.log", encoding="utf-8")
    handler.setFormatter(logging.Formatter(defaults.get("LOG_FORMAT"), defaults.get("LOG_DATEFORMAT")))
    handler.setLevel(defaults.get("LOG_LEVEL"))
    return handler


def crawl_one(runner: Any, spec: dict[str, Any]) -> Any:
    """Start one crawl (its settings as the spider's custom settings); a Deferred that fires when it ended."""
    out = Path(spec["out"])
    out.mkdir(parents=True, exist_ok=True)
    settings = crawl_settings(spec)
    handler = crawl_log_handler(out, settings)
    logging.getLogger().addHandler(handler)
    spidercls = type(spider_class(spec).__name__, (spider_class(spec),), {"custom_settings": settings})
    crawler = runner.create_crawler(spidercls)

    def finished(result: Any) -> None:
        logging.getLogger().removeHandler(handler)
        handler.close()
        if crawler.stats is not None:
            write_stats(out, crawler.stats.get_stats())
        if hasattr(result, "getTraceback"):  # a Failure: the crawl raised
            (out / "failure.txt").write_text(result.getTraceback())

    return runner.crawl(crawler, spec=spec).addBoth(finished)


def main(spec_path: str) -> None:
    from scrapy.utils.reactor import install_reactor

    install_reactor(REACTOR)
    from scrapy.crawler import CrawlerRunner
    from scrapy.settings import default_settings
    from scrapy.utils.log import configure_logging
    from twisted.internet import defer, reactor

    register_test_models()
    if hasattr(default_settings, "LOG_INSTALL_ROOT_HANDLER"):  # each crawl's handler is added in crawl_one
        configure_logging({"LOG_INSTALL_ROOT_HANDLER": False})
    else:  # Scrapy before 2.19 takes it as an argument only
        configure_logging(install_root_handler=False)
    logging.getLogger().setLevel(logging.DEBUG)  # each crawl's handler filters at its LOG_LEVEL
    specs = json.loads(Path(spec_path).read_text())
    runner = CrawlerRunner({"TWISTED_REACTOR": REACTOR})

    @defer.inlineCallbacks
    def crawl_each() -> Any:
        try:
            for spec in specs:
                yield crawl_one(runner, spec)
        except Exception:  # the batch itself failed: the crawls left say so
            traceback.print_exc()
        finally:
            reactor.stop()

    reactor.callWhenRunning(crawl_each)
    reactor.run()


if __name__ == "__main__":
    main(sys.argv[1])
