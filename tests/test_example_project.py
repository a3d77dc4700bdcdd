"""The example project and its demo work as the docs say, on the bundled corpus."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from parsel import Selector

from scrapy_boilerplate.evaluation.metric import mean_score, score_text

EXAMPLE = Path(__file__).resolve().parent.parent / "example_project"
CORPUS = EXAMPLE / "demo" / "corpus"


def test_bundled_corpus_is_what_the_generator_writes(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(EXAMPLE))
    from make_corpus import CORPUS, make_corpus

    sites = make_corpus(tmp_path)
    for site, n_pages in sites.items():
        generated = sorted(p.relative_to(tmp_path) for p in (tmp_path / site).rglob("*.*"))
        assert generated == sorted(p.relative_to(CORPUS) for p in (CORPUS / site).rglob("*.*"))
        assert len(generated) == 2 * n_pages
        for name in ("article/0.html", f"article/{n_pages - 1}.txt"):
            assert (tmp_path / site / name).read_text() == (CORPUS / site / name).read_text()


@pytest.mark.slow
def test_demo_crawls_the_corpus_and_its_cleaned_text_scores_f1_of_at_least_095(tmp_path):
    proc = subprocess.run(
        [sys.executable, str(EXAMPLE / "demo.py"), "--out", str(tmp_path / "items.jsonl")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "pages crawled     78 from 3 sites" in proc.stdout
    assert "models fitted     2" in proc.stdout
    assert "tiny-press.example: fusion (single page)" in proc.stdout
    cleaned, raw = map(
        float, re.search(r"token F1 cleaned  ([\d.]+)   \(whole page text: ([\d.]+)\)", proc.stdout).groups()
    )
    items = [json.loads(line) for line in (tmp_path / "items.jsonl").read_text().splitlines()]
    assert len(items) == 78
    # scored here from the feed against the corpus's gold text (each page's title, which names its site, is unique)
    gold = {
        Selector(text=page.read_text()).css("title::text").get(): page.with_suffix(".txt").read_text()
        for page in CORPUS.rglob("*.html")
    }
    assert len(gold) == 78
    f1 = mean_score(score_text(item["text"], gold[item["title"]]) for item in items).f1
    assert f1 >= 0.95 and f"{f1:.3f}" == f"{cleaned:.3f}"  # what the demo prints
    assert raw < 0.95


def test_example_spider_yields_items_without_the_page_and_passes_over_binary_ones(monkeypatch):
    from scrapy.http import HtmlResponse, Response

    monkeypatch.syspath_prepend(str(EXAMPLE))
    from demo_project.spiders.articles import ArticlesSpider

    spider = ArticlesSpider(seeds="http://site.example/")
    page = HtmlResponse(
        "http://site.example/",
        body=b'<html><head><title>Home</title></head><body><a href="/article/1">One</a></body></html>',
        encoding="utf-8",
    )
    item, request = list(spider.parse(page))
    assert item == {"url": "http://site.example/", "title": "Home"}  # the plugin cleans it from its response
    assert request.url == "http://site.example/article/1"
    pdf = Response("http://site.example/article/2.pdf", body=b"%PDF-1.7 \x00\x01")
    assert list(spider.parse(pdf)) == []
