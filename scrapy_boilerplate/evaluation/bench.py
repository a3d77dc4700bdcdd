"""``bench``: run models and peers over a gold-annotated corpus and score them side by side.

Each model or peer runs in its own child process, so its peak memory is its own and one
crash cannot take the others down.
"""

from __future__ import annotations

import multiprocessing
import resource
import statistics
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

from scrapy_boilerplate.corpus import Site, find_sites, gold_path, page_name
from scrapy_boilerplate.evaluation.heldout import HeldOut
from scrapy_boilerplate.evaluation.metric import MeanScore, Score, mean_score, score_text, wcxb_score
from scrapy_boilerplate.evaluation.peers import load_peer
from scrapy_boilerplate.models.spec import ModelSpec
from scrapy_boilerplate.offline import load_page, process_site
from scrapy_boilerplate.progress import Progress

SITE_LEVEL_MIN_PAGES = 5  # the development set's "site-level" subset: sites with >= 5 pages
LOST_BELOW = 0.5  # a page "lost its article" under a model when its F1 is below this
LOST_PEER = "readability"  # ... while this peer scores at least LOST_PEER_AT on it
LOST_PEER_AT = 0.8


@dataclass
class BenchRow:
    """One model's (or peer's) figures over the corpus."""

    label: str
    all: MeanScore
    site_level: MeanScore
    fit_ms_median: float | None
    clean_ms_median: float
    peak_rss_mb: float
    failures: int
    page_f1: dict[str, float] = field(default_factory=dict, repr=False)  # page path -> F1
    page_wcxb: dict[str, list[float]] = field(default_factory=dict, repr=False)  # page path -> WCXB's P, R, F1
    note: str = ""  # how the figures were measured, when a reader must know (cross-validation)
    lost: int | None = None  # pages whose article this model lost (see count_lost)


def is_site_level(site: Site) -> bool:
    """True for sites with enough gold pages to learn from (``_unknown*`` folders never are)."""
    gold_pages = sum(1 for page in site.pages if gold_path(page).is_file())
    return gold_pages >= SITE_LEVEL_MIN_PAGES and not site.name.startswith("_unknown")


def _write_prediction(pred_dir: Path | None, site: Site, page: Path, text: str) -> None:
    if pred_dir is None:
        return
    target = pred_dir / site.relative / (page_name(page) + ".txt")
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")


Scored = tuple[Site, Path, Score, Score]  # a page's site, path, token score and WCXB score


def _scored(site: Site, path: Path, text: str) -> Scored | None:
    """The page's scores against its gold (None for a page without gold)."""
    gold = _gold(path)
    if gold is None:
        return None
    return site, path, score_text(text, gold), wcxb_score(text, gold)


def _row(
    label: str,
    scored: list[Scored],
    fit_s: list[float],
    clean_s: list[float],
    failures: int,
    note: str = "",
) -> BenchRow:
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return BenchRow(
        label,
        mean_score(score for _, _, score, _ in scored),
        mean_score(score for site, _, score, _ in scored if is_site_level(site)),
        statistics.median(fit_s) * 1000 if fit_s else None,
        statistics.median(clean_s) * 1000 if clean_s else 0.0,
        peak_mb,
        failures,
        {str(path): score.f1 for _, path, score, _ in scored},
        {str(path): [wcxb.p, wcxb.r, wcxb.f1] for _, path, _, wcxb in scored},
        note,
    )


def _gold(page: Path) -> str | None:
    path = gold_path(page)
    return path.read_text(encoding="utf-8", errors="replace") if path.is_file() else None


def _progress(label: str, sites: list[Site], show: bool) -> Progress:
    return Progress(f"bench {label}", len(sites), sum(len(site.pages) for site in sites), show)


def run_model(
    data_dir: Path,
    spec: ModelSpec,
    sample_size: int,
    pred_dir: Path | None,
    show_progress: bool = False,
    folds: Path | None = None,
) -> BenchRow:
    """Fit and clean every site with ``spec`` and score the pages that have gold.

    A model learned from labelled pages is scored on each site with the ``folds`` weights that
    were trained without that site; without ``folds`` its row says when it was trained on them.
    """
    scored: list[Scored] = []
    fit_s, clean_s, failures = [], [], 0
    sites = find_sites(data_dir)
    progress = _progress(spec.label, sites, show_progress)
    held_out = HeldOut(spec, folds)
    for site in sites:
        outcome = process_site(site, held_out.spec_for(site), sample_size, progress.page_done)
        progress.site_done()
        fit_s.append(outcome.fit_seconds)
        for page in outcome.pages:
            failures += page.error is not None
            if page.error is None:
                clean_s.append(page.clean_seconds)
            _write_prediction(pred_dir, site, page.path, page.text)
            if (found := _scored(site, page.path, page.text)) is not None:
                scored.append(found)
    progress.close()
    return _row(held_out.label, scored, fit_s, clean_s, failures, held_out.note())


def run_peer(data_dir: Path, name: str, pred_dir: Path | None, show_progress: bool = False) -> BenchRow:
    """Score peer extractor ``name`` on the same pages, decoded the same way."""
    extract = load_peer(name)
    scored: list[Scored] = []
    clean_s, failures = [], 0
    sites = find_sites(data_dir)
    progress = _progress(name, sites, show_progress)
    for site in sites:
        for path in site.pages:
            text = ""
            try:
                html = load_page(path).html
                started = time.perf_counter()
                text = extract(html)
                clean_s.append(time.perf_counter() - started)
            except Exception:  # peers fail on odd pages; that page scores as empty
                failures += 1
            _write_prediction(pred_dir, site, path, text)
            if (found := _scored(site, path, text)) is not None:
                scored.append(found)
            progress.page_done()
        progress.site_done()
    progress.close()
    return _row(name, scored, [], clean_s, failures)


def _child(
    kind: str, data_dir: str, what: str, sample_size: int, pred_dir: str | None, show_progress: bool, folds: str | None
) -> dict:
    pred = Path(pred_dir) / what.replace(":", "_") if pred_dir else None
    if kind == "model":
        spec = ModelSpec.parse(what)
        row = run_model(Path(data_dir), spec, sample_size, pred, show_progress, Path(folds) if folds else None)
    else:
        row = run_peer(Path(data_dir), what, pred, show_progress)
    return asdict(row)


def _from_dict(data: dict) -> BenchRow:
    data = dict(data)
    data["all"] = MeanScore(**data["all"])
    data["site_level"] = MeanScore(**data["site_level"])
    return BenchRow(**data)


def run_isolated(
    kind: str,
    data_dir: Path,
    what: str,
    sample_size: int,
    pred_dir: Path | None,
    show_progress: bool = False,
    folds: Path | None = None,
) -> BenchRow:
    """Run one model or peer in a fresh child process and return its row.

    With ``show_progress`` the child draws its progress on the (shared) standard error.
    """
    context = multiprocessing.get_context("spawn")
    arguments = (kind, str(data_dir), what, sample_size, str(pred_dir) if pred_dir else None, show_progress)
    with context.Pool(1) as pool:
        data = pool.apply(_child, (*arguments, str(folds) if folds else None))
    return _from_dict(data)


def count_lost(rows: list[BenchRow]) -> None:
    """Set each row's ``lost``: pages under :data:`LOST_BELOW` F1 where the :data:`LOST_PEER` peer
    scores :data:`LOST_PEER_AT` or more (left None when that peer was not run)."""
    peer = next((row for row in rows if row.label == LOST_PEER), None)
    if peer is None:
        return
    for row in rows:
        row.lost = sum(
            1 for path, f1 in row.page_f1.items() if f1 < LOST_BELOW and peer.page_f1.get(path, 0.0) >= LOST_PEER_AT
        )


def format_figure(value: float | None, digits: int = 3) -> str:
    """A figure as the tables print it ("-" when there is none)."""
    return "-" if value is None else f"{value:.{digits}f}"


def format_table(rows: list[BenchRow]) -> str:
    """A fixed-width table, one row per model or peer."""
    header = (
        "model",
        "pages",
        "P",
        "R",
        "F1",
        "site pages",
        "site P",
        "site R",
        "site F1",
        "fit ms/site",
        "clean ms/page",
        "peak MB",
        "failed",
        "lost",
    )
    lines = [header]
    for r in rows:
        lines.append(
            (
                r.label,
                str(r.all.n),
                format_figure(r.all.p),
                format_figure(r.all.r),
                format_figure(r.all.f1),
                str(r.site_level.n),
                format_figure(r.site_level.p),
                format_figure(r.site_level.r),
                format_figure(r.site_level.f1),
                format_figure(r.fit_ms_median, 1),
                format_figure(r.clean_ms_median, 2),
                format_figure(r.peak_rss_mb, 0),
                str(r.failures),
                _lost(r),
            )
        )
    return fixed_width(lines) + "".join("\n" + line for line in footnotes(rows))


def fixed_width(lines: Sequence[Sequence[str]]) -> str:
    """Rows of cells as aligned text: the first column left-aligned, the others right-aligned."""
    widths = [max(len(line[i]) for line in lines) for i in range(len(lines[0]))]
    return "\n".join(
        "  ".join(
            cell.ljust(w) if i == 0 else cell.rjust(w) for i, (cell, w) in enumerate(zip(line, widths, strict=True))
        )
        for line in lines
    )


def _lost(row: BenchRow) -> str:
    if row.lost is None:
        return "-"
    share = row.lost / row.all.n if row.all.n else 0.0
    return f"{row.lost} ({share:.1%})"


def footnotes(rows: list[BenchRow]) -> list[str]:
    """The lines under the table: what "lost" means, and how learned models were measured."""
    notes = [row.note for row in rows if row.note]
    if any(row.lost is not None for row in rows):
        notes.append(
            f"lost: pages with F1 < {LOST_BELOW} where {LOST_PEER} scores >= {LOST_PEER_AT} (the article was lost)"
        )
    return notes


def format_markdown(rows: list[BenchRow]) -> str:
    """The same table as Markdown, for the README."""
    out = [
        "| model | pages | P | R | F1 | site-level pages | P | R | F1 | fit ms/site | clean ms/page | peak MB | lost |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        out.append(
            f"| {r.label} | {r.all.n} | {format_figure(r.all.p)} | {format_figure(r.all.r)} | {format_figure(r.all.f1)} | {r.site_level.n} "
            f"| {format_figure(r.site_level.p)} | {format_figure(r.site_level.r)} | {format_figure(r.site_level.f1)} "
            f"| {format_figure(r.fit_ms_median, 1)} | {format_figure(r.clean_ms_median, 2)} | {format_figure(r.peak_rss_mb, 0)} | {_lost(r)} |"
        )
    notes = footnotes(rows)
    return "\n".join(out) + "\n" + ("\n" + "\n\n".join(notes) + "\n" if notes else "")
