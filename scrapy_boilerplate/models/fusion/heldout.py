"""Which sites a set of weights was trained on, so that figures come only from sites it never saw.

A site is known by its host (the folder name), so one host's pages in two collections are one
site; folders of pages whose site is unknown (``_unknown*``) are known by collection and folder.
"""

from __future__ import annotations

from pathlib import Path

from scrapy_boilerplate.corpus import Site
from scrapy_boilerplate.models.fusion.weights import FusionWeights, load_weights


def site_key(site: Site) -> str:
    """The name by which weights record a site they were trained on."""
    if not site.name.startswith("_unknown"):
        return site.name
    folder = (site.root / site.relative).resolve()
    return f"{folder.parent.name}/{folder.name}"


def fold_files(folds_dir: Path) -> list[Path]:
    """The fold weights files ``train --folds`` wrote, in fold order."""
    files = sorted(folds_dir.glob("fold-*.json"))
    if not files:
        raise ValueError(f"{folds_dir} holds no fold-*.json weights (write them with train --folds K)")
    return files


def held_out_weights(folds_dir: Path, site: Site) -> Path:
    """The fold weights that were trained without ``site``."""
    key = site_key(site)
    for path in fold_files(folds_dir):
        if key not in load_weights(path).trained_on:
            return path
    raise ValueError(f"every fold in {folds_dir} was trained on {key}: they are not cross-validation folds")


def seen_in_training(weights: FusionWeights, site: Site) -> bool:
    """True when ``weights`` were trained on pages of ``site``."""
    return site_key(site) in weights.trained_on
