"""The README's quality figures, reproduced from the development data with the command it gives.

The test reads the README's models table and the ``bench`` command under it, runs that command (and
the ``train`` step it names, for the fold weights) on the development data, and compares each
row's F1 with the measured one, within 0.005.  Nothing is hard-coded: a new row, model or figure in
the README is checked as written.  It skips where the data is absent (see the ``dev_data`` fixture).
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"
TOLERANCE = 0.005
TABLE_MARK = "<!-- Models table"
PLACEHOLDER = re.compile(r"^([A-Z][A-Z0-9]*)_DIR$")  # DRAGNET_DIR, FOLDS_DIR: folders the reader supplies
# Only a hung run takes this long (not a bound on its speed).
HUNG_AFTER = 4 * 3600


@dataclass(frozen=True)
class ReadmeFigures:
    """The models table's F1 per row name, the paragraph that says what they measure, and the commands."""

    f1: dict[str, float]
    caption: str
    bench: list[str]
    train: list[str]


def read_readme(text: str) -> ReadmeFigures:
    """The models table (the first Markdown table after the table mark), the text after it up to its
    ``bench`` code block, that command's words and the ``train`` words the text names."""
    after = text[text.index(TABLE_MARK) :]
    lines = after.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("|"))
    end = next(i for i in range(start, len(lines)) if not lines[i].startswith("|"))
    header, *rows = [cells(line) for line in lines[start:end] if not set(line) <= set("|-: ")]
    column = header.index("F1")
    f1 = {row_name(row[0]): float(row[column]) for row in rows}
    rest = "\n".join(lines[end:])
    block = re.search(r"^```bash\n(.*?)^```", rest, re.MULTILINE | re.DOTALL)
    assert block is not None, "no bash block after the models table"
    bench = shlex.split(block.group(1).replace("\\\n", " "))
    assert bench[:2] == ["scrapy-boilerplate", "bench"], bench
    train = re.search(r"`(scrapy-boilerplate train[^`]*)`", rest[: block.start()])
    return ReadmeFigures(f1, rest[: block.start()], bench, shlex.split(train.group(1)) if train else [])


def cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def row_name(cell: str) -> str:
    """A row's model or peer: the spec in backticks (``fusion``), else the first word (readability-lxml)."""
    spec = re.search(r"`([^`]+)`", cell)
    return spec.group(1) if spec else cell.split()[0]


def bench_label_of(name: str, labels: list[str]) -> str:
    """The bench row of a README row: the same spec (``fusion [cv]`` for fusion scored by fold), or the
    peer whose name starts the README's (``readability`` for readability-lxml)."""
    for label in labels:
        base = label.split(" [")[0]
        if base == name or name.startswith(base + "-"):
            return label
    raise AssertionError(f"bench printed no row for the README's {name!r}: {labels}")


def scored_group(result: dict, caption: str) -> str:
    """Which of a bench row's groups (all pages, site-level...) the caption describes: the one whose
    page count it names ("on the 800 pages of ...")."""
    groups = [key for key, value in result.items() if isinstance(value, dict) and "f1" in value and "n" in value]
    named = [key for key in groups if re.search(rf"\b{result[key]['n']:,}\b|\b{result[key]['n']}\b pages", caption)]
    assert len(named) == 1, f"the caption names the pages of {named or 'none'} of {groups}: {caption[:300]}"
    return named[0]


def filled(words: list[str], folders: dict[str, Path]) -> list[str]:
    """The command's words with each ``NAME_DIR`` replaced by its folder."""
    return [str(folders[m.group(1)]) if (m := PLACEHOLDER.match(word)) else word for word in words]


def run(words: list[str]) -> None:
    command = [sys.executable, "-m", "scrapy_boilerplate", *words[1:]]  # the installed scrapy-boilerplate
    done = subprocess.run(command, capture_output=True, text=True, timeout=HUNG_AFTER)
    assert done.returncode == 0, f"{shlex.join(words)}:\n{done.stderr[-3000:]}"


@pytest.mark.slow  # trains fold weights and scores every model on a data set: minutes
def test_the_readme_models_table_is_what_its_command_measures(dev_data, tmp_path):
    readme = read_readme(README.read_text(encoding="utf-8"))
    data = {m.group(1) for word in readme.bench if (m := PLACEHOLDER.match(word))} - {"FOLDS"}
    folders = {name: dev_data / name.lower() for name in data} | {"FOLDS": tmp_path / "folds"}
    for name in data:
        if not folders[name].is_dir():
            pytest.skip(f"no {name.lower()} data set in {dev_data}")
    if "FOLDS_DIR" in readme.bench:
        pytest.importorskip("lightgbm", reason="training fold weights needs the train extra")
        assert readme.train, "the README's command needs fold weights but names no train command"
        (data_dir,) = [folders[name] for name in data]
        run([*readme.train, "--folds-dir", str(folders["FOLDS"]), "-q", str(data_dir)])
    figures = tmp_path / "figures.json"
    run([*filled(readme.bench, folders), "-q", "--json", str(figures)])  # (-q, --json: no figure changes)
    results = {row["label"]: row for row in json.loads(figures.read_text())}
    wrong = []
    for name, expected in readme.f1.items():
        result = results[bench_label_of(name, list(results))]
        measured = result[scored_group(result, readme.caption)]["f1"]
        if abs(measured - expected) > TOLERANCE:
            wrong.append(f"{name}: README {expected:.3f}, measured {measured:.3f}")
    assert wrong == [], "the README's F1 column is not what its command measures:\n" + "\n".join(wrong)


README_EXAMPLE = """
<!-- Models table: the default model's row comes first. -->
| model | what it learns | F1 | ms/page | details |
|---|---|---:|---:|---|
| `fusion` (default, fallback) | blocks | 0.938 | ~8.5 | [fusion.md](docs/fusion.md) |
| `pvalue` | nothing | 0.791 | 3.7 | |
| readability-lxml (for comparison) | nothing | 0.919 | 12.5 | |

F1: mean token F1 on the 800 pages of Dragnet's 101 sites with at least 5 pages. The F1
column comes from (`FOLDS_DIR`: the fold weights `scrapy-boilerplate train --folds 5` writes):

```bash
scrapy-boilerplate bench --model fusion,pvalue --folds FOLDS_DIR \\
    --compare readability DRAGNET_DIR
```
"""


def test_the_readme_parser_reads_rows_commands_and_the_scored_pages():
    readme = read_readme(README_EXAMPLE)
    assert readme.f1 == {"fusion": 0.938, "pvalue": 0.791, "readability-lxml": 0.919}
    assert readme.bench == [
        *("scrapy-boilerplate", "bench", "--model", "fusion,pvalue", "--folds", "FOLDS_DIR"),
        *("--compare", "readability", "DRAGNET_DIR"),
    ]
    assert readme.train == ["scrapy-boilerplate", "train", "--folds", "5"]
    labels = ["fusion [cv]", "pvalue", "readability"]
    assert [bench_label_of(name, labels) for name in readme.f1] == labels
    row = {"label": "pvalue", "all": {"n": 1381, "f1": 0.7}, "site_level": {"n": 800, "f1": 0.79}, "lost": 3}
    assert scored_group(row, readme.caption) == "site_level"
    assert filled(readme.bench, {"FOLDS": Path("/f"), "DRAGNET": Path("/d")})[-1] == "/d"
