"""How the site rule was chosen: block path signature and thresholds, by the F1 of later pages.

Each site of ``--min-pages`` gold pages or more is fitted (``fusion``, no rules) on its first
``--sample-size`` pages; the model's decisions on the sample make a rule for each variant below,
and every later page is cleaned by that rule where it decides and by the model elsewhere.  Per
variant: mean token F1 per set against the model alone, the share of blocks the rule decided, and
the share of pages whose text is the model's.  With ``--folds DIR`` each site gets the fold
weights trained without it.

    python benchmarks/site_rule_choice.py ../shared/datasets/dragnet ../shared/datasets/chaos --folds FOLDS
"""

from __future__ import annotations

import argparse
import re
import statistics
from pathlib import Path

import numpy as np
from gold_sites import gold_sites

from scrapy_boilerplate.evaluation.metric import score_text
from scrapy_boilerplate.models import create_model
from scrapy_boilerplate.models.fusion.heldout import held_out_weights
from scrapy_boilerplate.models.fusion.siterules.paths import SEPARATOR
from scrapy_boilerplate.models.fusion.siterules.rule import SiteRule
from scrapy_boilerplate.models.fusion.siterules.stage import block_paths

# path signature: how much of the full path (tag, classes, id of the block and every ancestor) counts
SIGNATURES = {
    "full": lambda path: path,
    "last 4 steps": lambda path: SEPARATOR.join(path.split(SEPARATOR)[-4:]),
    "no ids": lambda path: re.sub(r"#[^ ]*", "", path),
    "tags only": lambda path: re.sub(r"[.#][^ ]*", "", path),
}
THRESHOLDS = ((1, 1.0), (2, 1.0), (2, 0.9), (2, 0.8), (3, 1.0))  # (sample pages a path needs, agreement)

Page = tuple[list[str], np.ndarray, list[str], str]  # block paths, kept, block texts, gold


def decided_sites(
    data_dir: Path, sample: int, min_pages: int, folds: Path | None
) -> list[tuple[list[Page], list[Page]]]:
    """Per site, its sample pages and its later pages, each with the model's decisions."""
    out = []
    for found in gold_sites(data_dir):
        if len(found.pages) < min_pages:
            continue
        weights = {} if folds is None else {"weights": str(held_out_weights(folds, found.site))}
        model = create_model("fusion", site_rules=False, **weights).fit([page for page, _ in found.pages[:sample]])
        pages = []
        for page, gold in found.pages:
            scored = model.score(page)
            pages.append((block_paths(scored.blocks), scored.keep, [block.text for block in scored.blocks], gold))
        out.append((pages[:sample], pages[sample:]))
    return out


def variant(
    sites: list[tuple[list[Page], list[Page]]], signature, min_pages: int, agreement: float
) -> dict[str, float]:
    """F1 of the model and of rule-then-model over the later pages, coverage and same-text share."""
    model_f1, rule_f1, coverage, same = [], [], [], []
    for sample, later in sites:
        rule = SiteRule(min_pages=min_pages, agreement=agreement)
        for paths, kept, _, _ in sample:
            rule.add_page([signature(path) for path in paths], kept.tolist())
        for paths, kept, texts, gold in later:
            decided = rule.decide([signature(path) for path in paths])
            ruled = np.where(decided.decided, decided.keep, kept)
            model_f1.append(score_text("\n\n".join(t for t, k in zip(texts, kept, strict=True) if k), gold).f1)
            rule_f1.append(score_text("\n\n".join(t for t, k in zip(texts, ruled, strict=True) if k), gold).f1)
            coverage.append(decided.coverage)
            same.append(bool((ruled == kept).all()))
    mean = statistics.fmean
    return {"model": mean(model_f1), "rule": mean(rule_f1), "coverage": mean(coverage), "same": mean(same)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("data_dirs", type=Path, nargs="+")
    parser.add_argument("--sample-size", type=int, default=3)
    parser.add_argument("--min-pages", type=int, default=5)
    parser.add_argument("--folds", type=Path, default=None, help="fold weights (train --folds K --folds-dir DIR)")
    args = parser.parse_args()
    sets = {d.name: decided_sites(d, args.sample_size, args.min_pages, args.folds) for d in args.data_dirs}
    print("signature      pages agree | " + " | ".join(f"{name} model -> rule, coverage, same text" for name in sets))
    for name, signature in SIGNATURES.items():
        for min_pages, agreement in THRESHOLDS:
            cells = []
            for sites in sets.values():
                v = variant(sites, signature, min_pages, agreement)
                cells.append(f"{v['model']:.4f} -> {v['rule']:.4f}, {v['coverage']:.3f}, {v['same']:.3f}")
            print(f"{name:<14} {min_pages:>5} {agreement:>5} | " + " | ".join(cells))


if __name__ == "__main__":
    main()
