"""The command line speaks plain text: help without markup, one line (no traceback) for a missing extra."""

from __future__ import annotations

import contextlib
import io
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from scrapy_boilerplate.cli import build_parser, main

SAVED_PAGES = Path(__file__).resolve().parent.parent / "example_project" / "saved_pages"
# reStructuredText and Markdown markup that argparse would print as is.
MARKUP = re.compile(r"``|`[^`\n]+`|:(?:class|func|meth|mod|attr|data|ref):|\*\*")


# The sub-commands in a usage line: "[-h] {list,show,...} ..." (an option's choices follow its name).
SUB_COMMANDS = re.compile(r"(?<![\w-] )\{([\w,-]+)\} \.\.\.")


def command_paths(path: tuple[str, ...] = ()) -> list[list[str]]:
    """Every command and sub-command, as the words that name it, as each one's usage line lists them."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit):
        build_parser().parse_args([*path, "--help"])
    usage = " ".join(out.getvalue().split("\n\n")[0].split())
    found = [list(path)]
    for names in SUB_COMMANDS.findall(usage):
        for name in names.split(","):
            found += command_paths((*path, name))
    return found


COMMANDS = command_paths()


def help_text(command: list[str], capsys) -> str:
    with pytest.raises(SystemExit) as stop:
        main([*command, "--help"])
    assert stop.value.code == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("command", COMMANDS, ids=lambda command: " ".join(command) or "top")
def test_help_is_plain_text_and_describes_the_command(command, capsys):
    text = help_text(command, capsys)
    assert not MARKUP.search(text), MARKUP.search(text).group(0)
    description = text.split("\n\n")[1]
    assert not description.lstrip().startswith(("positional arguments", "options")), text


def test_every_argument_says_what_it_is(capsys):
    parser = build_parser()
    for command in COMMANDS:
        text = help_text(command, capsys)
        for line in text.splitlines():
            # an argument line with nothing after its name: "  data_dir" alone
            assert not re.fullmatch(r"  [a-z_]+", line), f"{' '.join(command)}: {line.strip()} has no help"
    assert parser.prog == "scrapy-boilerplate"


def test_a_missing_peer_is_one_line_and_a_failure_before_any_model_runs(tmp_path):
    blocker = tmp_path / "sitecustomize.py"
    blocker.write_text(
        textwrap.dedent(
            """
            import sys

            class BlockPeers:
                def find_spec(self, name, path=None, target=None):
                    if name.split(".")[0] == "trafilatura":
                        raise ModuleNotFoundError(f"No module named {name!r}", name=name)
                    return None

            sys.meta_path.insert(0, BlockPeers())
            """
        )
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.run(
        [sys.executable, "-m", "scrapy_boilerplate", "bench", "--model", "pvalue", "--compare", "trafilatura"]
        + [str(SAVED_PAGES)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert proc.returncode != 0
    assert proc.stdout == ""  # no model ran, no table
    assert proc.stderr.strip().splitlines() == [
        "bench: peer 'trafilatura' needs trafilatura, which is not installed: "
        "pip install 'scrapy-boilerplate-learner[bench]'"
    ]
