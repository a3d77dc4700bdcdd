"""F1 of ``block_dup`` against its cosine threshold (the paper's threshold study) on a gold corpus.

Usage: PYTHONPATH=. python benchmarks/block_dup_thresholds.py DATA_DIR [--sample-size 20]

Scores the site-level subset (sites with >= 5 gold pages), fitting each site on its first
``--sample-size`` pages and cleaning all of its pages, for thresholds 0.5 to 0.95, for the
paper's rule and the improved variant.  Prints one Markdown table.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from scrapy_boilerplate.corpus import find_sites
from scrapy_boilerplate.evaluation.bench import gold_path, is_site_level
from scrapy_boilerplate.evaluation.metric import mean_score, score_text
from scrapy_boilerplate.models.blocks.block_dup import BlockDupModel
from scrapy_boilerplate.offline import load_page

THRESHOLDS = (0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95)
VARIANTS = ("paper", "improved")


def load_sites(data_dir: Path) -> list[list[tuple]]:
    """Each site-level site as (page, gold text or None) pairs, parsed once."""
    sites = []
    for site in find_sites(data_dir):
        if not is_site_level(site):
            continue
        pages = []
        for path in site.pages:
            try:
                page = load_page(path)
            except (OSError, ValueError):
                continue
            gold = gold_path(path)
            pages.append((page, gold.read_text(encoding="utf-8", errors="replace") if gold.is_file() else None))
        sites.append(pages)
    return sites


def score(sites: list[list[tuple]], variant: str, threshold: float, sample_size: int):
    """Mean P/R/F1 over the gold pages for one setting."""
    scores = []
    for pages in sites:
        model = BlockDupModel(variant=variant, threshold=threshold).fit([page for page, _ in pages[:sample_size]])
        scores.extend(score_text(model.clean(page).text, gold) for page, gold in pages if gold is not None)
    return mean_score(scores)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data_dir", type=Path)
    parser.add_argument("--sample-size", type=int, default=20)
    args = parser.parse_args()
    sites = load_sites(args.data_dir)
    print(f"{len(sites)} site-level sites, {sum(len(s) for s in sites)} pages\n")
    print("| threshold | " + " | ".join(f"{v} P | {v} R | {v} F1" for v in VARIANTS) + " |")
    print("|---:|" + "---:|---:|---:|" * len(VARIANTS))
    for threshold in THRESHOLDS:
        cells = []
        for variant in VARIANTS:
            m = score(sites, variant, threshold, args.sample_size)
            cells.append(f"{m.p:.3f} | {m.r:.3f} | {m.f1:.3f}")
        print(f"| {threshold:.2f} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
