"""``extract --format text|markdown|json``: one file per page, each the form a user asked for."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers.harbour_site import TOPICS, article_page

from scrapy_boilerplate import markdown
from scrapy_boilerplate.cli import main


def _jsonld(number: int) -> dict:
    return {
        "@type": "BlogPosting",
        "headline": f"Notes on {TOPICS[number]}",
        "author": {"@type": "Person", "name": "Ana Pereira"},
        "datePublished": f"2024-05-{10 + number:02d}",
    }


@pytest.fixture
def site_dir(tmp_path: Path) -> Path:
    site = tmp_path / "in" / "harbour.example"
    site.mkdir(parents=True)
    for number in range(len(TOPICS)):
        (site / f"{number:02d}.html").write_text(article_page(number, _jsonld(number)).html, encoding="utf-8")
    (site / "99.html").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 10)  # no page
    return tmp_path / "in"


def _extract(site_dir: Path, out: Path, output_format: str) -> Path:
    assert main(["extract", "-q", "--format", output_format, str(site_dir), str(out)]) == 0
    return out / "harbour.example"


def test_markdown_renders_the_table_and_the_code_block(site_dir, tmp_path, capsys):
    out = _extract(site_dir, tmp_path / "md", "markdown")
    text = (out / "05.md").read_text(encoding="utf-8")
    assert "| Labour for pier lights | 105 pounds |\n| --- | --- |\n| Materials for pier lights | 205 pounds |" in text
    assert '```\nschedule --topic "pier lights" --week 5\n```' in text
    assert "## Steps taken for pier lights" in text and "\n- Order the parts for pier lights\n" in text
    assert "> The pier lights work is done, said the *harbour master* in [a statement](/people/5)." in text
    assert "Gull census" not in text and "Copyright" not in text  # the sidebar and footer stay out
    assert (out / "99.md").read_text() == "" and not list(out.glob("*.txt"))


def test_json_holds_the_text_the_markdown_the_metadata_and_the_model(site_dir, tmp_path, capsys):
    texts = _extract(site_dir, tmp_path / "txt", "text")
    out = _extract(site_dir, tmp_path / "json", "json")
    record = json.loads((out / "03.json").read_text(encoding="utf-8"))
    assert list(record) == [
        "url",
        "text",
        "markdown",
        "title",
        "author",
        "published",
        "language",
        "page_type",
        "model",
    ]
    assert record["text"] == (texts / "03.txt").read_text(encoding="utf-8")
    assert record["markdown"] == (_extract(site_dir, tmp_path / "md", "markdown") / "03.md").read_text()
    assert record["url"].startswith("file://") and record["url"].endswith("/harbour.example/03.html")
    assert (record["title"], record["author"], record["published"], record["language"]) == (
        "Notes on lighthouse repairs",
        "Ana Pereira",
        "2024-05-13",
        "en-GB",
    )
    assert record["model"] == "fusion" and record["page_type"] == "article"
    failed = json.loads((out / "99.json").read_text(encoding="utf-8"))
    assert failed["text"] == "" and failed["title"] is None and failed["url"].endswith("99.html")


def test_markdown_without_its_extra_is_one_clear_line(site_dir, tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(markdown, "markdown_available", lambda: False)
    assert main(["extract", "--format", "json", str(site_dir), str(tmp_path / "o")]) == 2
    assert capsys.readouterr().err.strip() == f"extract: --format json: {markdown.INSTALL_HINT}"
    assert not (tmp_path / "o").exists()


def test_a_page_the_converter_or_the_metadata_reader_fails_on_keeps_its_text(site_dir, tmp_path, caplog, monkeypatch):
    from scrapy_boilerplate import records

    def failing_on_pier_lights(convert, html):
        if "pier lights" in html:
            raise ValueError("converter failure")
        return convert(html)

    def failing_metadata(page, names):
        raise RecursionError("metadata failure")

    monkeypatch.setattr(
        records, "to_markdown", lambda html, convert=records.to_markdown: failing_on_pier_lights(convert, html)
    )
    monkeypatch.setattr(records, "read_metadata", failing_metadata)
    out = _extract(site_dir, tmp_path / "json", "json")
    failed = json.loads((out / "05.json").read_text(encoding="utf-8"))
    assert failed["markdown"] is None and "pier lights" in failed["text"] and failed["title"] is None
    assert json.loads((out / "04.json").read_text(encoding="utf-8"))["markdown"].startswith("# Notes on net mending")
    warnings = [r.getMessage() for r in caplog.records if r.name == "scrapy_boilerplate.records"]
    assert sum("could not convert" in w and "05.html" in w for w in warnings) == 1
    assert sum("could not read the metadata" in w for w in warnings) == len(TOPICS) + 1  # the failed page too
