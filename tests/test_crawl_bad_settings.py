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
        (
            "BOILERPLATE_MODEL=block_dup:treshold=0.9",
            "unknown parameter 'treshold' (did you mean 'threshold'?); its parameters are variant, threshold, "
            "near_duplicates",
        ),
    ],
)
def test_a_bad_setting_gives_one_line_and_a_non_zero_exit(tmp_path, setting, message):
    result = run_spider(tmp_path, setting)
    assert result.returncode != 0
    if SCRAPY_VERSION >= (2, 15):  # before, Twisted itself prints the start-up failure to stderr
        assert "Traceback" not in result.stderr, result.stderr[-3000:]
    errors = [line for line in result.stderr.splitlines() if "ERROR" in line or "CRITICAL" in line]
    assert len(errors) == 1 and message in errors[0], result.stderr[-3000:]


def boilerplate_lines(output: str, level: str) -> list[str]:
    return [line for line in output.splitlines() if f"] {level}: " in line and "boilerplate" in line]


def test_a_misspelt_setting_name_gets_one_warning_naming_the_setting_meant(tmp_path):
    result = run_spider(tmp_path, "BOILERPLATE_SAMPEL_SIZE=5", "BOILERPLATE_HOLD_TIMOUT=9")
    assert result.returncode == 0, result.stderr[-3000:]
    warnings = boilerplate_lines(result.stderr, "WARNING")
    assert len(warnings) == 2, warnings
    assert "unknown setting BOILERPLATE_HOLD_TIMOUT is ignored; did you mean BOILERPLATE_HOLD_TIMEOUT?" in warnings[0]
    assert "unknown setting BOILERPLATE_SAMPEL_SIZE is ignored; did you mean BOILERPLATE_SAMPLE_SIZE?" in warnings[1]


def unusable_stores(tmp_path) -> dict[str, str]:
    """A Redis URL where nothing listens, and a directory that cannot be made (under a file)."""
    import socket

    with socket.socket() as probe:  # a port nothing listens on once the probe is closed
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    (tmp_path / "a_file").write_text("")
    return {"redis": f"redis://127.0.0.1:{port}/0", "directory": str(tmp_path / "a_file" / "models")}


@pytest.mark.parametrize("kind", ["redis", "directory"])
def test_an_unusable_store_at_start_is_one_warning_that_models_will_not_be_stored(tmp_path, kind):
    pytest.importorskip("redis", reason="redis-py is not installed (pip install 'scrapy-boilerplate-learner[redis]')")
    store = unusable_stores(tmp_path)[kind]
    result = run_spider(tmp_path, f"BOILERPLATE_STORE={store}")
    assert result.returncode == 0, result.stderr[-3000:]
    (warning,) = boilerplate_lines(result.stderr, "WARNING")
    assert f"model store {store} cannot be used" in warning and "will not be stored" in warning
    assert "persist in" not in result.stderr  # no line claims the models are kept
    assert "'boilerplate/store/errors': 1" in result.stderr


@pytest.mark.parametrize("kind", ["redis", "directory"])
def test_an_unusable_store_stops_the_crawl_when_it_is_required(tmp_path, kind):
    pytest.importorskip("redis", reason="redis-py is not installed (pip install 'scrapy-boilerplate-learner[redis]')")
    store = unusable_stores(tmp_path)[kind]
    result = run_spider(tmp_path, f"BOILERPLATE_STORE={store}", "BOILERPLATE_STORE_REQUIRED=True")
    assert result.returncode == 1
    if SCRAPY_VERSION >= (2, 15):
        assert "Traceback" not in result.stderr, result.stderr[-3000:]
    errors = [line for line in result.stderr.splitlines() if "ERROR" in line or "CRITICAL" in line]
    assert len(errors) == 1, result.stderr[-3000:]
    assert f"model store {store} cannot be used" in errors[0] and "BOILERPLATE_STORE_REQUIRED is True" in errors[0]


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
