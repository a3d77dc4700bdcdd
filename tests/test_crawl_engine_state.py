"""The engine reads of crawl/engine_state.py (Scrapy private state) hold on the installed Scrapy.

CI runs this on the newest Scrapy and on the oldest one the package accepts.  A real crawl of one
page whose item waits in a pipeline until ``only_pipeline_items_left`` says only it is left; if the
read broke, the item would wait forever and the crawl would time out.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from scrapy_boilerplate.testing.localsite import serve_directory

pytestmark = pytest.mark.slow  # a real crawl in a subprocess

SCRIPT = r"""
import json, sys
import scrapy
from scrapy import signals
from scrapy.crawler import CrawlerProcess
from twisted.internet.defer import Deferred
from twisted.internet.task import LoopingCall
from scrapy.utils.defer import maybe_deferred_to_future

from scrapy_boilerplate.crawl.engine_state import only_pipeline_items_left, spider_closing

seen = {"busy_while_downloading": None, "quiet": False, "closing_while_quiet": None, "closing_at_close": None}


class WaitingPipeline:
    @classmethod
    def from_crawler(cls, crawler):
        pipeline = cls()
        pipeline.crawler = crawler
        crawler.signals.connect(pipeline.closed, signal=signals.spider_closed)
        return pipeline

    async def process_item(self, item, spider=None):
        released = Deferred()

        def look():
            if only_pipeline_items_left(self.crawler, 1):
                seen["quiet"] = True
                seen["closing_while_quiet"] = spider_closing(self.crawler)
                loop.stop()
                released.callback(None)

        loop = LoopingCall(look)
        loop.start(0.05)
        await maybe_deferred_to_future(released)
        return item

    def closed(self, spider):
        seen["closing_at_close"] = spider_closing(self.crawler)


class Watching:
    @classmethod
    def from_crawler(cls, crawler):
        watching = cls()
        watching.crawler = crawler
        return watching

    def process_request(self, request, spider=None):
        seen["busy_while_downloading"] = not only_pipeline_items_left(self.crawler, 0)


class OnePage(scrapy.Spider):
    name = "one"
    start_urls = [sys.argv[1]]

    def parse(self, response):
        yield {"url": response.url}


process = CrawlerProcess(
    {
        "ITEM_PIPELINES": {WaitingPipeline: 100},
        "DOWNLOADER_MIDDLEWARES": {Watching: 500},
        "LOG_LEVEL": "ERROR",
        "TELNETCONSOLE_ENABLED": False,
    }
)
process.crawl(OnePage)
process.start()
print(json.dumps(seen))
"""


def test_the_engine_reads_see_a_waiting_item_and_the_close(tmp_path):
    (tmp_path / "index.html").write_text("<html><body><p>one page</p></body></html>")
    with serve_directory(tmp_path) as base:
        proc = subprocess.run(
            [sys.executable, "-c", SCRIPT, base + "/index.html"], capture_output=True, text=True, timeout=60
        )
    assert proc.returncode == 0, proc.stderr[-3000:]
    seen = json.loads(proc.stdout.strip().splitlines()[-1])
    assert seen == {
        "busy_while_downloading": True,
        "quiet": True,
        "closing_while_quiet": False,
        "closing_at_close": True,
    }
