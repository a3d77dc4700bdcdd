"""Collections as the development sets lay them out: gzipped pages, manifests with page types, WCXB's metric."""

from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path

import pytest

from scrapy_boilerplate.cli import main
from scrapy_boilerplate.corpus import find_sites, gold_path, page_name
from scrapy_boilerplate.evaluation.metric import score_text, wcxb_score
from scrapy_boilerplate.models.fusion.heldout import site_key
from scrapy_boilerplate.models.fusion.training.command import fold_of


def _gzip_site(folder: Path) -> None:
    """Replace every ``*.html`` page of ``folder`` by its gzipped ``*.html.gz`` copy."""
    for page in sorted(folder.glob("*.html")):
        page.with_name(page.name + ".gz").write_bytes(gzip.compress(page.read_bytes()))
        page.unlink()


def _manifest(collection: Path, types: dict[str, str], empty: frozenset[str] = frozenset()) -> None:
    """A WCXB-style manifest giving each page (``site/page``) its type."""
    pages = [{"path": path, "page_type": kind, "gold_empty": path in empty} for path, kind in types.items()]
    (collection / "manifest.json").write_text(json.dumps({"pages": pages}), encoding="utf-8")


def test_gzipped_pages_are_read_as_pages_and_written_as_page_txt(corpus: Path, tmp_path: Path, capsys):
    plain_out, packed_out = tmp_path / "plain", tmp_path / "packed"
    assert main(["extract", "-q", "--model", "pvalue", str(corpus), str(plain_out)]) == 0
    for site in ("news.example", "blog.example"):
        _gzip_site(corpus / site)
    (corpus / "news.example" / "broken.html.gz").write_bytes(b"\x1f\x8b\x08\x00 not gzip data at all")
    assert main(["extract", "-q", "--model", "pvalue", str(corpus), str(packed_out)]) == 0
    assert "13 pages, 1 failures" in capsys.readouterr().out
    assert (packed_out / "news.example" / "broken.txt").read_text() == ""
    for text in plain_out.glob("*/*.txt"):
        assert (packed_out / text.relative_to(plain_out)).read_text() == text.read_text()


def test_a_gzipped_page_finds_its_gold_beside_it(corpus: Path):
    _gzip_site(corpus / "news.example")
    site = next(site for site in find_sites(corpus) if site.name == "news.example")
    assert [page.name for page in site.pages][:2] == ["00.html.gz", "01.html.gz"]
    assert page_name(site.pages[0]) == "00"
    assert gold_path(site.pages[0]) == corpus / "news.example" / "00.txt"


@pytest.mark.parametrize(
    ("prediction", "gold", "f1"),
    [
        ("Don't stop_now", "don t stop_now", 1.0),  # \w+ keeps the underscore, splits the apostrophe
        ("", "", 1.0),
        ("menu", "", 0.0),  # an empty gold scores 1 only for an empty output
        ("", "words here", 0.0),
        ("a a b", "a b b", 2 / 3),  # bags: two of three words overlap
    ],
)
def test_wcxb_metric_is_word_f1_over_lowercased_word_runs(prediction: str, gold: str, f1: float):
    assert wcxb_score(prediction, gold).f1 == pytest.approx(f1)


def test_wcxb_metric_differs_from_the_token_metric_where_their_words_differ():
    assert score_text("stop_now", "stop now").f1 == 1.0
    assert wcxb_score("stop_now", "stop now").f1 == 0.0


def test_bench_prints_each_page_type_in_both_metrics_with_the_peers(corpus: Path, tmp_path: Path, capsys):
    collection = tmp_path / "sets" / "wcxb"
    shutil.move(str(corpus), str(collection))
    _gzip_site(collection / "blog.example")
    types = {f"news.example/{i:02d}": "article" for i in range(6)}
    types |= {f"blog.example/{i:02d}": "forum" if i < 4 else "listing" for i in range(6)}
    (collection / "blog.example" / "05.txt").write_text("", encoding="utf-8")
    _manifest(collection, types, frozenset({"blog.example/05"}))
    report = tmp_path / "rows.json"
    argv = ["bench", "-q", "--model", "pvalue", "--compare", "everything", "--json", str(report), str(collection)]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "by page type, WCXB's metric" in out and "by page type, token F1" in out
    assert "Foley 2026" in out and "CC-BY-4.0" in out
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("by page type, WCXB"))
    header, table = (
        lines[start].split()[5:],
        {line.split()[0]: line.split()[1:] for line in lines[start + 1 : start + 3]},
    )
    assert header == ["all", "(12)", "article", "(6)", "forum", "(4)", "listing", "(2)", "empty", "gold", "(1)"]
    rows = {row["label"]: row for row in json.loads(report.read_text())}
    for label in ("pvalue", "everything"):
        scores = rows[label]["page_wcxb"]
        forum = [scores[p][2] for p in sorted(scores) if "blog.example" in p][:4]
        assert float(table[label][2]) == pytest.approx(sum(forum) / 4, abs=5e-4)
    assert table["everything"][-1] == "0.000"  # all visible text on a page whose right output is empty


def test_bench_over_several_collections_gives_each_its_row(corpus: Path, tmp_path: Path, capsys):
    sets = tmp_path / "sets"
    (sets / "one").mkdir(parents=True)
    shutil.move(str(corpus / "news.example"), str(sets / "one"))
    shutil.move(str(corpus / "blog.example"), str(sets / "two"))
    _manifest(sets / "one", {f"news.example/{i:02d}": "article" for i in range(6)})
    (sets / "two" / "manifest.json").write_text(json.dumps({"pages": [{"path": "00"}]}), encoding="utf-8")
    assert main(["bench", "-q", "--model", "pvalue", str(sets)]) == 0
    out = capsys.readouterr().out
    assert "by collection, token F1  one (6)" in out
    assert "all (6)  article (6)" in out


def test_one_host_in_two_collections_is_one_site_and_unknown_folders_stay_apart(tmp_path: Path):
    for collection in ("old", "new"):
        for folder in ("shared.example", "_unknown_1"):
            (tmp_path / collection / folder).mkdir(parents=True)
            (tmp_path / collection / folder / "0.html").write_text("<p>x</p>", encoding="utf-8")
    keys = {str(site.relative): site_key(site) for site in find_sites(tmp_path)}
    assert keys["old/shared.example"] == keys["new/shared.example"] == "shared.example"
    assert keys["old/_unknown_1"] == "old/_unknown_1" and keys["new/_unknown_1"] == "new/_unknown_1"
    assert len({fold_of(keys[f"{c}/shared.example"], 5) for c in ("old", "new")}) == 1
