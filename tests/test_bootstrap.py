"""bootstrap.py: a virtual environment with pip even where venv cannot install pip, and quick re-runs."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def load_bootstrap():
    spec = importlib.util.spec_from_file_location("bootstrap", ROOT / "bootstrap.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
@pytest.mark.skipif(not (shutil.which("apt-get") and shutil.which("dpkg-deb")), reason="needs Debian's apt-get")
def test_pip_comes_from_the_distribution_wheel_without_ensurepip(tmp_path):
    bootstrap = load_bootstrap()
    venv = tmp_path / "venv"
    try:
        bootstrap.make_venv_with_distribution_pip(venv)
    except bootstrap.BootstrapError as exc:  # no package list, or the archive is unreachable
        pytest.skip(f"the distribution's pip wheel could not be fetched: {exc}")
    version = subprocess.run(
        [venv / "bin" / "python", "-m", "pip", "--version"], capture_output=True, text=True, check=True
    ).stdout
    assert version.startswith("pip ") and str(venv) in version


def test_a_second_run_installs_nothing_unless_the_packaging_or_the_extras_change(tmp_path, monkeypatch):
    bootstrap = load_bootstrap()
    commands = []
    monkeypatch.setattr(
        bootstrap, "run", lambda command, quiet=True: commands.append(command) or subprocess.CompletedProcess([], 0)
    )
    bootstrap.install(tmp_path, {"test"})
    assert len(commands) == 2  # pip upgraded, then the checkout installed
    bootstrap.install(tmp_path, {"test"})
    assert len(commands) == 2
    bootstrap.install(tmp_path, {"lint", "test"})
    assert commands[-1][-1] == ".[lint,test]"
    monkeypatch.setattr(bootstrap, "packaging_fingerprint", lambda: "changed setup.cfg")
    bootstrap.install(tmp_path, {"test"})
    assert commands[-1][-1] == ".[test]"


def test_a_failing_install_is_one_message_and_leaves_no_stamp(tmp_path, monkeypatch, capsys):
    bootstrap = load_bootstrap()
    monkeypatch.setattr(bootstrap, "has_pip", lambda venv: True)
    monkeypatch.setattr(bootstrap, "VENV", tmp_path)
    monkeypatch.setattr(bootstrap, "run", lambda command, quiet=True: subprocess.CompletedProcess([], 1))
    assert bootstrap.main([]) == 1
    assert capsys.readouterr().err.startswith("bootstrap: could not")
    assert not (tmp_path / bootstrap.STAMP_NAME).exists()
