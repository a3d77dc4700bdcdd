"""Site rules: what a fitted site's clean costs and gives, against the model without rules and the peers.

Each site of ``--min-pages`` gold pages or more is fitted on its first ``--sample-size`` pages;
every later gold page is cleaned by ``fusion`` with its site rules (the default), by ``fusion``
with ``site_rules=false`` (every block through the trees), by the single-page regime and by
trafilatura, each from a fresh unparsed page (parsing included), CPU time.  A fit is timed with
and without the rules, against the median single-page clean.  With ``--folds DIR`` each site gets
the fold weights trained without it (cross-validated F1).

    python benchmarks/bench_site_rules.py ../shared/datasets/dragnet --sample-size 3 --folds FOLDS
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from corpus_pages import fresh, parsed, seconds
from gold_sites import gold_sites

from scrapy_boilerplate.evaluation.metric import score_text
from scrapy_boilerplate.evaluation.peers import load_peer
from scrapy_boilerplate.models import create_model
from scrapy_boilerplate.models.fusion.heldout import held_out_weights

REGIMES = ("rules", "no rules", "single page", "trafilatura")


def _weights(folds: Path | None, site) -> dict[str, str]:
    return {} if folds is None else {"weights": str(held_out_weights(folds, site))}


def run(data_dir: Path, sample_size: int, min_pages: int, folds: Path | None) -> dict[str, list[float]]:
    """Per measure, one value per later page (F1, CPU seconds, coverage) or per site (fit seconds)."""
    clock = time.process_time
    trafilatura = load_peer("trafilatura")
    out: dict[str, list[float]] = {}
    for found in gold_sites(data_dir):
        if len(found.pages) < min_pages:
            continue
        weights = _weights(folds, found.site)
        sample = [page for page, _ in found.pages[:sample_size]]
        models = {
            "rules": create_model("fusion", **weights),
            "no rules": create_model("fusion", site_rules=False, **weights),
        }
        for label, model in models.items():
            out.setdefault(f"fit {label}", []).append(seconds(model.fit, parsed(sample), clock=clock))
        models["single page"] = create_model("fusion", site_features=False, **weights).fit([])
        for page, gold in found.pages[sample_size:]:
            for label, model in models.items():
                started = clock()
                cleaned = model.clean(fresh(page))
                out.setdefault(f"clean {label}", []).append(clock() - started)
                out.setdefault(f"f1 {label}", []).append(score_text(cleaned.text, gold).f1)
                if label == "rules":
                    out.setdefault("coverage", []).append(cleaned.coverage or 0.0)
                    if cleaned.coverage == 1.0:
                        out.setdefault("clean covered whole", []).append(out["clean rules"][-1])
            started = clock()
            text = trafilatura(page.html)
            out.setdefault("clean trafilatura", []).append(clock() - started)
            out.setdefault("f1 trafilatura", []).append(score_text(text, gold).f1)
    return out


def report(figures: dict[str, list[float]]) -> str:
    """The table: F1 and median clean CPU ms per regime, fits against single-page cleans, coverage."""
    median = statistics.median
    trafilatura = median(figures["clean trafilatura"])
    single = median(figures["clean single page"])
    lines = [f"{len(figures['f1 rules'])} later pages of {len(figures['fit rules'])} sites", ""]
    lines.append(f"{'regime':<14}{'F1':>8}{'clean ms':>10}{'/ trafilatura':>15}")
    for regime in REGIMES:
        clean = median(figures[f"clean {regime}"])
        f1 = statistics.fmean(figures[f"f1 {regime}"])
        lines.append(f"{regime:<14}{f1:>8.4f}{clean * 1000:>10.2f}{clean / trafilatura:>15.2f}")
    lines.append("")
    for regime in ("rules", "no rules"):
        fit = median(figures[f"fit {regime}"])
        lines.append(f"fit, {regime}: {fit * 1000:.1f} ms, {fit / single:.2f} single-page cleans")
    coverage = figures["coverage"]
    full = sum(1 for c in coverage if c >= 1.0) / len(coverage)
    lines.append(
        f"coverage: mean {statistics.fmean(coverage):.3f}, median {median(coverage):.3f}, whole page {full:.1%}"
    )
    if figures.get("clean covered whole"):
        whole = median(figures["clean covered whole"])
        lines.append(
            f"clean of a page the rule covers whole: {whole * 1000:.2f} ms, {whole / trafilatura:.2f} of trafilatura"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("data_dir", type=Path)
    parser.add_argument("--sample-size", type=int, default=3)
    parser.add_argument("--min-pages", type=int, default=5, help="sites with at least this many gold pages")
    parser.add_argument("--folds", type=Path, default=None, help="fold weights (train --folds K --folds-dir DIR)")
    args = parser.parse_args()
    print(report(run(args.data_dir, args.sample_size, args.min_pages, args.folds)))


if __name__ == "__main__":
    main()
