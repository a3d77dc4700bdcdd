"""Make ./.venv, a virtual environment holding this checkout and its test tools, from plain python3.

    python3 bootstrap.py

Needs only Python >= 3.10 (Linux or macOS) and access to the package index.  Where ``python3 -m
venv`` cannot put pip in the environment (Debian and Ubuntu without the python3-venv package), the
environment is made without pip and pip is installed into it from the distribution's own pip wheel,
which ``apt-get download`` fetches without root.  Running it again only re-installs when setup.cfg,
pyproject.toml or the requested extras changed.
"""

from __future__ import annotations

import argparse
import glob
import hashlib
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
STAMP_NAME = ".bootstrap-stamp"
SYSTEM_PIP_WHEELS = "/usr/share/python-wheels/pip-*.whl"
NO_PIP_HELP = (
    "could not put pip in .venv: install your system's venv package "
    "(Debian/Ubuntu: sudo apt install python3-venv) and run this again"
)


class BootstrapError(RuntimeError):
    """A step failed; the message is the one line the user sees."""


def run(command: list[str | Path], quiet: bool = True) -> subprocess.CompletedProcess[str]:
    """Run ``command``; its output is kept (not shown) when ``quiet``."""
    return subprocess.run([str(part) for part in command], capture_output=quiet, text=True, cwd=ROOT, check=False)


def python_of(venv: Path) -> Path:
    return venv / "bin" / "python"


def has_pip(venv: Path) -> bool:
    python = python_of(venv)
    return python.exists() and run([python, "-m", "pip", "--version"]).returncode == 0


def distribution_pip_wheel(workdir: Path) -> Path | None:
    """Debian's/Ubuntu's pip wheel: installed (python3-pip-whl) or fetched with ``apt-get download``."""
    installed = sorted(glob.glob(SYSTEM_PIP_WHEELS))
    if installed:
        return Path(installed[-1])
    if not (shutil.which("apt-get") and shutil.which("dpkg-deb")):
        return None
    workdir.chmod(0o755)  # apt's download sandbox user must be able to write here
    fetched = subprocess.run(
        ["apt-get", "download", "python3-pip-whl"], cwd=workdir, capture_output=True, text=True, check=False
    )
    debs = sorted(workdir.glob("python3-pip-whl_*.deb"))
    if fetched.returncode != 0 or not debs:
        return None
    if run(["dpkg-deb", "-x", debs[-1], workdir / "unpacked"]).returncode != 0:
        return None
    wheels = sorted((workdir / "unpacked").glob(SYSTEM_PIP_WHEELS.lstrip("/")))
    return wheels[-1] if wheels else None


def make_venv(venv: Path) -> None:
    """Create ``venv`` with pip in it, with or without the system's ensurepip."""
    if run([sys.executable, "-m", "venv", venv]).returncode == 0 and has_pip(venv):
        return
    print("bootstrap: this Python cannot install pip into a virtual environment; using the system's pip wheel")
    make_venv_with_distribution_pip(venv)


def make_venv_with_distribution_pip(venv: Path) -> None:
    """Create ``venv`` without ensurepip and install pip into it from the distribution's pip wheel."""
    if run([sys.executable, "-m", "venv", "--clear", "--without-pip", venv]).returncode != 0:
        raise BootstrapError(NO_PIP_HELP)
    with tempfile.TemporaryDirectory(prefix="bootstrap-pip-") as tmp:
        wheel = distribution_pip_wheel(Path(tmp))
        if wheel is None:
            raise BootstrapError(NO_PIP_HELP)
        # A pip wheel runs from inside itself: the documented way to install pip without pip.
        pip_from_wheel = [python_of(venv), wheel / "pip", "install", "--quiet", "--disable-pip-version-check"]
        if run([*pip_from_wheel, wheel]).returncode:
            raise BootstrapError(NO_PIP_HELP)
    if not has_pip(venv):
        raise BootstrapError(NO_PIP_HELP)


def packaging_fingerprint() -> str:
    """What the installed environment depends on: the packaging files."""
    digest = hashlib.sha256()
    for name in ("setup.cfg", "pyproject.toml"):
        digest.update((ROOT / name).read_bytes())
    return digest.hexdigest()


def installed_extras(venv: Path, fingerprint: str) -> set[str]:
    """The extras installed by an earlier run for these packaging files (none if they changed)."""
    stamp = venv / STAMP_NAME
    if not stamp.exists():
        return set()
    recorded, _, extras = stamp.read_text().strip().partition(" ")
    return set(extras.split(",")) if recorded == fingerprint else set()


def install(venv: Path, extras: set[str]) -> None:
    """``pip install -e .[extras]`` into ``venv``, skipped when an earlier run installed the same."""
    fingerprint = packaging_fingerprint()
    already = installed_extras(venv, fingerprint)
    if extras <= already:
        return
    wanted = ",".join(sorted(extras | already))
    print(f"bootstrap: installing this checkout with [{wanted}] into .venv (a minute or two the first time)")
    pip = [python_of(venv), "-m", "pip", "--disable-pip-version-check", "install", "--quiet", "--quiet"]  # errors only
    if run([*pip, "--upgrade", "pip"], quiet=False).returncode:
        raise BootstrapError("could not upgrade pip in .venv (is the package index reachable?)")
    if run([*pip, "--editable", f".[{wanted}]"], quiet=False).returncode:
        raise BootstrapError(f"could not install this checkout into .venv with [{wanted}] (see pip's output above)")
    (venv / STAMP_NAME).write_text(f"{fingerprint} {wanted}\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--extras", default="test", help="extras to install, comma-separated (default: test)")
    args = parser.parse_args(argv)
    if sys.version_info < (3, 10):  # noqa: UP036 (this runs under whatever python3 the machine has)
        print(f"bootstrap: needs Python 3.10 or newer; this is {sys.version.split()[0]}", file=sys.stderr)
        return 1
    try:
        if not has_pip(VENV):
            make_venv(VENV)
        install(VENV, {name.strip() for name in args.extras.split(",") if name.strip()})
    except BootstrapError as exc:
        print(f"bootstrap: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
