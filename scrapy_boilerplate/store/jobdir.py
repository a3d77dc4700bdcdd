"""Partial samples kept in Scrapy's job directory (``JOBDIR``), so a resumed crawl goes on sampling.

With ``JOBDIR`` a crawl can stop and resume: Scrapy keeps its pending requests and the requests it
has seen there, so the pages sampled before the stop are never fetched again, and their sample
must outlive the process too.  Each open sample of this process is a file
``JOBDIR/boilerplate/samples/<spider>/<domain>.jsonl``: a first line with the sample's generation,
then one line per page (URL and HTML), appended as the page joins the sample.  A process killed in
the middle of a line leaves a torn last line, which is skipped.  A fitted or given-up sample's file
is deleted, and a new generation (the template changed) starts a new file.

A file that cannot be written is reported once through ``on_error``; the crawl goes on with the
samples in memory, as without a job directory.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from pathlib import Path
from urllib.parse import unquote

from scrapy_boilerplate.store.base import StoreError
from scrapy_boilerplate.store.coordination import LocalCoordinator, SampleOffer
from scrapy_boilerplate.store.directory import file_name

SUFFIX = ".jsonl"


def samples_folder(jobdir: str | Path, spider: str) -> Path:
    """Where the partial samples of ``spider`` live in ``jobdir``."""
    return Path(jobdir) / "boilerplate" / "samples" / file_name(spider)


def read_sample(path: Path) -> tuple[int, dict[str, str]] | None:
    """(generation, url -> html) of the sample a file holds; None without a readable first line."""
    lines = path.read_text(encoding="utf-8").splitlines()
    try:
        generation = int(json.loads(lines[0])["generation"])
    except (IndexError, ValueError, KeyError, TypeError):
        return None
    pages: dict[str, str] = {}
    for line in lines[1:]:
        try:
            page = json.loads(line)
            url, html = page["url"], page["html"]
        except (ValueError, KeyError, TypeError):
            continue  # a torn last line (the process was killed while writing it)
        if isinstance(url, str) and isinstance(html, str):
            pages.setdefault(url, html)
    return generation, pages


class JobDirCoordinator(LocalCoordinator):
    """In-process coordination whose open samples are mirrored to files in the job directory."""

    def __init__(self, jobdir: str | Path, spider: str, on_error: Callable[[StoreError], None]) -> None:
        super().__init__()
        self.jobdir = Path(jobdir)
        self._on_error = on_error
        self._failed = False
        self._files = threading.Lock()  # offers come from the crawl's thread, a fit's close from a worker thread
        self._restore(spider)

    def path(self, spider: str, domain: str) -> Path:
        """The file of ``domain``'s open sample."""
        return samples_folder(self.jobdir, spider) / (file_name(domain) + SUFFIX)

    def offer(self, spider: str, domain: str, url: str, html: str, size: int) -> SampleOffer:
        offer = super().offer(spider, domain, url, html, size)
        if offer.accepted:
            first = {"generation": offer.generation} if offer.count == 1 else None
            self._append(spider, domain, first, {"url": url, "html": html})
        return offer

    def finish_sample(self, spider: str, domain: str, generation: int) -> None:
        super().finish_sample(spider, domain, generation)
        if self.state(spider, domain).closed:
            self._remove(spider, domain)

    def restart_sample(self, spider: str, domain: str, generation: int) -> int | None:
        new = super().restart_sample(spider, domain, generation)
        if new is not None:
            self._remove(spider, domain)
        return new

    def _restore(self, spider: str) -> None:
        folder = samples_folder(self.jobdir, spider)
        if not folder.is_dir():
            return
        for path in sorted(folder.glob("*" + SUFFIX)):
            try:
                sample = read_sample(path)
            except (OSError, UnicodeDecodeError) as exc:
                self._failed_at(StoreError(f"cannot read {path}: {exc}", "job directory"))
                continue
            if sample is not None and sample[1]:
                self.restore(spider, unquote(path.name[: -len(SUFFIX)]), *sample)

    def _append(self, spider: str, domain: str, first: dict | None, page: dict) -> None:
        if self._failed:
            return
        path = self.path(spider, domain)
        lines = [json.dumps(first)] if first is not None else []
        lines.append(json.dumps(page, ensure_ascii=False))
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            with self._files, path.open("w" if first is not None else "a", encoding="utf-8") as handle:
                handle.write("\n".join(lines) + "\n")
        except OSError as exc:
            self._failed_at(StoreError(f"cannot write {path}: {exc}", "job directory"))

    def _remove(self, spider: str, domain: str) -> None:
        try:
            with self._files:
                self.path(spider, domain).unlink(missing_ok=True)
        except OSError as exc:
            self._failed_at(StoreError(f"cannot delete {self.path(spider, domain)}: {exc}", "job directory"))

    def _failed_at(self, exc: StoreError) -> None:
        """Stop writing sample files (the samples stay in memory) and report it once."""
        if not self._failed:
            self._failed = True
            self._on_error(exc)
