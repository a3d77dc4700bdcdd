"""The README's two set-up commands are the ones CI and the fresh-machine check run."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def setup_commands() -> list[str]:
    """The command lines of the first fenced block under the README's "Set up" heading."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("\n## Set up") :]
    block = re.search(r"```bash\n(.*?)```", section, re.DOTALL)
    assert block, "no command block under the Set up heading"
    return [line for line in block.group(1).splitlines() if line.strip() and not line.startswith("#")]


def test_two_commands_that_make_their_environment_from_python3():
    commands = setup_commands()
    assert len(commands) == 2
    for command in commands:
        assert command.startswith("python3 bootstrap.py && .venv/bin/python ")


def test_the_first_runs_the_demo_and_the_second_the_tests():
    demo, tests = setup_commands()
    assert demo.endswith("example_project/demo.py")
    assert tests.endswith("-m pytest")


def test_ci_runs_the_readme_test_command_as_written():
    ci_lines = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert setup_commands()[1] in ci_lines
