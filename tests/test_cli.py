from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from scrapy_boilerplate.cli import main
from scrapy_boilerplate.evaluation.metric import score_text


def test_extract_writes_one_text_per_page_and_a_summary(corpus: Path, tmp_path: Path, capsys):
    (corpus / "news.example" / "broken.html").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 10)
    out = tmp_path / "out"
    assert main(["extract", "--model", "pvalue", "--sample-size", "3", str(corpus), str(out)]) == 0
    summary = capsys.readouterr().out.strip().splitlines()[-1]
    assert summary.startswith("extract: 2 sites, 13 pages, 1 failures,")
    assert (out / "news.example" / "broken.txt").read_text() == ""
    for gold in corpus.glob("*/*.txt"):
        text = (out / gold.relative_to(corpus)).read_text(encoding="utf-8")
        assert score_text(text, gold.read_text(encoding="utf-8")).f1 > 0.8


def test_extract_nested_sites_keep_their_relative_path(tmp_path: Path, corpus: Path, capsys):
    nested = tmp_path / "nested"
    (nested / "group").mkdir(parents=True)
    corpus.rename(nested / "group" / "corpus")
    out = tmp_path / "out"
    main(["extract", str(nested), str(out)])
    assert len(list((out / "group" / "corpus" / "blog.example").glob("*.txt"))) == 6


def test_extract_rejects_bad_arguments(tmp_path: Path, capsys):
    with pytest.raises(SystemExit):
        main(["extract", "--model", "nope", str(tmp_path), str(tmp_path / "o")])
    assert "unknown model 'nope'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["extract", "--model", "pvalue:variant=bogus", str(tmp_path), str(tmp_path / "o")])
    assert "variant must be one of" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["extract", "--model", "block_dup:treshold=0.9", str(tmp_path), str(tmp_path / "o")])
    (error,) = [line for line in capsys.readouterr().err.splitlines() if "error:" in line]
    assert error.endswith(
        "bad parameters for model 'block_dup': unknown parameter 'treshold' (did you mean 'threshold'?); "
        "its parameters are variant, threshold, near_duplicates"
    )
    with pytest.raises(SystemExit):
        main(["extract", "--sample-size", "0", str(tmp_path), str(tmp_path / "o")])
    with pytest.raises(SystemExit):
        main(["extract", str(tmp_path / "missing"), str(tmp_path / "o")])


def test_bench_prints_a_row_per_model_and_writes_md_and_json(corpus: Path, tmp_path: Path, capsys):
    md, js = tmp_path / "t.md", tmp_path / "t.json"
    code = main(
        [
            "bench",
            "--model",
            "pvalue,pvalue:variant=paper",
            "--compare",
            "everything",
            "--md",
            str(md),
            "--json",
            str(js),
            str(corpus),
        ]
    )
    assert code == 0
    table = capsys.readouterr().out
    assert "pvalue:variant=paper" in table and "everything" in table
    rows = json.loads(js.read_text())
    assert [r["label"] for r in rows] == ["pvalue", "pvalue:variant=paper", "everything"]
    by_label = {r["label"]: r for r in rows}
    assert by_label["pvalue"]["site_level"]["n"] == 12  # both sites have >= 5 gold pages
    assert by_label["pvalue"]["all"]["f1"] > by_label["everything"]["all"]["f1"]
    assert by_label["everything"]["all"]["r"] == pytest.approx(1.0)
    assert md.read_text().startswith("| model |")


def test_bench_unknown_peer_is_a_clear_error(corpus: Path, capsys):
    assert main(["bench", "--model", "pvalue", "--compare", "nosuchtool", str(corpus)]) == 2
    assert "unknown peer" in capsys.readouterr().err


def test_python_dash_m_runs_the_cli():
    result = subprocess.run([sys.executable, "-m", "scrapy_boilerplate", "--help"], capture_output=True, text=True)
    assert result.returncode == 0
    assert "extract" in result.stdout and "bench" in result.stdout
