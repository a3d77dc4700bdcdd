"""The default store: one JSON record per model at ``<dir>/<spider>/<domain>.json``.

Like Scrapy's HTTP cache, the directory defaults to the project's data path (``.scrapy/``).
Writes go to a temporary file in the same folder, are flushed to disk, then renamed over the
old record with ``os.replace``, so a reader or a crash never sees half a model.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote, unquote

from scrapy_boilerplate.store.base import ModelStore, StatsLike, StoreError, check_name

SUFFIX = ".json"
DEFAULT_DIR = "boilerplate"  # under the project's data path, beside Scrapy's ``httpcache``


def file_name(name: str) -> str:
    """A file-name-safe form of a spider or domain name (reversible; '/' and '%' are escaped)."""
    return quote(name, safe=" .-_:@+,=")


def default_directory() -> Path:
    """``<project data dir>/boilerplate``, i.e. ``.scrapy/boilerplate`` in a Scrapy project."""
    from scrapy.utils.project import data_path

    return Path(data_path(DEFAULT_DIR))


class DirectoryStore(ModelStore):
    """Models as files under ``root``; safe for several processes on one machine."""

    def __init__(self, root: str | os.PathLike[str], stats: StatsLike | None = None) -> None:
        super().__init__(stats)
        self.root = Path(root)

    @property
    def location(self) -> str:
        """The directory path."""
        return str(self.root)

    def check(self, writing: bool = False) -> None:
        """Raise :class:`StoreError` when the directory is missing (when ``writing``: when it cannot be
        made) or cannot be read or written."""
        folder = self.root
        while writing and not folder.exists() and folder != folder.parent:
            folder = folder.parent  # the folder the store's directory would be made in
        if not folder.exists():
            raise StoreError(f"no model store at {self.root}: the directory does not exist", "connect")
        if not folder.is_dir():
            raise StoreError(f"model store {self.root}: {folder} is not a directory", "connect")
        mode = os.R_OK | os.X_OK | (os.W_OK if writing else 0)
        if not os.access(folder, mode):
            raise StoreError(
                f"model store {self.root}: {folder} is not {'writable' if writing else 'readable'}", "connect"
            )

    def path(self, spider: str, domain: str) -> Path:
        """Where the record of ``domain`` lives."""
        return self.root / file_name(spider) / (file_name(domain) + SUFFIX)

    def revision(self, spider: str, domain: str) -> object:
        """The record file's identity and modification time (``os.replace`` changes both)."""
        try:
            stat = self.path(check_name("spider", spider), check_name("domain", domain)).stat()
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise StoreError(f"cannot stat {self.path(spider, domain)}: {exc}") from exc
        return (stat.st_ino, stat.st_mtime_ns, stat.st_size)

    def _read(self, spider: str, domain: str) -> bytes | None:
        try:
            return self.path(spider, domain).read_bytes()
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise StoreError(f"cannot read {self.path(spider, domain)}: {exc}") from exc

    def _write(self, spider: str, domain: str, data: bytes) -> None:
        target = self.path(spider, domain)
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            fd, temp = tempfile.mkstemp(prefix=".tmp-", suffix=SUFFIX, dir=target.parent)
            try:
                with os.fdopen(fd, "wb") as handle:
                    handle.write(data)
                    handle.flush()
                    os.fsync(handle.fileno())
                os.replace(temp, target)
            except BaseException:
                Path(temp).unlink(missing_ok=True)
                raise
        except OSError as exc:
            raise StoreError(f"cannot write {target}: {exc}", "write") from exc

    def _delete(self, spider: str, domain: str) -> bool:
        try:
            self.path(spider, domain).unlink()
            return True
        except FileNotFoundError:
            return False
        except OSError as exc:
            raise StoreError(f"cannot delete {self.path(spider, domain)}: {exc}", "delete") from exc

    def _keys(self, spider: str | None) -> Iterator[tuple[str, str]]:
        if not self.root.is_dir():
            return
        folders = [self.root / file_name(spider)] if spider is not None else sorted(self.root.iterdir())
        for folder in folders:
            if not folder.is_dir():
                continue
            for path in sorted(folder.glob("*" + SUFFIX)):
                if not path.name.startswith(".tmp-"):
                    yield unquote(folder.name), unquote(path.name[: -len(SUFFIX)])
