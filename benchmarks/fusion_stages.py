"""Where a ``fusion`` clean spends its time: CPU time per stage, site regime, parsing included.

Each site's model is fitted on its first ``--sample-size`` pages; every ``--every``-th page is then
cleaned stage by stage from its decoded HTML (a fresh :class:`Page`), ``--repeat`` times, and each
stage keeps its fastest run (the least disturbed by other jobs on the machine).  The stages are
the steps of ``FusionModel._clean`` in order; ``clean()`` is the model's own call, for reference.

    python benchmarks/fusion_stages.py ../shared/datasets/dragnet --every 7 --repeat 3
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from scrapy_boilerplate.corpus import find_sites
from scrapy_boilerplate.models import create_model
from scrapy_boilerplate.models.fusion import page_features
from scrapy_boilerplate.models.fusion.decide import page_threshold
from scrapy_boilerplate.models.fusion.features import feature_matrix
from scrapy_boilerplate.models.fusion.model import BLOCK_SEPARATOR, FusionModel
from scrapy_boilerplate.offline import load_page
from scrapy_boilerplate.page import Page

STAGES = ("parse", "blocks", "page features", "site features", "trees", "decision and text", "clean()")


def _stages(model: FusionModel, html: str, url: str) -> list[float]:
    """CPU seconds of each of :data:`STAGES` for one clean of ``html``."""
    clock = time.process_time
    weights = model.loaded_weights
    t0 = clock()
    page = Page(html, url)
    page.tree  # noqa: B018 (parses)
    t1 = clock()
    page.text_blocks()  # (kept by the page: page_blocks reads them from there)
    t2 = clock()
    found = page_features.page_blocks(page, weights.vocabulary_bits)
    t3 = clock()
    site = model.evidence_.features(page, found.blocks, found.tokens)
    t4 = clock()
    matrix = feature_matrix(found, site, len(weights.vocabulary))
    probability = weights.trees.probabilities(matrix)
    t5 = clock()
    threshold = page_threshold(probability, matrix, weights.threshold)
    keep = (probability >= threshold).tolist()
    BLOCK_SEPARATOR.join(block.text for block, k in zip(found.blocks, keep, strict=True) if k)
    len(BLOCK_SEPARATOR.join(block.text for block in found.blocks))
    t6 = clock()
    model.clean(Page(html, url))
    t7 = clock()
    return [t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4, t6 - t5, t7 - t6]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("data_dir", type=Path)
    parser.add_argument("--sample-size", type=int, default=20)
    parser.add_argument("--every", type=int, default=7, help="time every N-th page only")
    parser.add_argument("--repeat", type=int, default=3, help="runs per page; each stage keeps its fastest")
    args = parser.parse_args()
    work = []
    count = 0
    for site in find_sites(args.data_dir):
        pages = []
        for path in site.pages:
            try:
                pages.append(load_page(path))
            except (OSError, ValueError):
                continue
        model = create_model("fusion").fit([Page(p.html, p.url).parse() for p in pages[: args.sample_size]])
        for page in pages:
            count += 1
            if count % args.every == 0:
                work.append((model, page))
    best = np.full((len(work), len(STAGES)), np.inf)
    for _ in range(args.repeat):
        for row, (model, page) in enumerate(work):
            best[row] = np.minimum(best[row], _stages(model, page.html, page.url))
    total = best[:, :-1].sum(axis=1)
    print(f"{len(work)} pages of {args.data_dir}, fastest of {args.repeat} runs; CPU ms per page")
    print(f"  {'stage':<18} {'median':>7} {'mean':>7} {'share':>6}")
    for column, stage in enumerate(STAGES):
        times = best[:, column] * 1000
        share = f"{best[:, column].sum() / total.sum():6.1%}" if column < len(STAGES) - 1 else ""
        print(f"  {stage:<18} {np.median(times):7.2f} {times.mean():7.2f} {share}")
    print(f"  {'sum of stages':<18} {np.median(total) * 1000:7.2f} {total.mean() * 1000:7.2f}")


if __name__ == "__main__":
    main()
