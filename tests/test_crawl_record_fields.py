"""A crawl writes the Markdown, title, author, date, language and page type to its feed."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.crawl_harness import run_crawl
from helpers.harbour_site import TOPICS, article_page

from scrapy_boilerplate.crawl import stats as keys
from scrapy_boilerplate.testing.localsite import serve_directory

pytestmark = pytest.mark.slow  # a real crawl in its own process

FIELDS = {
    "BOILERPLATE_MARKDOWN_FIELD": "markdown",
    "BOILERPLATE_TITLE_FIELD": "title",
    "BOILERPLATE_AUTHOR_FIELD": "author",
    "BOILERPLATE_PUBLISHED_FIELD": "published",
    "BOILERPLATE_LANGUAGE_FIELD": "language",
    "BOILERPLATE_PAGE_TYPE_FIELD": "kind",  # any field name: here not the default's
}


def _write_site(root: Path) -> None:
    articles = root / "article"
    articles.mkdir(parents=True)
    for number, topic in enumerate(TOPICS):
        jsonld = {
            "@type": "NewsArticle",
            "headline": f"Notes on {topic}",
            "author": {"@type": "Person", "name": "Ana Pereira"},
            "datePublished": f"1998-05-{10 + number:02d}T08:00:00+01:00",
        }
        (articles / f"{number}.html").write_text(article_page(number, jsonld).html, encoding="utf-8")
    links = "".join(f'<li><a href="/article/{number}.html">{topic}</a></li>' for number, topic in enumerate(TOPICS))
    (articles / "index.html").write_text(f"<html><body><h1>Harbour notes</h1><ul>{links}</ul></body></html>")


def test_a_crawl_writes_the_fields_to_a_json_lines_feed(tmp_path):
    _write_site(tmp_path / "site")
    with serve_directory(tmp_path / "site") as base:
        result = run_crawl(
            tmp_path / "out",
            [base + "/article/index.html"],
            settings={"BOILERPLATE_SAMPLE_SIZE": 3, **FIELDS},
        )
    assert result.returncode == 0, result.log[-2000:]
    items = {item["url"].rsplit("/", 1)[1]: item for item in result.items}
    assert len(items) == len(TOPICS) + 1
    item = items["4.html"]
    assert (item["title"], item["author"], item["published"], item["language"]) == (
        "Notes on net mending",
        "Ana Pereira",
        "1998-05-14",
        "en-GB",
    )
    assert item["kind"] == "article" and "page_type" not in item
    assert "## Steps taken for net mending" in item["markdown"]
    assert "| Labour for net mending | 104 pounds |" in item["markdown"]
    assert "Gull census" not in item["markdown"]  # the sidebar stays out of the Markdown as of the text
    index = items["index.html"]
    assert index["published"] is None and index["author"] is None  # a page that states neither
    assert result.stats[keys.FIELDS.format(field="published", outcome="written")] == len(TOPICS)
    assert result.stats[keys.FIELDS.format(field="published", outcome="empty")] == 1
    assert result.stats[keys.FIELDS.format(field="page_type", outcome="written")] == len(TOPICS) + 1
    assert result.stats[keys.PAGE_TYPES.format(type="article")] == len(TOPICS)


def test_a_markdown_field_without_its_extra_is_a_bad_setting(monkeypatch):
    from scrapy.settings import Settings

    from scrapy_boilerplate import markdown
    from scrapy_boilerplate.crawl.config import BoilerplateConfig
    from scrapy_boilerplate.crawl.errors import BadSettingError

    monkeypatch.setattr(markdown, "markdown_available", lambda: False)
    with pytest.raises(BadSettingError, match="BOILERPLATE_MARKDOWN_FIELD.*markdown extra"):
        BoilerplateConfig.from_settings(Settings({"BOILERPLATE_MARKDOWN_FIELD": "markdown"}))
    config = BoilerplateConfig.from_settings(Settings({"BOILERPLATE_TITLE_FIELD": "headline"}))
    assert config.record_fields == (("title", "headline"),) and "headline" in config.output_fields
