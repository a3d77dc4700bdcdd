"""What the empty-text rescue changes: per data set and model, the pages whose output it replaces
and the token F1 before and after (the models' own output against the item's text).

    PYTHONPATH=. python benchmarks/prose_rescue.py ../shared/datasets/{dragnet,cleaneval,chaos,readability}

Each site is fitted on its first ``--sample-size`` pages, as ``scrapy-boilerplate extract`` does.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field
from pathlib import Path

from scrapy_boilerplate.corpus import find_sites
from scrapy_boilerplate.evaluation.bench import gold_path
from scrapy_boilerplate.evaluation.metric import score_text
from scrapy_boilerplate.models.spec import ModelSpec
from scrapy_boilerplate.offline import process_site
from scrapy_boilerplate.rescue import prose_rescue

MODELS = "style_tree,fusion,pvalue,ngram,block_dup,entropy"


@dataclass
class RescueFigures:
    """One model on one data set: pages scored, F1 sums, and (before, after) of each changed page."""

    pages: int = 0
    before: float = 0.0
    after: float = 0.0
    changed: list[tuple[float, float]] = field(default_factory=list)

    def row(self, data_set: str, model: str) -> str:
        """One markdown table row."""
        n, changed = len(self.changed), self.changed
        on_changed = [sum(c[i] for c in changed) / n if n else 0.0 for i in (0, 1)]
        pages = max(self.pages, 1)
        return (
            f"| {data_set} | {model} | {self.pages} | {n} | {self.before / pages:.4f} | {self.after / pages:.4f} "
            f"| {on_changed[0]:.3f} | {on_changed[1]:.3f} |"
        )


def measure(data_dir: Path, spec: ModelSpec, sample_size: int) -> RescueFigures:
    """The rescue's effect for ``spec`` on every gold page of ``data_dir``."""
    figures = RescueFigures()
    for site in find_sites(data_dir):
        for page in process_site(site, spec, sample_size).pages:
            gold = gold_path(page.path)
            if page.cleaned is None or page.page is None or not gold.is_file():
                continue
            truth = gold.read_text(encoding="utf-8", errors="replace")
            before = score_text(page.cleaned.text, truth).f1
            rescued = prose_rescue(page.cleaned, page.page)
            after = score_text(rescued.text, truth).f1 if rescued is not None else before
            figures.pages += 1
            figures.before += before
            figures.after += after
            if rescued is not None:
                figures.changed.append((before, after))
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("data_dirs", nargs="+", type=Path)
    parser.add_argument("--models", default=MODELS)
    parser.add_argument("--sample-size", type=int, default=20)
    args = parser.parse_args()
    print("| set | model | pages | changed | F1 before | F1 after | changed pages: F1 before | after |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for data_dir in args.data_dirs:
        for name in args.models.split(","):
            figures = measure(data_dir, ModelSpec.parse(name), args.sample_size)
            print(figures.row(data_dir.name, name), flush=True)


if __name__ == "__main__":
    main()
