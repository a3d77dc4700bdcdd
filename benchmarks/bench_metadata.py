"""Title, author and publication date against WCXB's gold, with trafilatura's in the same run.

    PYTHONPATH=. python benchmarks/bench_metadata.py ../shared/datasets/wcxb/manifest.json /work/data/wcxb

Per page: the title is right when its word F1 against the gold title is at least 0.8; the author
likewise, and a page whose gold has no author is right only without one; the date is right on the
gold's day, and a page whose gold has no date is right only without one.  Words are WCXB's tokens
(lower-cased ``\\w+``).  Readers: ours (``read_metadata``), ours reading JSON-LD through extruct,
trafilatura's ``bare_extraction`` metadata, and htmldate's ``find_date`` (dates only).  Times are
CPU seconds as ratios to ours, in the same run.
"""

from __future__ import annotations

import argparse
import json
import re
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from scrapy_boilerplate.metadata import read as read_module
from scrapy_boilerplate.metadata import read_metadata
from scrapy_boilerplate.page import Page

Fields = dict[str, str | None]
_WORD = re.compile(r"\w+")


def word_f1(found: str, gold: str) -> float:
    """WCXB's word F1 between two short strings."""
    a, b = Counter(_WORD.findall(found.lower())), Counter(_WORD.findall(gold.lower()))
    common = sum((a & b).values())
    if not common:
        return 0.0
    precision, recall = common / sum(a.values()), common / sum(b.values())
    return 2 * precision * recall / (precision + recall)


def right(field: str, found: str | None, gold: str | None) -> bool:
    """Whether ``found`` is right for ``field`` against ``gold`` (see the module's docstring)."""
    if gold is None:
        return found is None if field != "title" else True
    if found is None:
        return False
    if field == "published":
        return found[:10] == gold[:10]
    return word_f1(found, gold) >= 0.8


def ours(html: str, url: str) -> Fields:
    found = read_metadata(Page(html, url), ("title", "author", "published"))
    return {"title": found.title, "author": found.author, "published": found.published}


def ours_with_extruct() -> Callable[[str, str], Fields]:
    import extruct

    def nodes(html: str) -> list[dict[str, Any]]:
        flat: list[dict[str, Any]] = []
        for item in extruct.extract(html, syntaxes=["json-ld"], uniform=True, errors="ignore").get("json-ld", []):
            graph = item.get("@graph") if isinstance(item, dict) else None
            for node in graph if isinstance(graph, list) else [item]:
                if isinstance(node, dict) and "@type" in node:
                    flat.append(node)
        return flat

    def read(html: str, url: str) -> Fields:
        original = read_module.jsonld_nodes
        read_module.jsonld_nodes = nodes  # type: ignore[assignment]
        try:
            return ours(html, url)
        finally:
            read_module.jsonld_nodes = original

    return read


def trafilatura_reader() -> Callable[[str, str], Fields]:
    from trafilatura import bare_extraction

    def read(html: str, url: str) -> Fields:
        document = bare_extraction(html, url=url, with_metadata=True)
        if document is None:
            return {"title": None, "author": None, "published": None}
        return {"title": document.title, "author": document.author, "published": document.date}

    return read


def htmldate_reader() -> Callable[[str, str], Fields]:
    from htmldate import find_date

    def read(html: str, url: str) -> Fields:
        return {"published": find_date(html, url=url, original_date=True, extensive_search=False)}

    return read


def site_ceiling(pages: list[dict[str, Any]], ours_right: dict[tuple[str, str], bool]) -> str:
    """What reading a site's byline from where its other pages show it could gain at most: on hosts
    with two pages or more, the pages whose gold author (date) ours misses while another page of
    the host has its gold author (date) right."""
    hosts: dict[str, list[dict[str, Any]]] = {}
    for page in pages:
        hosts.setdefault(page["site"], []).append(page)
    several = [host for host in hosts.values() if len(host) >= 2]
    counts = []
    for field, gold in (("author", "author"), ("published", "publish_date")):
        missed = sum(
            1
            for host in several
            for page in host
            if page[gold] is not None
            and not ours_right[page["path"], field]
            and any(
                other is not page and other[gold] is not None and ours_right[other["path"], field] for other in host
            )
        )
        counts.append(f"{field} {missed}")
    return (
        f"site ceiling: {len(several)} hosts with 2+ pages ({sum(map(len, several))} pages); pages whose gold "
        f"ours misses while another page of the host is right: {', '.join(counts)}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("manifest", type=Path)
    parser.add_argument("pages_dir", type=Path, help="the plain (unzipped) copy of the pages")
    parser.add_argument("--readers", default="ours,ours+extruct,trafilatura,htmldate")
    parser.add_argument("--errors", type=Path, default=None, help="write our wrong answers here (JSON)")
    args = parser.parse_args()
    factories: dict[str, Callable[[], Callable[[str, str], Fields]]] = {
        "ours": lambda: ours,
        "ours+extruct": ours_with_extruct,
        "trafilatura": trafilatura_reader,
        "htmldate": htmldate_reader,
    }
    readers = {name: factories[name]() for name in args.readers.split(",")}
    pages = json.loads(args.manifest.read_text(encoding="utf-8"))["pages"]
    scores: dict[str, Counter[str]] = {name: Counter() for name in readers}
    seconds: Counter[str] = Counter()
    wrong: list[dict[str, Any]] = []
    ours_right: dict[tuple[str, str], bool] = {}
    for page in pages:
        html = (args.pages_dir / f"{page['path']}.html").read_text(encoding="utf-8", errors="replace")
        gold = {"title": page["title"], "author": page["author"], "published": page["publish_date"]}
        for name, read in readers.items():
            started = time.process_time()
            found = read(html, page["url"])
            seconds[name] += time.process_time() - started
            for field, value in found.items():
                ok = right(field, value, gold[field])
                scores[name][field] += ok
                if name == "ours":
                    ours_right[page["path"], field] = ok
                if not ok and name == "ours":
                    wrong.append({"path": page["path"], "field": field, "found": value, "gold": gold[field]})
    print(f"{len(pages)} pages; share right (time as a ratio to ours)")
    print("| reader | title | author | date | time |")
    print("|---|---:|---:|---:|---:|")
    for name, counts in scores.items():
        cells = [
            f"{counts[f] / len(pages):.3f}" if f in counts or name != "htmldate" else ""
            for f in ("title", "author", "published")
        ]
        print(f"| {name} | {' | '.join(cells)} | {seconds[name] / max(seconds['ours'], 1e-9):.2f} |")
    if "ours" in readers:
        print(site_ceiling(pages, ours_right))
    if args.errors:
        args.errors.write_text(json.dumps(wrong, indent=1, ensure_ascii=False), encoding="utf-8")


if __name__ == "__main__":
    main()
