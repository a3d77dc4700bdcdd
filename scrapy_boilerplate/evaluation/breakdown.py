"""``bench``'s tables by page type (WCXB) and by collection, for the rows of one run.

The page types come from the collections' manifests (:mod:`.manifest`): on WCXB every page has one
of seven.  Each model's and peer's mean F1 per type is given in WCXB's own metric and in the
project's token metric, over the same pages; the pages whose gold is empty (WCXB's ``gold_empty``:
the right output is empty) have their own column.  When the folder holds several collections, a
second table gives each one's mean token F1.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from scrapy_boilerplate.evaluation.bench import BenchRow, fixed_width, format_figure
from scrapy_boilerplate.evaluation.manifest import PAGE_TYPES, PageLabel, page_key

WCXB_CITATION = (
    "WCXB: Web Content Extraction Benchmark (Foley 2026), CC-BY-4.0; WCXB's metric: word-level F1 over "
    "lower-cased \\w+ tokens, multisets, an empty gold scoring 1 only for an empty output"
)
EMPTY_GOLD = "empty gold"
WCXB_METRIC = "WCXB's metric"


@dataclass(frozen=True)
class Column:
    """One column of a breakdown: its title and the pages it averages over (page path strings)."""

    title: str
    pages: frozenset[str]


@dataclass(frozen=True)
class Breakdown:
    """A table's columns and, per row label, one cell (mean or None) per column, per metric."""

    title: str
    columns: list[Column]
    cells: dict[str, dict[str, list[float | None]]]  # metric name -> row label -> cell per column


def _mean(values: Iterable[float]) -> float | None:
    values = list(values)
    return sum(values) / len(values) if values else None


def _labelled(paths: Iterable[str], labels: dict[Path, PageLabel]) -> dict[str, PageLabel]:
    found = {}
    for path in paths:
        label = labels.get(page_key(Path(path)))
        if label is not None:
            found[path] = label
    return found


def _columns(
    labelled: dict[str, PageLabel], group: Callable[[PageLabel], str | None], order: list[str]
) -> list[Column]:
    members: dict[str, set[str]] = {}
    for path, label in labelled.items():
        name = group(label)
        if name is not None:
            members.setdefault(name, set()).add(path)
    return [Column(name, frozenset(members[name])) for name in order if name in members]


Metric = Callable[[BenchRow, str], float | None]


def _cells(rows: list[BenchRow], columns: list[Column], metric: Metric) -> dict[str, list[float | None]]:
    out = {}
    for row in rows:
        out[row.label] = [_mean(v for page in sorted(c.pages) if (v := metric(row, page)) is not None) for c in columns]
    return out


def _wcxb_f1(row: BenchRow, page: str) -> float | None:
    score = row.page_wcxb.get(page)
    return None if score is None else score[2]


def _token_f1(row: BenchRow, page: str) -> float | None:
    return row.page_f1.get(page)


def type_breakdown(rows: list[BenchRow], labels: dict[Path, PageLabel]) -> Breakdown | None:
    """Mean F1 of each row on all typed pages, on each page type and on the empty-gold pages (None
    when no scored page has a type)."""
    paths = {page for row in rows for page in row.page_f1}
    labelled = {path: label for path, label in _labelled(paths, labels).items() if label.page_type is not None}
    if not labelled:
        return None
    every = Column("all", frozenset(labelled))
    columns = [every, *_columns(labelled, lambda label: label.page_type, list(PAGE_TYPES))]
    columns += _columns(labelled, lambda label: EMPTY_GOLD if label.gold_empty else None, [EMPTY_GOLD])
    cells = {WCXB_METRIC: _cells(rows, columns, _wcxb_f1), "token F1": _cells(rows, columns, _token_f1)}
    return Breakdown("by page type", columns, cells)


def collection_breakdown(rows: list[BenchRow], labels: dict[Path, PageLabel]) -> Breakdown | None:
    """Mean token F1 of each row per collection (None unless the pages span two collections or more)."""
    paths = {page for row in rows for page in row.page_f1}
    labelled = _labelled(paths, labels)
    names = sorted({label.collection for label in labelled.values()})
    if len(names) < 2:
        return None
    columns = _columns(labelled, lambda label: label.collection, names)
    return Breakdown("by collection", columns, {"token F1": _cells(rows, columns, _token_f1)})


MULTI_PAGE = 2  # a site with at least this many scored pages is one a site model can learn from


def multi_page_breakdown(rows: list[BenchRow], labels: dict[Path, PageLabel]) -> Breakdown | None:
    """Mean F1 of each row on the pages of sites with :data:`MULTI_PAGE` scored pages or more, in
    all and per page type: where fitting on the site can pay (None when the run has no such site,
    or no other)."""
    paths = {page for row in rows for page in row.page_f1}
    sites: dict[Path, set[str]] = {}
    for path in paths:
        sites.setdefault(Path(path).parent, set()).add(path)
    multi = {path for members in sites.values() if len(members) >= MULTI_PAGE for path in members}
    if not multi or multi == paths:
        return None
    hosts = sum(1 for members in sites.values() if len(members) >= MULTI_PAGE)
    labelled = {path: label for path, label in _labelled(multi, labels).items() if label.page_type is not None}
    columns = [Column("all", frozenset(multi))]
    columns += _columns(labelled, lambda label: label.page_type, list(PAGE_TYPES))
    cells = {WCXB_METRIC: _cells(rows, columns, _wcxb_f1), "token F1": _cells(rows, columns, _token_f1)}
    return Breakdown(f"sites with {MULTI_PAGE}+ pages ({hosts})", columns, cells)


def breakdowns(rows: list[BenchRow], labels: dict[Path, PageLabel]) -> list[Breakdown]:
    """The tables this run has pages for: by page type, by collection, on multi-page sites."""
    tables = (type_breakdown(rows, labels), collection_breakdown(rows, labels), multi_page_breakdown(rows, labels))
    return [table for table in tables if table is not None]


def format_breakdown(table: Breakdown) -> str:
    """The table as fixed-width text, one block per metric."""
    blocks = []
    for metric, cells in table.cells.items():
        header = [f"{table.title}, {metric}", *(f"{c.title} ({len(c.pages)})" for c in table.columns)]
        lines = [header] + [[label, *map(format_figure, values)] for label, values in cells.items()]
        blocks.append(fixed_width(lines))
    return "\n\n".join(blocks) + _citation(table)


def breakdown_markdown(table: Breakdown) -> str:
    """The table as Markdown, one table per metric."""
    blocks = []
    for metric, cells in table.cells.items():
        head = f"| {table.title}, {metric} | " + " | ".join(f"{c.title} ({len(c.pages)})" for c in table.columns)
        rule = "|---|" + "---:|" * len(table.columns)
        body = [f"| {label} | " + " | ".join(map(format_figure, values)) + " |" for label, values in cells.items()]
        blocks.append("\n".join([head + " |", rule, *body]))
    return "\n\n".join(blocks) + _citation(table, "\n\n") + "\n"


def _citation(table: Breakdown, before: str = "\n") -> str:
    return before + WCXB_CITATION if WCXB_METRIC in table.cells else ""
