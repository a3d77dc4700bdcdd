"""``bench`` on a collection with single-page and multi-page sites: a table of the multi-page sites."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scrapy_boilerplate.cli import main


def test_bench_gives_the_multi_page_sites_their_own_table_per_page_type(corpus: Path, tmp_path: Path, capsys):
    lone = corpus / "lone.example"
    lone.mkdir()
    for name in ("00.html", "00.txt"):
        (lone / name).write_bytes((corpus / "news.example" / name).read_bytes())
    types = {f"news.example/{i:02d}": "article" if i < 3 else "listing" for i in range(6)}
    types |= {f"blog.example/{i:02d}": "article" for i in range(6)} | {"lone.example/00": "article"}
    (corpus / "manifest.json").write_text(
        json.dumps({"pages": [{"path": p, "page_type": t} for p, t in types.items()]})
    )
    report = tmp_path / "rows.json"
    argv = ["bench", "-q", "--model", "pvalue", "--compare", "everything", "--sample-size", "3"]
    assert main([*argv, "--json", str(report), str(corpus)]) == 0
    lines = capsys.readouterr().out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("sites with 2+ pages (2), token F1"))
    assert lines[start].split()[7:] == ["all", "(12)", "article", "(9)", "listing", "(3)"]
    rows = {row["label"]: row for row in json.loads(report.read_text())}
    table = {line.split()[0]: [float(cell) for cell in line.split()[1:]] for line in lines[start + 1 : start + 3]}
    for label in ("pvalue", "everything"):
        scores = {path: f1 for path, f1 in rows[label]["page_f1"].items() if "lone.example" not in path}
        listing = [
            f1
            for path, f1 in scores.items()
            if "news.example" in path and path.endswith(("03.html", "04.html", "05.html"))
        ]
        assert table[label][0] == pytest.approx(sum(scores.values()) / 12, abs=5e-4)
        assert table[label][2] == pytest.approx(sum(listing) / 3, abs=5e-4)
