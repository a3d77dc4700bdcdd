"""A bad setting ends ``scrapy crawl`` with one line naming it, a non-zero exit and no traceback."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import scrapy

pytestmark = pytest.mark.slow  # scrapy runspider in a subprocess per setting

SCRAPY_VERSION = tuple(int(part) for part in scrapy.__version__.split(".")[:2])

SPIDER = """
import scrapy

class NoPages(scrapy.Spider):
    name = "no_pages"
    start_urls = []
    custom_settings = {"ADDONS": {"scrapy_boilerplate.Addon": 500}, "TELNETCONSOLE_ENABLED": False}
"""


def run_spider(tmp_path, *settings: str) -> subprocess.CompletedProcess[str]:
    spider = tmp_path / "spider.py"
    spider.write_text(SPIDER)
    args = [arg for setting in settings for arg in ("-s", setting)]
    command = [sys.executable, "-m", "scrapy", "runspider", str(spider), *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=60, cwd=tmp_path)


@pytest.mark.parametrize(
    "setting, message",
    [
        ("BOILERPLATE_SAMPLE_SIZE=0", "BOILERPLATE_SAMPLE_SIZE=0 is invalid: must be a positive integer"),
        ("BOILERPLATE_SAMPLE_SIZE=abc", "BOILERPLATE_SAMPLE_SIZE='abc' is invalid: must be a positive integer"),
        ("BOILERPLATE_MODEL=no_such_model", "BOILERPLATE_MODEL='no_such_model' is invalid: unknown model"),
        ("BOILERPLATE_MODEL=style_tree:no_such_param=1", "BOILERPLATE_MODEL='style_tree:no_such_param=1' is invalid"),
        ("BOILERPLATE_HOLD_TIMEOUT=-1", "BOILERPLATE_HOLD_TIMEOUT=-1.0 is invalid"),
    ],
)
def test_a_bad_setting_gives_one_line_and_a_non_zero_exit(tmp_path, setting, message):
    result = run_spider(tmp_path, setting)
    assert result.returncode != 0
    if SCRAPY_VERSION >= (2, 15):  # before, Twisted itself prints the start-up failure to stderr
        assert "Traceback" not in result.stderr, result.stderr[-3000:]
    errors = [line for line in result.stderr.splitlines() if "ERROR" in line or "CRITICAL" in line]
    assert len(errors) == 1 and message in errors[0], result.stderr[-3000:]


def write_project(root: Path) -> None:
    """A Scrapy project as ``scrapy startproject`` lays it out, with the spider above and the add-on."""
    (root / "scrapy.cfg").write_text("[settings]\ndefault = badproject.settings\n")
    package = root / "badproject"
    (package / "spiders").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "settings.py").write_text('SPIDER_MODULES = ["badproject.spiders"]\n')
    (package / "spiders" / "__init__.py").write_text("")
    (package / "spiders" / "no_pages.py").write_text(SPIDER)


def test_scrapy_crawl_in_a_project_exits_with_status_1_on_a_bad_setting(tmp_path):
    write_project(tmp_path)
    command = [sys.executable, "-m", "scrapy", "crawl", "no_pages", "-s", "BOILERPLATE_SAMPLE_SIZE=0"]
    env = {key: value for key, value in os.environ.items() if key != "SCRAPY_SETTINGS_MODULE"}
    result = subprocess.run(command, capture_output=True, text=True, timeout=60, cwd=tmp_path, env=env)
    assert result.returncode == 1, result.stderr[-3000:]
    errors = [line for line in result.stderr.splitlines() if "ERROR" in line or "CRITICAL" in line]
    assert len(errors) == 1 and "BOILERPLATE_SAMPLE_SIZE=0 is invalid" in errors[0], result.stderr[-3000:]
