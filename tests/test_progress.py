"""Progress on long runs: drawn on a terminal, silent in pipes and files and with ``--quiet``."""

from __future__ import annotations

import io
import json
import os
import pty
import select
import subprocess
import sys
from pathlib import Path

import pytest

from scrapy_boilerplate.progress import CLEAR_LINE, Progress, format_duration, wants_progress


class _Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_status_line_counts_rate_and_time_left():
    clock, stream = _Clock(), io.StringIO()
    progress = Progress("extract", 4, 100, True, stream, clock)
    clock.now += 10
    progress.page_done(20)
    progress.site_done()
    assert progress.status() == "extract: sites 1/4, pages 20/100, 2.0 pages/s, 40s left"
    clock.now += 0.05
    progress.page_done()  # within the redraw interval: counted, not drawn
    progress.site_done()
    assert stream.getvalue().count(CLEAR_LINE) == 1 and (progress.pages, progress.sites) == (21, 2)
    progress.sites = 3
    progress.site_done()  # the last site is always drawn
    assert stream.getvalue().count(CLEAR_LINE) == 2 and stream.getvalue().endswith(
        "sites 4/4, pages 21/100, 2.1 pages/s, 38s left"
    )
    progress.close()
    assert stream.getvalue().endswith(CLEAR_LINE)
    assert format_duration(3725) == "1h02m" and format_duration(185) == "3m05s" and format_duration(0.4) == "0s"


def test_disabled_progress_writes_nothing():
    stream = io.StringIO()
    progress = Progress("bench", 1, 1, False, stream)
    progress.page_done()
    progress.site_done()
    progress.close()
    assert stream.getvalue() == ""
    assert not wants_progress(io.StringIO(), quiet=False)
    assert wants_progress(_Tty(), quiet=False) and not wants_progress(_Tty(), quiet=True)


def _run(args: list[str], on_terminal: bool) -> tuple[str, str]:
    """Run the CLI with stderr on a pseudo-terminal (or a pipe); return (stdout, stderr)."""
    command = [sys.executable, "-m", "scrapy_boilerplate", *args]
    if not on_terminal:
        done = subprocess.run(command, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        return done.stdout, done.stderr
    master, slave = pty.openpty()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=slave, stdin=subprocess.DEVNULL)
    os.close(slave)
    chunks = []
    while True:
        ready, _, _ = select.select([master], [], [], 1.0)
        if ready:
            try:
                data = os.read(master, 65536)
            except OSError:  # EIO: every writer closed the terminal
                break
            if not data:
                break
            chunks.append(data)
        elif process.poll() is not None:
            break
    os.close(master)
    stdout = process.stdout.read().decode()
    assert process.wait(timeout=300) == 0
    return stdout, b"".join(chunks).decode(errors="replace")


@pytest.mark.slow
@pytest.mark.parametrize("quiet", [False, True])
def test_extract_progress_on_a_terminal_only(corpus: Path, tmp_path: Path, quiet: bool):
    args = ["extract", *(["--quiet"] if quiet else []), str(corpus), str(tmp_path / "out")]
    stdout, terminal = _run(args, on_terminal=True)
    assert stdout.startswith("extract: 2 sites, 12 pages, 0 failures")
    if quiet:
        assert terminal == ""
    else:
        assert "extract: sites 2/2, pages 12/12, " in terminal and " pages/s, " in terminal and " left" in terminal
        assert terminal.endswith(CLEAR_LINE)  # the status line is cleared before the summary
    stdout, piped = _run(args, on_terminal=False)
    assert stdout.startswith("extract: 2 sites, 12 pages") and piped == ""


@pytest.mark.slow
def test_bench_progress_on_a_terminal_and_its_files(corpus: Path, tmp_path: Path):
    md, js = tmp_path / "t.md", tmp_path / "t.json"
    stdout, terminal = _run(["bench", "--model", "pvalue", "--md", str(md), "--json", str(js), str(corpus)], True)
    assert "bench pvalue: sites 2/2, pages 12/12" in terminal
    printed = stdout.splitlines()[1].split()
    row = json.loads(js.read_text(encoding="utf-8"))[0]
    assert printed[:5] == [
        "pvalue",
        "12",
        f"{row['all']['p']:.3f}",
        f"{row['all']['r']:.3f}",
        f"{row['all']['f1']:.3f}",
    ]
    assert f"| pvalue | 12 | {printed[2]} | {printed[3]} | {printed[4]} | 12 |" in md.read_text(encoding="utf-8")
    stdout_piped, piped = _run(["bench", "--model", "pvalue", str(corpus)], on_terminal=False)
    assert piped == "" and stdout_piped.splitlines()[1].split()[:5] == stdout.splitlines()[1].split()[:5]
