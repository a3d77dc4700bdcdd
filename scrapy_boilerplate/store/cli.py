"""``scrapy-boilerplate models``: list, show, delete, export and import stored site models.

Export writes JSON Lines, one stored-model record per line, so models move between a directory
and a Redis store (or between machines) with ``export`` on one side and ``import`` on the other.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path
from typing import IO

from scrapy_boilerplate.models.errors import ModelFormatError
from scrapy_boilerplate.store.base import ModelStore, StoreError
from scrapy_boilerplate.store.record import StoreEntry, decode_record
from scrapy_boilerplate.store.redis_backend import DEFAULT_PREFIX


def _action(
    actions: argparse._SubParsersAction, name: str, summary: str, common: argparse.ArgumentParser
) -> argparse.ArgumentParser:
    """A ``models`` sub-command whose own --help starts with the summary the command list shows."""
    return actions.add_parser(name, parents=[common], help=summary, description=summary[0].upper() + summary[1:] + ".")


def add_models_parser(sub: argparse._SubParsersAction) -> None:
    """Register the ``models`` command and its sub-commands on the main parser."""
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--store",
        default=None,
        help="directory or redis:// URL (default: BOILERPLATE_STORE of the Scrapy project here)",
    )
    common.add_argument(
        "--prefix", default=None, help=f"Redis key prefix (default: BOILERPLATE_STORE_PREFIX, else {DEFAULT_PREFIX!r})"
    )
    summary = "manage stored site models (list, show, delete, export, import)"
    models = sub.add_parser("models", help=summary, description=summary[0].upper() + summary[1:] + ".")
    actions = models.add_subparsers(dest="action", required=True)

    listing = _action(actions, "list", "one line per stored model", common)
    listing.add_argument("--spider", default=None, help="only this spider's models")
    show = _action(actions, "show", "a stored model's metadata as JSON, with its site rules as CSS selectors", common)
    delete = _action(actions, "delete", "remove stored models", common)
    for parser in (show, delete):
        parser.add_argument("spider", help="the spider whose models to use")
        parser.add_argument("domains", nargs="+", metavar="domain", help="a domain, as models list shows it")
    export = _action(actions, "export", "write records as JSON Lines", common)
    export.add_argument("--spider", default=None, help="only this spider's models")
    export.add_argument("--domain", action="append", default=None, help="only this domain (repeatable)")
    export.add_argument("file", help="output file, - for standard output")
    load = _action(actions, "import", "read records written by export", common)
    load.add_argument("file", help="input file, - for standard input")
    load.add_argument(
        "--force",
        action="store_true",
        help="replace stored models even when they were fitted on more pages or later than the imported ones",
    )


def open_for_command(location: str | None, prefix: str | None) -> ModelStore:
    """The store a command names (a directory or Redis URL), else the Scrapy project's here; raises
    ``ValueError`` or ``ImportError`` for a location that cannot name a store."""
    from scrapy_boilerplate.store.factory import open_store, store_from_settings

    if location:
        return open_store(location, prefix=prefix or DEFAULT_PREFIX)
    from scrapy.utils.project import get_project_settings

    settings = get_project_settings()
    if prefix:
        settings.set("BOILERPLATE_STORE_PREFIX", prefix, priority="cmdline")
    return store_from_settings(settings)


def _size(n: int) -> str:
    size: float = n
    for unit in ("B", "KiB"):
        if size < 1024:
            return f"{n} B" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024
    return f"{size:.1f} MiB"


def _when(timestamp: float) -> str:
    return datetime.fromtimestamp(timestamp, tz=timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")


def _list(store: ModelStore, args: argparse.Namespace) -> int:
    entries = store.list(args.spider)
    rows = [("SPIDER", "DOMAIN", "MODEL", "PAGES", "FITTED AT", "SIZE")]
    rows += [(e.spider, e.domain, e.model, str(e.pages), _when(e.fitted_at), _size(e.size)) for e in entries]
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=False)).rstrip())
    print(f"{len(entries)} models in {store.location}" + (f", {store.corrupt} unusable" if store.corrupt else ""))
    return 0


def _details(entry: StoreEntry) -> dict:
    details = entry.to_json()
    details["fitted_at"] = _when(entry.fitted_at)
    details["size"] = entry.size
    if entry.baseline is not None:
        details["baseline"]["signatures"] = len(entry.baseline.signatures)
    return details


def _show(store: ModelStore, args: argparse.Namespace) -> int:
    missing = 0
    for domain in args.domains:
        stored = store.get(args.spider, domain)
        if stored is None:
            print(f"models show: no usable model for {args.spider}/{domain} in {store.location}", file=sys.stderr)
            missing += 1
            continue
        details = _details(stored.entry)
        selectors = getattr(stored.model, "rule_selectors", None)
        if callable(selectors):  # a model with site rules shows them as CSS selectors
            details["site_rules"] = selectors()
        print(json.dumps(details, indent=1, ensure_ascii=False))
    return 1 if missing else 0


def _delete(store: ModelStore, args: argparse.Namespace) -> int:
    missing = [domain for domain in args.domains if not store.delete(args.spider, domain)]
    print(
        f"deleted {len(args.domains) - len(missing)} models" + (f"; not found: {', '.join(missing)}" if missing else "")
    )
    return 1 if missing else 0


def _export(store: ModelStore, args: argparse.Namespace) -> int:
    keys = [(e.spider, e.domain) for e in store.list(args.spider) if not args.domain or e.domain in args.domain]
    written = 0
    with _output(args.file) as out:
        for spider, domain in keys:
            data = store.get_record(spider, domain)
            if data is not None:
                out.write(data + b"\n")
                written += 1
    print(f"exported {written} models from {store.location}", file=sys.stderr if args.file == "-" else sys.stdout)
    return 0


def _lines(file: str) -> Iterator[bytes]:
    if file == "-":
        yield from (line.rstrip(b"\r\n") for line in sys.stdin.buffer if line.strip())
        return
    with Path(file).open("rb") as handle:
        yield from (line.rstrip(b"\r\n") for line in handle if line.strip())


def _fitted(entry: StoreEntry) -> str:
    return f"fitted on {entry.pages} pages at {_when(entry.fitted_at)}"


def _kept(store: ModelStore, incoming: StoreEntry) -> StoreEntry | None:
    """The stored model of ``incoming``'s domain when it was fitted on more pages or later, else None."""
    stored = store.entry(incoming.spider, incoming.domain)
    if stored is None or (stored.pages <= incoming.pages and stored.fitted_at <= incoming.fitted_at):
        return None
    return stored


def _import(store: ModelStore, args: argparse.Namespace) -> int:
    imported = failed = kept = 0
    for number, line in enumerate(_lines(args.file), 1):
        try:
            incoming = decode_record(line).entry
        except ModelFormatError as exc:
            print(f"models import: line {number} skipped: {exc}", file=sys.stderr)
            failed += 1
            continue
        stored = None if args.force else _kept(store, incoming)
        if stored is not None:
            print(
                f"models import: line {number} skipped: the stored model of {incoming.spider}/{incoming.domain} "
                f"({_fitted(stored)}) is kept over the imported one ({_fitted(incoming)}); --force replaces it",
                file=sys.stderr,
            )
            kept += 1
            continue
        store.put_record(line)
        imported += 1
    skipped = [f"{failed} skipped"] * bool(failed) + [f"{kept} kept as stored"] * bool(kept)
    print(f"imported {imported} models into {store.location}" + "".join(f", {part}" for part in skipped))
    return 1 if failed or kept else 0


class _output:
    """A binary output for a path, or standard output for ``-``."""

    def __init__(self, file: str) -> None:
        self._file = file
        self._handle: IO[bytes] | None = None

    def __enter__(self) -> IO[bytes]:
        self._handle = sys.stdout.buffer if self._file == "-" else Path(self._file).open("wb")
        return self._handle

    def __exit__(self, *exc: object) -> None:
        if self._handle is not None and self._handle is not sys.stdout.buffer:
            self._handle.close()
        elif self._handle is not None:
            self._handle.flush()


ACTIONS = {"list": _list, "show": _show, "delete": _delete, "export": _export, "import": _import}


def run_models(args: argparse.Namespace) -> int:
    """Run one ``models`` sub-command; store failures end with a message and exit status 2."""
    try:
        store = open_for_command(args.store, args.prefix)
    except (ValueError, ImportError) as exc:
        print(f"models: {exc}", file=sys.stderr)
        return 2
    try:
        store.check(writing=args.action == "import")  # only an import may make a new directory store
        return ACTIONS[args.action](store, args)
    except (StoreError, ValueError, OSError) as exc:
        print(f"models {args.action}: {exc}", file=sys.stderr)
        return 2
    finally:
        store.close()
