"""``scrapy-boilerplate models``: list, show, delete, export and import, as a user runs them."""

from __future__ import annotations

import json
import uuid
from pathlib import Path

import pytest
from helpers.model_outputs import assert_same_outputs

from scrapy_boilerplate import Page, create_model
from scrapy_boilerplate.cli import main
from scrapy_boilerplate.drift import fit_baseline
from scrapy_boilerplate.models.base import SiteModel
from scrapy_boilerplate.store import DirectoryStore, StoredModel, open_store
from scrapy_boilerplate.testing.synthetic import make_site

# (spider, domain): (model, sample pages)
MODELS = {
    ("news", "a.example"): ("fusion", 5),
    ("news", "b.example"): ("style_tree", 7),
    ("blog", "c.example"): ("pvalue", 3),
}


@pytest.fixture
def fitted() -> dict[tuple[str, str], tuple[SiteModel, list[Page]]]:
    """Each of MODELS fitted on its sample, with the sample's pages and three more of its site."""
    found = {}
    for (spider, domain), (name, n) in MODELS.items():
        pages = [Page(s.html, s.url) for s in make_site(domain, n + 3, seed=len(domain))]
        found[spider, domain] = create_model(name).fit(pages[:n]), pages
    return found


@pytest.fixture
def models_dir(tmp_path: Path, fitted) -> Path:
    store = DirectoryStore(tmp_path / "models")
    for (spider, domain), (model, pages) in fitted.items():
        n = MODELS[spider, domain][1]
        store.put(StoredModel.new(spider, domain, model, n, fit_baseline(model, pages[:n])))
    return tmp_path / "models"


def test_list_prints_domain_model_pages_fitted_at_and_size(models_dir: Path, capsys):
    assert main(["models", "list", "--store", str(models_dir)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["SPIDER", "DOMAIN", "MODEL", "PAGES", "FITTED", "AT", "SIZE"]
    rows = [line.split() for line in lines[1:-1]]
    assert [(r[0], r[1], r[2], r[3]) for r in rows] == [
        ("blog", "c.example", "pvalue", "3"),
        ("news", "a.example", "fusion", "5"),
        ("news", "b.example", "style_tree", "7"),
    ]
    assert all(r[6] == "UTC" and r[-1] in {"B", "KiB"} for r in rows)
    assert lines[-1] == f"3 models in {models_dir}"
    main(["models", "list", "--store", str(models_dir), "--spider", "blog"])
    assert "c.example" in capsys.readouterr().out


def test_show_prints_metadata_as_json_and_fails_for_a_missing_model(models_dir: Path, capsys):
    assert main(["models", "show", "--store", str(models_dir), "news", "b.example"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert (shown["domain"], shown["model"], shown["pages"]) == ("b.example", "style_tree", 7)
    assert shown["params"] == create_model("style_tree").get_params()
    assert shown["baseline"]["signatures"] > 0
    assert main(["models", "show", "--store", str(models_dir), "news", "zzz.example"]) == 1
    assert "no usable model for news/zzz.example" in capsys.readouterr().err


def test_delete_removes_and_reports_what_was_missing(models_dir: Path, capsys):
    assert main(["models", "delete", "--store", str(models_dir), "news", "a.example", "q.example"]) == 1
    assert "deleted 1 models; not found: q.example" in capsys.readouterr().out
    assert [e.domain for e in DirectoryStore(models_dir).list()] == ["c.example", "b.example"]


def test_export_then_import_moves_models_to_redis_and_back(models_dir: Path, tmp_path: Path, redis_url, capsys, fitted):
    dump = tmp_path / "models.jsonl"
    assert main(["models", "export", "--store", str(models_dir), "--spider", "news", str(dump)]) == 0
    assert len(dump.read_bytes().splitlines()) == 2
    prefix = f"test-{uuid.uuid4().hex}"
    redis_store = open_store(redis_url, prefix=prefix)
    try:
        assert main(["models", "import", "--store", redis_url, "--prefix", prefix, str(dump)]) == 0
        assert [(e.domain, e.pages) for e in redis_store.list()] == [("a.example", 5), ("b.example", 7)]
        back = tmp_path / "back"
        for domain in ("a.example", "b.example"):
            out = str(tmp_path / f"{domain}.jsonl")
            export = ["models", "export", "--store", redis_url, "--prefix", prefix, "--domain", domain, out]
            assert main(export) == 0
            assert main(["models", "import", "--store", str(back), out]) == 0
            returned = DirectoryStore(back).get("news", domain)
            assert returned.entry.fitted_at == DirectoryStore(models_dir).get("news", domain).entry.fitted_at
            model, pages = fitted["news", domain]
            assert_same_outputs(returned.model, model, pages)  # as fitted, before any store saw it
    finally:
        for name in redis_store.client.scan_iter(f"{prefix}:*"):
            redis_store.client.delete(name)
        redis_store.close()


def test_import_skips_damaged_lines_and_says_so(models_dir: Path, tmp_path: Path, capsys):
    dump = tmp_path / "models.jsonl"
    main(["models", "export", "--store", str(models_dir), str(dump)])
    lines = dump.read_bytes().splitlines()
    dump.write_bytes(b"\n".join([lines[0], b'{"format": "something else"}', lines[1][:-40]]) + b"\n")
    assert main(["models", "import", "--store", str(tmp_path / "new"), str(dump)]) == 1
    captured = capsys.readouterr()
    assert "imported 1 models" in captured.out and "2 skipped" in captured.out
    assert "line 2 skipped" in captured.err and "line 3 skipped" in captured.err
    assert len(DirectoryStore(tmp_path / "new").list()) == 1


def test_a_bad_store_location_is_a_clear_error(capsys):
    assert main(["models", "list", "--store", "ftp://example.com/models"]) == 2
    assert "unsupported store" in capsys.readouterr().err


def test_without_store_the_scrapy_projects_setting_is_used(models_dir: Path, tmp_path: Path, monkeypatch, capsys):
    project = tmp_path / "project"
    (project / "myproject").mkdir(parents=True)
    (project / "scrapy.cfg").write_text("[settings]\ndefault = myproject.settings\n")
    (project / "myproject" / "__init__.py").write_text("")
    (project / "myproject" / "settings.py").write_text(f"BOILERPLATE_STORE = {str(models_dir)!r}\n")
    monkeypatch.chdir(project)
    monkeypatch.syspath_prepend(str(project))
    monkeypatch.setenv("SCRAPY_SETTINGS_MODULE", "myproject.settings")  # what scrapy.cfg names; undone after
    assert main(["models", "list"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == f"3 models in {models_dir}"


@pytest.mark.parametrize(
    "action", [["list"], ["show", "news", "a.example"], ["delete", "news", "a.example"], ["export", "-"]]
)
def test_a_missing_or_unusable_store_exits_2_with_one_line(tmp_path: Path, action, capsys):
    missing, a_file = tmp_path / "no_such_dir", tmp_path / "a_file"
    a_file.write_text("")
    for store, why in ((missing, "the directory does not exist"), (a_file, "is not a directory")):
        assert main(["models", action[0], "--store", str(store), *action[1:]]) == 2
        captured = capsys.readouterr()
        (line,) = captured.err.splitlines()
        assert line.startswith(f"models {action[0]}: ") and str(store) in line and why in line
        assert "0 models" not in captured.out
    assert not missing.exists()  # reading a store never makes one


def test_an_unreachable_redis_store_exits_2(capsys):
    pytest.importorskip("redis", reason="redis-py is not installed (pip install 'scrapy-boilerplate-learner[redis]')")
    import socket

    with socket.socket() as probe:  # a port nothing listens on once the probe is closed
        probe.bind(("127.0.0.1", 0))
        url = f"redis://127.0.0.1:{probe.getsockname()[1]}/0"
    assert main(["models", "list", "--store", url]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith("models list: ") and url in line


def fill(store: DirectoryStore, spider: str, domains: dict[str, int]) -> None:
    """A pvalue model per domain, fitted on that many pages and stored now (so later calls store later models)."""
    for domain, n in domains.items():
        pages = [Page(s.html, s.url) for s in make_site(domain, n, seed=len(domain))]
        model = create_model("pvalue").fit(pages)
        store.put(StoredModel.new(spider, domain, model, n, fit_baseline(model, pages)))


def test_import_keeps_a_stored_model_fitted_on_more_pages_or_later_unless_forced(tmp_path: Path, capsys):
    older, newer = tmp_path / "older", tmp_path / "newer"
    fill(DirectoryStore(older), "news", {"a.example": 3, "b.example": 9})
    fill(DirectoryStore(newer), "news", {"a.example": 8, "b.example": 4})  # fitted later than both
    dump = tmp_path / "older.jsonl"
    main(["models", "export", "--store", str(older), str(dump)])
    capsys.readouterr()
    assert main(["models", "import", "--store", str(newer), str(dump)]) == 1
    captured = capsys.readouterr()
    assert "imported 0 models" in captured.out and "2 kept as stored" in captured.out
    assert "the stored model of news/a.example (fitted on 8 pages at" in captured.err
    assert "news/b.example (fitted on 4 pages at" in captured.err  # fewer pages, but fitted later
    assert "--force replaces it" in captured.err
    assert [(e.domain, e.pages) for e in DirectoryStore(newer).list()] == [("a.example", 8), ("b.example", 4)]
    assert main(["models", "import", "--force", "--store", str(newer), str(dump)]) == 0
    assert [(e.domain, e.pages) for e in DirectoryStore(newer).list()] == [("a.example", 3), ("b.example", 9)]
    newest = tmp_path / "newest.jsonl"  # a model newer on both counts replaces the stored one
    fill(DirectoryStore(tmp_path / "newest"), "news", {"a.example": 12})
    main(["models", "export", "--store", str(tmp_path / "newest"), str(newest)])
    assert main(["models", "import", "--store", str(newer), str(newest)]) == 0
    assert DirectoryStore(newer).entry("news", "a.example").pages == 12
