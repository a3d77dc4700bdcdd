"""The documented settings and stats keys are exactly the ones the code has, wherever the docs name them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from scrapy_boilerplate.crawl import stats as keys
from scrapy_boilerplate.crawl.config import DONT_CLEAN_META, SETTINGS

ROOT = Path(__file__).resolve().parent.parent
SETTINGS_DOC = ROOT / "docs" / "settings.md"
STATS_DOC = ROOT / "docs" / "stats.md"
USER_DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), ROOT / "example_project" / "README.md"]
SETTING_ROW = re.compile(r"^\| `(BOILERPLATE_[A-Z_]+)` \| `(.*?)` \|", re.MULTILINE)
SETTING_NAME = re.compile(r"\bBOILERPLATE_[A-Z_]*[A-Z]\b")
STATS_ROW = re.compile(r"^\| `(boilerplate/[^`]+)` \|", re.MULTILINE)
STATS_MENTION = re.compile(r"`(boilerplate/[^`]+)`")


def documented_default(value: object) -> str:
    return f'"{value}"' if isinstance(value, str) else repr(value)


def documented_stats_keys() -> set[str]:
    """The code's key patterns, written as the docs write them (``{reason}`` -> ``<reason>``)."""
    return {re.sub(r"\{(\w+)\}", r"<\1>", key) for key in keys.ALL_KEYS}


def test_every_setting_is_documented_with_its_default():
    documented = dict(SETTING_ROW.findall(SETTINGS_DOC.read_text(encoding="utf-8")))
    assert documented == {name: documented_default(doc.default) for name, doc in SETTINGS.items()}


def test_every_stats_key_is_documented():
    assert set(STATS_ROW.findall(STATS_DOC.read_text(encoding="utf-8"))) == documented_stats_keys()


def test_the_readme_links_the_settings_and_stats_pages():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "docs/settings.md" in readme
    assert "docs/stats.md" in readme


@pytest.mark.parametrize("doc", USER_DOCS, ids=lambda path: str(path.relative_to(ROOT)))
def test_every_setting_named_in_the_docs_exists_with_the_default_they_give(doc):
    text = doc.read_text(encoding="utf-8")
    assert set(SETTING_NAME.findall(text)) <= set(SETTINGS)
    for name, default in SETTING_ROW.findall(text):
        assert default == documented_default(SETTINGS[name].default), name


@pytest.mark.parametrize("doc", USER_DOCS, ids=lambda path: str(path.relative_to(ROOT)))
def test_every_stats_key_named_in_the_docs_exists(doc):
    patterns = [
        re.compile(re.sub(r"\\<\w+\\>|<\w+>", "[^`/]+", re.escape(key)) + "$") for key in documented_stats_keys()
    ]
    for mention in STATS_MENTION.findall(doc.read_text(encoding="utf-8")):
        assert any(pattern.match(mention) for pattern in patterns), mention


def test_the_opt_out_meta_key_is_documented():
    assert f'"{DONT_CLEAN_META}": True' in (ROOT / "docs" / "crawl.md").read_text(encoding="utf-8")
