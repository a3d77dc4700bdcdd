"""``inspect --from-crawl``: the report for a live crawl's URL, with the model the crawl stored."""

from __future__ import annotations

import http.server
import json
import threading
from pathlib import Path

import pytest

from scrapy_boilerplate.cli import main
from scrapy_boilerplate.inspection.stored import StoredModelNotFound, stored_model_path
from scrapy_boilerplate.models import create_model, dump_model, save_model
from scrapy_boilerplate.page import Page
from scrapy_boilerplate.testing.synthetic import make_site

SITE = make_site("news.example", 6, seed=1)


def _store(root: Path, spider: str, domain: str) -> Path:
    path = root / spider / f"{domain}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    save_model(create_model("pvalue", variant="paper").fit([Page(p.html, p.url) for p in SITE]), path)
    return path


def test_lookup_by_domain_spider_and_www(tmp_path: Path):
    saved = _store(tmp_path, "news", "news.example")
    assert stored_model_path(tmp_path, "https://news.example/a/b?c=1") == saved
    assert stored_model_path(tmp_path, "http://www.news.example:8080/x", "news") == saved
    with pytest.raises(StoredModelNotFound, match="no stored model for other.example"):
        stored_model_path(tmp_path, "http://other.example/")
    other = _store(tmp_path, "archive", "news.example")
    with pytest.raises(StoredModelNotFound, match="several spiders"):
        stored_model_path(tmp_path, "http://news.example/")
    assert stored_model_path(tmp_path, "http://news.example/", "archive") == other


def test_from_crawl_with_a_saved_copy_uses_the_stored_model(tmp_path: Path, capsys):
    store = tmp_path / "store"
    saved = _store(store, "news", "news.example")
    copy = tmp_path / "page.html"
    copy.write_text(SITE[3].html, encoding="utf-8")
    out = tmp_path / "r.html"
    url = SITE[3].url
    assert main(["inspect", "--from-crawl", url, "--store", str(store), str(copy), "-o", str(out)]) == 0
    report = out.read_text(encoding="utf-8")
    assert f"pvalue (stored in {saved})" in report
    assert "Stored model (its sample size is not recorded)" in report
    assert url in report and SITE[3].title in report
    assert (
        main(["inspect", "--from-crawl", "http://unknown.example/", "--store", str(store), str(copy), "-o", str(out)])
        == 2
    )
    assert "no stored model for unknown.example" in capsys.readouterr().err
    saved.write_text("{not a model", encoding="utf-8")
    assert main(["inspect", "--from-crawl", url, "--store", str(store), str(copy), "-o", str(out)]) == 2
    assert "not a model file" in capsys.readouterr().err


def test_from_crawl_reads_a_store_record_with_its_metadata(tmp_path: Path):
    store = tmp_path / "store"
    (store / "news").mkdir(parents=True)
    model = json.loads(dump_model(create_model("pvalue").fit([])))
    record = {
        "format": "scrapy-boilerplate/stored-model",
        "version": 1,
        "meta": {"pages": 17, "model": "pvalue"},
        "model": model,
    }
    (store / "news" / "news.example:8080.json").write_text(json.dumps(record), encoding="utf-8")
    copy = tmp_path / "page.html"
    copy.write_text(SITE[1].html, encoding="utf-8")
    out = tmp_path / "r.html"
    url = "http://news.example:8080/article/1.html"
    assert main(["inspect", "--from-crawl", url, "--store", str(store), str(copy), "-o", str(out)]) == 0
    assert "Stored model, fitted on 17 pages" in out.read_text(encoding="utf-8")
    record["model"]["version"] = 999
    (store / "news" / "news.example:8080.json").write_text(json.dumps(record), encoding="utf-8")
    assert main(["inspect", "--from-crawl", url, "--store", str(store), str(copy), "-o", str(out)]) == 2


class _OnePage(http.server.BaseHTTPRequestHandler):
    body = SITE[2].html.encode("utf-8")

    def do_GET(self) -> None:  # http.server's name
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(self.body)))
        self.end_headers()
        self.wfile.write(self.body)

    def log_message(self, *args) -> None:
        """Keep the test output quiet."""


def test_from_crawl_without_a_copy_fetches_the_url(tmp_path: Path):
    server = http.server.HTTPServer(("127.0.0.1", 0), _OnePage)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/article/2.html"
        store = tmp_path / "store"
        _store(store, "news", "127.0.0.1")
        out = tmp_path / "r.html"
        assert main(["inspect", "--from-crawl", url, "--store", str(store), "-o", str(out)]) == 0
    finally:
        server.shutdown()
        server.server_close()
    assert SITE[2].title in out.read_text(encoding="utf-8")


def _fitted_record(spider: str, domain: str, pages: int):
    from scrapy_boilerplate.drift import fit_baseline
    from scrapy_boilerplate.store import StoredModel

    sample = [Page(p.html, p.url) for p in SITE[:pages]]
    model = create_model("pvalue").fit(sample)
    return StoredModel.new(spider, domain, model, pages, fit_baseline(model, sample))


def test_from_crawl_reads_a_redis_store_as_models_does(tmp_path: Path, redis_url, capsys):
    import uuid

    from scrapy_boilerplate.store import open_store

    prefix = f"test-{uuid.uuid4().hex}"
    store = open_store(redis_url, prefix=prefix)
    try:
        store.put(_fitted_record("news", "news.example", 5))
        copy, out = tmp_path / "page.html", tmp_path / "r.html"
        copy.write_text(SITE[3].html, encoding="utf-8")
        command = ["inspect", "--from-crawl", SITE[3].url, "--store", redis_url, "--prefix", prefix, str(copy)]
        assert main([*command, "-o", str(out)]) == 0, capsys.readouterr().err
        report = out.read_text(encoding="utf-8")
        assert f"pvalue (stored in {redis_url}, news/news.example)" in report
        assert "Stored model, fitted on 5 pages" in report
        assert (
            main(
                [
                    "inspect",
                    "--from-crawl",
                    "http://other.example/",
                    "--store",
                    redis_url,
                    "--prefix",
                    prefix,
                    str(copy),
                    "-o",
                    str(out),
                ]
            )
            == 2
        )
        assert f"no stored model for other.example in {redis_url}" in capsys.readouterr().err
    finally:
        for name in store.client.scan_iter(f"{prefix}:*"):
            store.client.delete(name)
        store.close()


def test_from_crawl_without_store_uses_the_scrapy_projects_store(tmp_path: Path, monkeypatch, capsys):
    from scrapy_boilerplate.store import DirectoryStore

    project = tmp_path / "project"
    (project / "inspectproject").mkdir(parents=True)  # a module name no other test imports
    (project / "scrapy.cfg").write_text("[settings]\ndefault = inspectproject.settings\n")
    (project / "inspectproject" / "__init__.py").write_text("")
    (project / "inspectproject" / "settings.py").write_text("")  # BOILERPLATE_STORE unset: .scrapy/boilerplate
    monkeypatch.chdir(project)
    monkeypatch.syspath_prepend(str(project))
    monkeypatch.setenv("SCRAPY_SETTINGS_MODULE", "inspectproject.settings")
    copy, out = tmp_path / "page.html", tmp_path / "r.html"
    copy.write_text(SITE[2].html, encoding="utf-8")
    assert main(["inspect", "--from-crawl", SITE[2].url, str(copy), "-o", str(out)]) == 2
    assert "no model store at" in capsys.readouterr().err  # no crawl stored anything yet
    DirectoryStore(project / ".scrapy" / "boilerplate").put(_fitted_record("news", "news.example", 4))
    assert main(["inspect", "--from-crawl", SITE[2].url, str(copy), "-o", str(out)]) == 0
    assert "Stored model, fitted on 4 pages" in out.read_text(encoding="utf-8")
