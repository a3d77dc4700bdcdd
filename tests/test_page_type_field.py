"""Items and records get the page's type: in the field the setting names, or not at all when it is unset."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers.typed_pages import BUILDERS
from itemadapter import ItemAdapter
from scrapy.settings import Settings
from scrapy.statscollectors import MemoryStatsCollector
from scrapy.utils.test import get_crawler

from scrapy_boilerplate.cli import main
from scrapy_boilerplate.crawl import stats as keys
from scrapy_boilerplate.crawl.config import BoilerplateConfig
from scrapy_boilerplate.crawl.fallback import FallbackReport
from scrapy_boilerplate.crawl.finishing import CleanFinisher
from scrapy_boilerplate.crawl.writing import ItemWriter
from scrapy_boilerplate.models import create_model
from scrapy_boilerplate.page import Page
from scrapy_boilerplate.pagetype import tell_page_type


def _write(settings: dict, label: str) -> tuple[dict, MemoryStatsCollector]:
    """One item of a ``label`` page written as a crawl writes it, with ``settings``."""
    config = BoilerplateConfig.from_settings(Settings(settings))
    stats = MemoryStatsCollector(get_crawler())
    url, html = BUILDERS[label]("typed.example", 2)
    cleaned = CleanFinisher(config.record_names).clean(create_model("fusion").fit([]), Page(html, url))
    item = {"url": url, "html": html}
    writer = ItemWriter(config, stats, FallbackReport(stats, "fusion"))
    writer.write(ItemAdapter(item), "typed.example", cleaned)
    return item, stats


@pytest.mark.parametrize("label", ["forum", "listing", "documentation"])
def test_the_field_the_setting_names_gets_the_page_s_type_and_it_is_counted(label):
    item, stats = _write({"BOILERPLATE_PAGE_TYPE_FIELD": "kind"}, label)
    assert item["kind"] == label and "page_type" not in item
    assert stats.get_value(keys.PAGE_TYPES.format(type=label)) == 1
    assert stats.get_value(keys.FIELDS.format(field="page_type", outcome="written")) == 1


def test_without_the_setting_items_get_no_page_type():
    item, stats = _write({}, "forum")
    assert set(item) == {"url", "html", "text", "boilerplate_model"}
    assert not any(key.startswith("boilerplate/page_types/") for key in stats.get_stats())


def test_a_page_whose_type_cannot_be_told_gets_none_and_a_warning(monkeypatch, caplog):
    from scrapy_boilerplate.pagetype import classify

    def broken(self, page):
        raise RuntimeError("odd page")

    monkeypatch.setattr(classify.PageTypeClassifier, "classify", broken)
    url, html = BUILDERS["article"]("typed.example", 1)
    assert tell_page_type(Page(html, url)) is None
    assert "could not tell the type of https://typed.example/" in caplog.text


def test_extract_writes_each_page_s_type_into_its_record(tmp_path: Path):
    site = tmp_path / "in" / "typed.example"
    site.mkdir(parents=True)
    for label in ("article", "product", "service"):
        url, html = BUILDERS[label]("typed.example", 4)
        # a saved page: its address is the one it declares
        (site / f"{label}.html").write_text(html.replace("<head>", f'<head><link rel="canonical" href="{url}">'))
    assert main(["extract", "-q", "--format", "json", str(tmp_path / "in"), str(tmp_path / "out")]) == 0
    for label in ("article", "product", "service"):
        record = json.loads((tmp_path / "out" / "typed.example" / f"{label}.json").read_text(encoding="utf-8"))
        assert record["page_type"] == label


def test_the_inspect_report_names_the_page_s_type_and_why():
    import lxml.html

    from scrapy_boilerplate.html import normalize_space
    from scrapy_boilerplate.inspection import build_report, summarize_site

    url, html = BUILDERS["documentation"]("typed.example", 3)
    page = Page(html, url)
    cleaned = create_model("fusion").fit([]).clean(page)
    report = build_report(page, cleaned, summarize_site("fusion", 0, [(page, cleaned)]))
    line = normalize_space(lxml.html.fromstring(report).find(".//header//p[@class='page-type line']").text_content())
    assert line.startswith("Page type: documentation (")
    assert "why: evidence:" in line and "path:docs" in line  # a reason, with the words behind it
