"""The crawl benchmark's ``hosts`` case: each site served as a real crawl finds it, home page first.

Each domain has a home page (``/``) linking its section pages (``/section/K.html``: listings of
another template, linking the leaf pages in turns) and, for a WCXB host, its own collection and
listing pages (``/c/NAME``, real pages that yield no item); the leaf pages (``/p/NAME``: articles,
products, documentation) yield the items.  So the first pages a domain's sample sees are its home
and section pages, as in a real crawl.  Sites: Dragnet's (every page a leaf) and WCXB's development
hosts with at least three leaf pages (read from an unpacked copy: ``unpack.py``).

Scored: each leaf item's token F1 against its page's gold, the share of leaf items cleaned by a
fit (of their own template: the crawl never cleans a page with another template's fit), and the
same pages offline: per domain, its leaf pages grouped by template in name order, a template of at
least the sample size fitted on its first pages, the others cleaned by the single-page model.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from statistics import mean
from typing import Any

LEAF_TYPES = frozenset({"article", "product", "documentation", "forum"})
SECTIONS = 3
UNFITTED_MARKS = ("(single page)", "(fallback)")


def wcxb_hosts(wcxb_dir: Path, min_leaves: int) -> dict[str, tuple[list[Path], list[Path]]]:
    """WCXB host -> (its leaf pages, its other pages), for hosts with at least ``min_leaves`` leaves."""
    manifest = json.loads((wcxb_dir / "manifest.json").read_text())
    hosts: dict[str, tuple[list[Path], list[Path]]] = defaultdict(lambda: ([], []))
    for page in manifest["pages"]:
        path = wcxb_dir / f"{page['path']}.html"
        if path.exists() and not page.get("gold_empty"):
            hosts[page["site"]][0 if page["page_type"] in LEAF_TYPES else 1].append(path)
    return {
        host: (sorted(leaves), sorted(others)) for host, (leaves, others) in hosts.items() if len(leaves) >= min_leaves
    }


def home_html(domain: str, sections: int, others: list[str]) -> str:
    """A home page linking the sections and the host's own collection pages."""
    links = "".join(f'<li><a class="section" href="/section/{k}.html">Section {k}</a></li>' for k in range(sections))
    links += "".join(f'<li><a class="other" href="/c/{name}">{name}</a></li>' for name in others)
    return (
        f'<html><head><title>{domain}</title></head><body><header class="masthead"><h1>{domain}</h1></header>'
        f'<nav class="sections"><ul>{links}</ul></nav><footer class="site-foot">Home of {domain}</footer></body></html>'
    )


def section_html(domain: str, index: int, leaves: list[str]) -> str:
    """A section page: a listing of leaf pages (every ``SECTIONS``-th leaf from ``index``)."""
    cards = "".join(
        f'<li class="teaser"><a class="page" href="/p/{name}">{name}</a><span class="when">today</span></li>'
        for name in leaves[index::SECTIONS]
    )
    return (
        f'<html><head><title>Section {index} | {domain}</title></head><body><div class="topbar">{domain}</div>'
        f'<main class="section-list"><h2 class="section-title">Section {index}</h2><ul class="teasers">{cards}</ul>'
        f'</main><div class="bottom-links"><a href="/">Home</a></div></body></html>'
    )


def hosts_response(pages: dict[str, Path], others: dict[str, Path], domain: str, path: str) -> bytes | None:
    """The body the server sends for ``path`` of ``domain`` in the hosts layout (None: not found)."""
    if path == "/":
        return home_html(domain, SECTIONS, sorted(others)).encode()
    name = path.rsplit("/", 1)[-1]
    if path.startswith("/section/"):
        index = int(name.split(".")[0]) if name.split(".")[0].isdigit() else -1
        return section_html(domain, index, sorted(pages)).encode() if 0 <= index < SECTIONS else None
    chosen = pages if path.startswith("/p/") else others if path.startswith("/c/") else {}
    page = chosen.get(name)
    return page.read_bytes() if page is not None else None


def gold_text(page: Path) -> str:
    """The gold main text beside a page (``NAME.txt``)."""
    return page.with_suffix(".txt").read_text(encoding="utf-8", errors="replace")


def score_items(items: list[dict[str, Any]], leaf_paths: dict[str, Path]) -> dict[str, float]:
    """Leaf items' mean token F1 against their gold, and the share cleaned by their template's fit."""
    from scrapy_boilerplate.evaluation.metric import score_text

    f1s, fitted = [], 0
    for item in items:
        page = leaf_paths.get(item["url"])
        if page is None:
            continue
        f1s.append(score_text(item.get("text") or "", gold_text(page)).f1)
        fitted += not (item.get("boilerplate_model") or "").endswith(UNFITTED_MARKS)
    return {"leaf_items": len(f1s), "f1": mean(f1s) if f1s else 0.0, "fitted_share": fitted / max(len(f1s), 1)}


def offline_f1(domains: dict[str, list[Path]], model: str | None, sample_size: int) -> float:
    """The same leaf pages offline (see the module docstring): mean token F1."""
    from scrapy_boilerplate.crawl.config import DEFAULT_FALLBACK_MODEL, DEFAULT_MODEL
    from scrapy_boilerplate.evaluation.metric import score_text
    from scrapy_boilerplate.html import decode_html
    from scrapy_boilerplate.models.spec import ModelSpec
    from scrapy_boilerplate.page import Page
    from scrapy_boilerplate.templates import TemplateGroups, structure_signature

    spec, single = ModelSpec.parse(model or DEFAULT_MODEL), ModelSpec.parse(DEFAULT_FALLBACK_MODEL).create().fit([])
    f1s = []
    for domain, leaves in domains.items():
        pages = [Page(decode_html(path.read_bytes()), f"http://{domain}/p/{path.name}") for path in leaves]
        groups, by_template = TemplateGroups(), defaultdict(list)
        for page, path in zip(pages, leaves, strict=True):
            by_template[groups.assign(structure_signature(page.body))].append((page, path))
        for members in by_template.values():
            sample = [page for page, _ in members[:sample_size]]
            model_of = spec.create().fit(sample) if len(members) >= sample_size else single
            f1s += [score_text(model_of.clean(page).text, gold_text(path)).f1 for page, path in members]
    return mean(f1s) if f1s else 0.0
