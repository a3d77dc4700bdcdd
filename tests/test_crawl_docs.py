"""The documented settings and stats keys are exactly the ones the code has."""

from __future__ import annotations

import re
from pathlib import Path

from scrapy_boilerplate.crawl import stats as keys
from scrapy_boilerplate.crawl.config import DONT_CLEAN_META, SETTINGS

ROOT = Path(__file__).resolve().parent.parent
SETTING_ROW = re.compile(r"^\| `(BOILERPLATE_[A-Z_]+)` \| `(.*?)` \|", re.MULTILINE)
STATS_ROW = re.compile(r"^\| `(boilerplate/[^`]+)` \|", re.MULTILINE)


def reference_doc() -> str:
    """README.md once it carries the settings table, else docs/crawl.md."""
    readme = ROOT / "README.md"
    if readme.exists() and SETTING_ROW.search(readme.read_text(encoding="utf-8")):
        return readme.read_text(encoding="utf-8")
    return (ROOT / "docs" / "crawl.md").read_text(encoding="utf-8")


def documented_default(value: object) -> str:
    return f'"{value}"' if isinstance(value, str) else repr(value)


def test_every_setting_is_documented_with_its_default():
    documented = dict(SETTING_ROW.findall(reference_doc()))
    assert documented == {name: documented_default(doc.default) for name, doc in SETTINGS.items()}


def test_every_stats_key_is_documented():
    documented = set(STATS_ROW.findall(reference_doc()))
    in_code = {re.sub(r"\{(\w+)\}", r"<\1>", key) for key in keys.ALL_KEYS}
    assert documented == in_code


def test_the_opt_out_meta_key_is_documented():
    assert f'"{DONT_CLEAN_META}": True' in reference_doc()
