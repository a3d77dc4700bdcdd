"""Templates: which grouping of a site's pages gives the site regime the best pages to learn from.

For every site with 2+ gold pages, the pages are grouped (in file order) by one of the groupings
below; each group of 2+ pages gets ``fusion`` fitted on its first ``--sample-size`` pages, and a
page of a smaller group is cleaned by the single-page regime (never by another group's fit).
Mean token F1 per set over the same pages, and per page type where the manifest gives one:

- ``domain``: one group per site (what a crawl fitted before templates);
- ``structure T``: :mod:`scrapy_boilerplate.templates` at Jaccard similarity ``T``;
- ``url``: the URL path with digit runs and slugs masked (WCXB's manifest gives each page's URL;
  a page without one joins its site's first group);
- ``single page``: no site evidence at all, for reference.

    python benchmarks/bench_templates.py ../shared/datasets/dragnet ../data/wcxb --folds FOLDS
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
from pathlib import Path
from urllib.parse import urlsplit

from scrapy_boilerplate.corpus import find_sites, gold_path, page_name
from scrapy_boilerplate.evaluation.manifest import page_key, page_labels
from scrapy_boilerplate.evaluation.metric import score_text
from scrapy_boilerplate.models import create_model
from scrapy_boilerplate.models.fusion.heldout import held_out_weights
from scrapy_boilerplate.offline import load_page
from scrapy_boilerplate.templates import TemplateGroups, structure_signature

THRESHOLDS = (0.5, 0.7, 0.85)
_MASKED = re.compile(r"\d|[-_]|^.{21,}$")


def url_pattern(url: str) -> str:
    """The URL's path with each segment holding digits, dashes or underscores (ids, slugs) masked."""
    segments = [segment for segment in urlsplit(url).path.split("/") if segment]
    return "/".join("*" if _MASKED.search(segment) else segment for segment in segments)


def _urls(data_dir: Path) -> dict[str, str]:
    manifest = data_dir / "manifest.json"
    if not manifest.is_file():
        return {}
    pages = json.loads(manifest.read_text(encoding="utf-8")).get("pages", [])
    return {entry["path"]: entry["url"] for entry in pages if entry.get("url")}


def groupings(pages: list, urls: list[str]) -> dict[str, list[int | None]]:
    """Each grouping's group per page (None: a page with no group)."""
    signatures = [structure_signature(page.body) for page in pages]
    out: dict[str, list[int | None]] = {"domain": [0] * len(pages)}
    for threshold in THRESHOLDS:
        out[f"structure {threshold}"] = TemplateGroups(threshold=threshold).group(signatures)
    patterns = [url_pattern(url) if url else None for url in urls]
    first = next((p for p in patterns if p is not None), None)
    known = list(dict.fromkeys(p if p is not None else first for p in patterns))
    out["url"] = [known.index(p if p is not None else first) for p in patterns]
    out["single page"] = [None] * len(pages)
    return out


def site_scores(pages: list, golds: list[str], urls: list[str], weights: dict, sample: int) -> dict[str, list[float]]:
    """Per grouping, each page's F1 with its group's fit (or the single-page regime)."""
    single = create_model("fusion", site_features=False, **weights).fit([])
    fits: dict[tuple[int, ...], object] = {}
    out: dict[str, list[float]] = {}
    for name, groups in groupings(pages, urls).items():
        members: dict[int, list[int]] = {}
        for i, group in enumerate(groups):
            if group is not None:
                members.setdefault(group, []).append(i)
        for i, group in enumerate(groups):
            key = tuple(members[group][:sample]) if group is not None else ()
            if len(key) >= 2 and key not in fits:
                fits[key] = create_model("fusion", **weights).fit([pages[j] for j in key])
            model = fits.get(key, single)
            out.setdefault(name, []).append(score_text(model.clean(pages[i]).text, golds[i]).f1)
    return out


def run(data_dir: Path, sample: int, folds: Path | None) -> tuple[dict[str, list[float]], list[str | None]]:
    """Every grouping's page F1s over the set's multi-page sites, and each page's type."""
    labels, urls = page_labels(data_dir), _urls(data_dir)
    scores: dict[str, list[float]] = {}
    types: list[str | None] = []
    for site in find_sites(data_dir):
        paths = [p for p in site.pages if gold_path(p).is_file()]
        if len(paths) < 2 or site.name.startswith("_unknown"):
            continue
        pages = [load_page(path) for path in paths]
        golds = [gold_path(path).read_text(encoding="utf-8", errors="replace") for path in paths]
        site_urls = [urls.get(f"{site.name}/{page_name(path)}", "") for path in paths]
        weights = {} if folds is None else {"weights": str(held_out_weights(folds, site))}
        for name, values in site_scores(pages, golds, site_urls, weights, sample).items():
            scores.setdefault(name, []).extend(values)
        types += [getattr(labels.get(page_key(path)), "page_type", None) for path in paths]
    return scores, types


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("data_dirs", type=Path, nargs="+")
    parser.add_argument("--sample-size", type=int, default=3)
    parser.add_argument("--folds", type=Path, default=None, help="fold weights (train --folds K --folds-dir DIR)")
    args = parser.parse_args()
    for data_dir in args.data_dirs:
        scores, types = run(data_dir, args.sample_size, args.folds)
        kinds = sorted({t for t in types if t})
        print(f"{data_dir.name}: {len(types)} pages of sites with 2+ pages")
        print(f"  {'grouping':<16}{'all':>8}" + "".join(f"{kind[:12]:>13}" for kind in kinds))
        for name, values in scores.items():
            by_kind = [statistics.fmean([v for v, t in zip(values, types, strict=True) if t == k]) for k in kinds]
            print(f"  {name:<16}{statistics.fmean(values):>8.4f}" + "".join(f"{v:>13.3f}" for v in by_kind))


if __name__ == "__main__":
    main()
