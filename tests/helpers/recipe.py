"""The distributed recipe of docs/store.md, read from the page and run as a user runs it.

The spider, the settings, the seeding command and the crawl command are taken from the page's code
blocks, so the page and the test cannot drift apart: a Scrapy project made by ``scrapy
startproject``, the page's settings block appended to its settings.py, the page's spider file, and
workers started with the page's command line in the project folder.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from helpers.crawl_harness import harness_env

ROOT = Path(__file__).resolve().parents[2]
STORE_DOC = ROOT / "docs" / "store.md"
DOC_REDIS_URL = "redis://10.0.0.5:6379/0"
SECTION = "## Distributed crawls on scrapy-redis"
SPIDER_HEADER = "# myproject/spiders/pages.py"
SETTINGS_HEADER = "# settings.py, identical on every worker"
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.MULTILINE | re.DOTALL)


@dataclass(frozen=True)
class Recipe:
    """The page's spider file, settings block, seeding command (without its URLs) and crawl command."""

    spider: str
    settings: str
    seed: list[str]
    crawl: str


def read_recipe(redis_url: str) -> Recipe:
    """The recipe's code blocks, with the page's Redis URL replaced by ``redis_url``."""
    text = STORE_DOC.read_text(encoding="utf-8")
    section = text[text.index(SECTION) : text.index("\n## ", text.index(SECTION) + 1)]
    blocks = [body.replace(DOC_REDIS_URL, redis_url) for _, body in FENCE.findall(section)]
    (spider,) = [block for block in blocks if block.startswith(SPIDER_HEADER)]
    (settings,) = [block for block in blocks if block.startswith(SETTINGS_HEADER)]
    lines = [line for block in blocks for line in block.splitlines()]
    (seed,) = [line for line in lines if line.startswith("redis-cli") and " lpush " in line]
    (crawl,) = [line for line in lines if line.startswith("scrapy crawl ")]
    words = shlex.split(seed)
    return Recipe(spider, settings, words[: words.index("lpush") + 2], crawl)


def make_project(folder: Path, recipe: Recipe) -> Path:
    """``scrapy startproject myproject`` in ``folder``, with the recipe's settings and spider."""
    subprocess.run([sys.executable, "-m", "scrapy", "startproject", "myproject", str(folder)], check=True, timeout=120)
    settings = folder / "myproject" / "settings.py"
    settings.write_text(settings.read_text(encoding="utf-8") + "\n" + recipe.settings, encoding="utf-8")
    (folder / SPIDER_HEADER.removeprefix("# ")).write_text(recipe.spider, encoding="utf-8")
    return folder


def seed(recipe: Recipe, urls: list[str]) -> None:
    """Push the start URLs as the page's command does (one JSON object per URL)."""
    subprocess.run([*recipe.seed, *(json.dumps({"url": url}) for url in urls)], check=True, timeout=60)


def start_worker(project: Path, recipe: Recipe, name: str, *overrides: str) -> subprocess.Popen:
    """One worker: the page's crawl command in the project folder, its log in ``<name>.log``;
    ``overrides`` are ``NAME=VALUE`` settings added with ``-s`` (the test helpers importable)."""
    command = recipe.crawl + "".join(f" -s {shlex.quote(setting)}" for setting in overrides)
    log = (project / f"{name}.log").open("w")
    path = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])  # an activated venv
    return subprocess.Popen(
        ["bash", "-c", command], cwd=project, stdout=log, stderr=subprocess.STDOUT, env=harness_env({"PATH": path})
    )


def exported(project: Path) -> list[dict]:
    """Every item of every worker's feed (a torn last line of a killed worker is left out)."""
    items = []
    for path in sorted(project.glob("items-*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                items.append(json.loads(line))
            except ValueError:
                continue
    return items


def stat(log: str, key: str) -> int:
    """A count from the stats a worker dumped at close (0 when absent)."""
    found = re.search(rf"'{re.escape(key)}': (\d+)", log)
    return int(found.group(1)) if found else 0


def counted(items: list[dict]) -> Counter:
    return Counter(item["url"] for item in items)
