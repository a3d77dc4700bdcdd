"""Where a ``fusion`` clean spends its time: CPU time per stage, site regime, parsing included.

Each site's model is fitted on its first ``--sample-size`` pages; every ``--every``-th page is then
cleaned stage by stage from its decoded HTML (a fresh :class:`Page`), ``--repeat`` times, and each
stage keeps its fastest run (the least disturbed by other jobs on the machine).  The stages are
the model's own (:class:`~scrapy_boilerplate.models.fusion.stages.Stages`): the rules (with the
page's blocks), each feature of the weights (a step several features share, such as the blocks'
tokens, counts in the first feature that asks for it), the matrix assembly, the trees, and the
threshold with the text; ``clean()`` is the model's own call, for reference.

    python benchmarks/fusion_stages.py ../shared/datasets/dragnet --every 7 --repeat 3
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
from corpus_pages import EveryNth, parsed, site_pages

from scrapy_boilerplate.models import create_model
from scrapy_boilerplate.models.fusion.model import BLOCK_SEPARATOR, FusionModel
from scrapy_boilerplate.page import Page


def stage_names(model: FusionModel) -> list[str]:
    """The timed stages, in order: parsing, the rules, each feature of the weights, then the rest."""
    features = [item.feature.name for item in model.stages.layout.bound]
    return ["parse", "blocks and rules", *features, "matrix", "trees", "threshold and text", "clean()"]


def _stages(model: FusionModel, html: str, url: str, names: list[str]) -> list[float]:
    """CPU seconds of each of ``names`` (:func:`stage_names`) for one clean of ``html`` (0 for a
    feature a page without blocks never runs)."""
    clock = time.process_time
    stages = model.stages
    marks = [("", clock())]

    def done(stage: str) -> None:
        marks.append((stage, clock()))

    page = Page(html, url)
    page.tree  # noqa: B018 (parses)
    done("parse")
    blocks, rules = stages.decide(page)
    done("blocks and rules")
    matrix = stages.features(page, blocks, rules, done)
    done("matrix")
    probability = stages.score(matrix, rules)
    done("trees")
    _, keep = stages.keep(matrix, probability, rules)
    BLOCK_SEPARATOR.join(block.text for block, k in zip(blocks, keep.tolist(), strict=True) if k)
    len(BLOCK_SEPARATOR.join(block.text for block in blocks))
    done("threshold and text")
    model.clean(Page(html, url))
    done("clean()")
    spent = {stage: end - start for (_, start), (stage, end) in zip(marks, marks[1:], strict=False)}
    return [spent.get(stage, 0.0) for stage in names]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("data_dir", type=Path)
    parser.add_argument("--sample-size", type=int, default=20)
    parser.add_argument("--every", type=int, default=7, help="time every N-th page only")
    parser.add_argument("--repeat", type=int, default=3, help="runs per page; each stage keeps its fastest")
    args = parser.parse_args()
    work = []
    picks = EveryNth(args.every)
    for _, pages in site_pages(args.data_dir):
        model = create_model("fusion").fit(parsed(pages[: args.sample_size]))
        work += [(model, page) for page in pages if picks()]
    names = stage_names(create_model("fusion"))
    best = np.full((len(work), len(names)), np.inf)
    for _ in range(args.repeat):
        for row, (model, page) in enumerate(work):
            best[row] = np.minimum(best[row], _stages(model, page.html, page.url, names))
    total = best[:, :-1].sum(axis=1)
    print(f"{len(work)} pages of {args.data_dir}, fastest of {args.repeat} runs; CPU ms per page")
    print(f"  {'stage':<20} {'median':>7} {'mean':>7} {'share':>6}")
    for column, stage in enumerate(names):
        times = best[:, column] * 1000
        share = f"{best[:, column].sum() / total.sum():6.1%}" if column < len(names) - 1 else ""
        print(f"  {stage:<20} {np.median(times):7.2f} {times.mean():7.2f} {share}")
    print(f"  {'sum of stages':<20} {np.median(total) * 1000:7.2f} {total.mean() * 1000:7.2f}")


if __name__ == "__main__":
    main()
