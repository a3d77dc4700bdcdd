"""The distribution builds as a wheel and an sdist that carry the whole package and pass ``twine check``."""

from __future__ import annotations

import email
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

import scrapy_boilerplate

ROOT = Path(__file__).resolve().parent.parent
DISTRIBUTION = "scrapy-boilerplate-learner"
pytestmark = pytest.mark.slow  # every test here shares one build


@pytest.fixture(scope="module")
def dist(tmp_path_factory) -> Path:
    """sdist and wheel as ``python -m build`` makes them (the wheel is built from the sdist)."""
    out = tmp_path_factory.mktemp("dist")
    proc = subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(out), str(ROOT)], capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return out


def only(directory: Path, pattern: str) -> Path:
    (found,) = directory.glob(pattern)
    return found


def test_twine_accepts_both(dist):
    files = [str(only(dist, "*.whl")), str(only(dist, "*.tar.gz"))]
    proc = subprocess.run([sys.executable, "-m", "twine", "check", "--strict", *files], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_wheel_carries_every_file_of_the_package(dist):
    names = set(zipfile.ZipFile(only(dist, "*.whl")).namelist())
    in_tree = {
        path.relative_to(ROOT).as_posix()
        for path in (ROOT / "scrapy_boilerplate").rglob("*")
        if path.is_file() and "__pycache__" not in path.parts
    }
    assert in_tree - names == set()


def test_wheel_metadata_names_the_distribution_its_version_and_licence(dist):
    wheel = zipfile.ZipFile(only(dist, "*.whl"))
    info = next(name for name in wheel.namelist() if name.endswith(".dist-info/METADATA"))
    metadata = email.message_from_bytes(wheel.read(info))
    assert metadata["Name"] == DISTRIBUTION
    assert metadata["Version"] == scrapy_boilerplate.__version__
    assert "LICENSE" in metadata.get_all("License-File")
    entry_points = wheel.read(info.replace("METADATA", "entry_points.txt")).decode()
    assert "scrapy-boilerplate = scrapy_boilerplate.cli:main" in entry_points


def test_sdist_carries_the_licence_and_the_readme(dist):
    with tarfile.open(only(dist, "*.tar.gz")) as sdist:
        names = {name.split("/", 1)[1] for name in sdist.getnames() if "/" in name}
    assert {"LICENSE", "README.md", "setup.cfg", "pyproject.toml", "scrapy_boilerplate/__init__.py"} <= names
