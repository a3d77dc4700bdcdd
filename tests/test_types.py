"""The package ships ``py.typed``, so users' type checkers read its annotations: mypy (configured in
pyproject.toml, the package and the example project) must accept them.  CI runs mypy before the
tests too; this test makes a type error fail the test command as well, where every change is tried.
"""

from __future__ import annotations

import subprocess
import sys
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_mypy_accepts_the_package_and_the_example_project():
    for tool in ("mypy", "types-lxml"):
        try:
            version(tool)
        except PackageNotFoundError:
            pytest.skip(f"{tool} is not installed: pip install -e '.[lint]'")
    proc = subprocess.run(
        [sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True, timeout=600, check=False
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
