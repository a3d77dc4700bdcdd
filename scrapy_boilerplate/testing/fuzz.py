"""Fuzz every built-in model, page decoding, the crawl pipeline and model loading with seeded mutants.

What must hold (each breach is a failure, with the model and the mutations that caused it):

- making a :class:`~scrapy_boilerplate.page.Page` from any bytes and any ``Content-Type`` (and
  parsing it) never raises;
- ``fit`` on a sample with mutants in it and ``clean`` of any mutant never raise, and the text is a ``str``;
- the pipeline returns every item (bytes or text HTML), with a ``str`` text when it cleaned it;
- loading a damaged model file, alone or inside a store record, raises ``ModelFormatError`` only.

Apart from the failures, the report lists the cleans of pages under the crawl's size cap
(``BOILERPLATE_MAX_PAGE_BYTES``) that took a model more than ``SECONDS_PER_100KB`` of CPU time per
100 KB (parsing included): a time budget, which the long run (``benchmarks/fuzz.py``) enforces and
the suite does not (CPU time moves with the machine's load).

Mutants come from :mod:`~scrapy_boilerplate.testing.mutants`; the same seed gives the same run.
"""

from __future__ import annotations

import gc
import random
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from scrapy_boilerplate.models.base import ModelFormatError, SiteModel
from scrapy_boilerplate.models.registry import available_models, get_model_class
from scrapy_boilerplate.models.serialization import dump_model, load_model
from scrapy_boilerplate.page import Page
from scrapy_boilerplate.testing.mutants import PageMutant, mutate_model_file, mutate_page
from scrapy_boilerplate.testing.synthetic import make_site

SECONDS_PER_100KB = 1.0
# Small pages get this much time at least: a clean of a few kilobytes is a few milliseconds, and
# a pause of the process (garbage collection, another job on the machine) must not count as slow.
MIN_BUDGET_SECONDS = 0.1
MAX_PAGE_BYTES = 5_000_000  # the crawl's default BOILERPLATE_MAX_PAGE_BYTES: larger pages are not cleaned
SAMPLE_SIZE = 6
DOMAIN = "fuzz.example"


@dataclass(frozen=True)
class Failure:
    """One breach: where (``construct``, ``fit``, ``clean``, ``slow``, ``pipeline``, ``load``,
    ``record``), which model, what was done to the input, and the error (for ``slow``, the time)."""

    step: str
    model: str
    mutations: tuple[str, ...]
    error: str


@dataclass(frozen=True)
class Timing:
    """One clean's time and the page it cleaned."""

    seconds: float
    size: int
    model: str
    mutations: tuple[str, ...]

    @property
    def per_100kb(self) -> float:
        """Seconds per 100 KB of page."""
        return self.seconds / max(self.size / 100_000, 1e-9)


@dataclass
class FuzzReport:
    """What a run did and found."""

    cases: int = 0  # mutant pages, each decoded, cleaned by every model and passed through the pipeline
    model_files: int = 0  # damaged model files loaded (as files and as store records)
    fits: int = 0
    cleans: int = 0
    failures: list[Failure] = field(default_factory=list)
    slow: list[Failure] = field(default_factory=list)  # cleans over the time budget (see the module docstring)
    slowest: Timing | None = None  # the longest clean of a page under the size cap

    def time(self, timing: Timing) -> None:
        """Count one clean; note it when it breaches the time budget."""
        self.cleans += 1
        if timing.size <= MAX_PAGE_BYTES:
            if self.slowest is None or timing.seconds > self.slowest.seconds:
                self.slowest = timing
            if timing.seconds > max(SECONDS_PER_100KB * timing.size / 100_000, MIN_BUDGET_SECONDS):
                self.slow.append(
                    Failure("slow", timing.model, timing.mutations, f"{timing.seconds:.2f} s for {timing.size} bytes")
                )


def builtin_models() -> list[str]:
    """Every model that ships with the package (test or user models registered at run time are left out)."""
    return [name for name in available_models() if get_model_class(name).__module__.startswith("scrapy_boilerplate.")]


def seed_sites(folders: Iterable[str | Path] = (), synthetic: int = 4) -> list[list[bytes]]:
    """Raw pages grouped by site: every folder holding ``*.html`` files under ``folders``, plus
    ``synthetic`` generated sites of 8 pages."""
    sites = []
    for folder in folders:
        for directory in sorted({path.parent for path in Path(folder).rglob("*.html")}):
            pages = [path.read_bytes() for path in sorted(directory.glob("*.html"))]
            if len(pages) >= 2:
                sites.append(pages)
    for n in range(synthetic):
        sites.append([page.html.encode("utf-8") for page in make_site(f"site{n}.example", 8, seed=n)])
    return sites


def _guard(report: FuzzReport, step: str, model: str, mutations: tuple[str, ...], call: Any, *args: Any) -> Any:
    """``call(*args)``, recording anything it raises as a failure (then None)."""
    try:
        return call(*args)
    except Exception as exc:  # every exception is what the fuzz looks for
        report.failures.append(Failure(step, model, mutations, repr(exc)[:300]))
        return None


def _page(report: FuzzReport, mutant: PageMutant, url: str) -> Page | None:
    def construct() -> Page:
        page = Page.from_bytes(mutant.body, url, mutant.content_type)
        page.parse()
        return page

    return _guard(report, "construct", "-", mutant.mutations, construct)


def _clean(report: FuzzReport, model: SiteModel, page: Page, mutant: PageMutant) -> None:
    # CPU time of this thread with garbage collection paused: other jobs on the machine, and a full
    # collection of what earlier work left (a whole test session's heap), do not make a clean slow
    collecting = gc.isenabled()
    gc.disable()
    try:
        started = time.thread_time()
        cleaned = _guard(report, "clean", model.name, mutant.mutations, model.clean, page)
        seconds = time.thread_time() - started
    finally:
        if collecting:
            gc.enable()
    if cleaned is None:
        return
    if not isinstance(cleaned.text, str):
        report.failures.append(Failure("clean", model.name, mutant.mutations, f"text is {type(cleaned.text)}"))
    report.time(Timing(seconds, len(mutant.body), model.name, mutant.mutations))


def run_fuzz(
    cases: int,
    seed: int = 0,
    folders: Iterable[str | Path] = (),
    model_files: int | None = None,
    fit_every: int = 16,
    models: list[str] | None = None,
) -> FuzzReport:
    """Fuzz ``cases`` mutant pages (models re-fitted on a mutated sample every ``fit_every``) and
    ``model_files`` damaged model files (default: a third of ``cases``)."""
    from scrapy_boilerplate.testing.fuzz_pipeline import PipelineProbe

    rng = random.Random(seed)
    report = FuzzReport()
    names = models or builtin_models()
    sites = seed_sites(folders)
    fitted: dict[str, SiteModel] = {}
    while report.cases < cases:
        site = rng.choice(sites)
        fitted = _fit_all(report, rng, site, names) or fitted
        probe = PipelineProbe(rng.choice(list(fitted.values()))) if fitted else None
        for _ in range(min(fit_every, cases - report.cases)):
            mutant = mutate_page(rng, rng.choice(site))
            report.cases += 1
            page = _page(report, mutant, f"http://{DOMAIN}/page")
            if page is None:
                continue
            for model in fitted.values():
                _clean(report, model, Page(page.html, page.url), mutant)
            if probe is None:
                continue
            error = probe.check(mutant, rng.random() < 0.5)
            if error is not None:
                report.failures.append(Failure("pipeline", probe.model.name, mutant.mutations, error))
    _load_damaged_files(report, rng, fitted, cases // 3 if model_files is None else model_files)
    return report


def _fit_all(report: FuzzReport, rng: random.Random, site: list[bytes], names: list[str]) -> dict[str, SiteModel]:
    """Every model fitted on a sample of ``site`` where about half the pages are mutants."""
    sample: list[Page] = []
    mutations: list[str] = []
    for body in rng.sample(site, min(SAMPLE_SIZE, len(site))):
        mutant = mutate_page(rng, body) if rng.random() < 0.5 else PageMutant(body, None, ())
        mutations.extend(mutant.mutations)
        page = _page(report, mutant, f"http://{DOMAIN}/sample/{len(sample)}")
        if page is not None:
            sample.append(page)
    fitted = {}
    for name in names:
        report.fits += 1
        model = _guard(report, "fit", name, tuple(mutations), lambda n=name: get_model_class(n)().fit(sample))
        if model is not None:
            fitted[name] = model
    return fitted


def _load_damaged_files(report: FuzzReport, rng: random.Random, fitted: dict[str, SiteModel], count: int) -> None:
    """Damaged copies of the fitted models' files: loading raises ModelFormatError or nothing."""
    from scrapy_boilerplate.store.record import StoredModel, decode_record, encode_record

    if not fitted or not count:
        return
    files = {name: dump_model(model) for name, model in fitted.items()}
    records = {
        name: encode_record(StoredModel.new("fuzz", DOMAIN, model, SAMPLE_SIZE)) for name, model in fitted.items()
    }
    for _ in range(count):
        name = rng.choice(sorted(files))
        damaged, how = mutate_model_file(rng, files[name])
        report.model_files += 1
        for step, data, load in (
            ("load", damaged, load_model),
            ("record", records[name].replace(files[name], damaged, 1), decode_record),
        ):
            try:
                load(data)
            except ModelFormatError:
                pass
            except Exception as exc:  # anything but ModelFormatError is a breach
                report.failures.append(Failure(step, name, (how,), repr(exc)[:300]))
