"""The demo: serve the bundled corpus on localhost, crawl it with the plugin, score the result.

``python example_project/demo.py [--model SPEC] [--sample-size N] [--out items.jsonl]``

Runs ``scrapy crawl articles -O items.jsonl`` in this project, then prints pages, models fitted,
share of text removed, and token F1 of the cleaned text against the corpus's known article text
(next to the F1 of the whole page's text, i.e. no cleaning).  No internet needed.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # run from a checkout without installing

from make_corpus import CORPUS, SITES, make_corpus  # noqa: E402

from scrapy_boilerplate.evaluation.metric import mean_score, score_text  # noqa: E402
from scrapy_boilerplate.html import to_text  # noqa: E402
from scrapy_boilerplate.page import Page  # noqa: E402
from scrapy_boilerplate.testing.localsite import SEED_PATH, serve_directory  # noqa: E402

FITTED = re.compile(r"boilerplate: fitted (\S+) for (\S+) on (\d+) pages in ([\d.]+) s")
REMOVED_SHARE = re.compile(r"'boilerplate/removed_share': ([\d.]+)")


def run_crawl(seeds: list[str], out: Path, log: Path, model: str | None, sample_size: int | None) -> int:
    """``scrapy crawl articles`` in this project; returns its exit code."""
    command = [
        sys.executable,
        "-m",
        "scrapy",
        "crawl",
        "articles",
        "-a",
        "seeds=" + ",".join(seeds),
        "-O",
        str(out),
        "-s",
        f"LOG_FILE={log}",
        "-s",
        "LOG_FILE_APPEND=False",
    ]
    if model:
        command += ["-s", f"BOILERPLATE_MODEL={model}"]
    if sample_size:
        command += ["-s", f"BOILERPLATE_SAMPLE_SIZE={sample_size}"]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(HERE.parent), os.environ.get("PYTHONPATH", "")])}
    # The demo's sites get new localhost ports on every run, so their stored models could never be
    # reused: keep them in a throw-away store instead of the project's .scrapy/boilerplate.
    with tempfile.TemporaryDirectory(prefix="boilerplate-demo-models-") as store:
        command += ["-s", f"BOILERPLATE_STORE={store}"]
        return subprocess.run(command, cwd=HERE, env=env).returncode


def served_file(corpus: Path, site: str, url: str) -> Path:
    """The corpus file served at a crawled URL."""
    return corpus / site / url.split("/", 3)[3]


def gold_text(corpus: Path, site: str, url: str) -> str:
    """The known article text of a crawled URL."""
    return served_file(corpus, site, url).with_suffix(".txt").read_text(encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", help="BOILERPLATE_MODEL (default: the project's setting)")
    parser.add_argument("--sample-size", type=int, help="BOILERPLATE_SAMPLE_SIZE")
    parser.add_argument("--out", type=Path, default=Path("items.jsonl"), help="feed file (JSON lines)")
    args = parser.parse_args()
    if not CORPUS.exists():
        make_corpus(CORPUS)
    out, log = args.out.resolve(), args.out.resolve().with_suffix(".log")
    with contextlib.ExitStack() as stack:
        bases = {site: stack.enter_context(serve_directory(CORPUS / site)) for site in SITES}
        code = run_crawl([base + SEED_PATH for base in bases.values()], out, log, args.model, args.sample_size)
    if code != 0 or not out.exists():
        print(f"the crawl failed (exit code {code}); see {log}")
        return 1
    site_of = {base: site for site, base in bases.items()}
    items = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    cleaned, raw = [], []
    models: Counter[str] = Counter()
    for item in items:
        site = next(s for b, s in site_of.items() if item["url"].startswith(b))
        gold = gold_text(CORPUS, site, item["url"])
        cleaned.append(score_text(item.get("text"), gold))
        page = Page(served_file(CORPUS, site, item["url"]).read_text(encoding="utf-8"), item["url"])
        raw.append(score_text(to_text(page.body), gold))
        models[f"{site}: {item.get('boilerplate_model', 'not cleaned')}"] += 1
    log_text = log.read_text(encoding="utf-8")
    fits = FITTED.findall(log_text)
    share = REMOVED_SHARE.search(log_text)
    print(f"pages crawled     {len(items)} from {len(SITES)} sites ({sum(SITES.values())} in the corpus)")
    print(f"models fitted     {len(fits)}")
    for name, domain, pages, seconds in fits:
        print(f"                  {name} for {site_of.get('http://' + domain, domain)} on {pages} pages in {seconds} s")
    for key, count in sorted(models.items()):
        print(f"items             {count:3d}  {key}")
    print(f"text removed      {float(share.group(1)):.1%}" if share else "text removed      n/a")
    print(f"token F1 cleaned  {mean_score(cleaned).f1:.3f}   (whole page text: {mean_score(raw).f1:.3f})")
    print(f"feed              {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
