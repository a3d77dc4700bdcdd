"""A store in this process's memory: what a crawl falls back to when its real store is unreachable."""

from __future__ import annotations

from collections.abc import Iterator

from scrapy_boilerplate.store.base import ModelStore, StatsLike


class MemoryStore(ModelStore):
    """Records in a dict: shared by nothing, kept until the process ends."""

    def __init__(self, stats: StatsLike | None = None) -> None:
        super().__init__(stats)
        self.records: dict[tuple[str, str], bytes] = {}  # (spider, domain) -> the record, encoded as stored

    @property
    def location(self) -> str:
        """Always ``memory``."""
        return "memory"

    def _read(self, spider: str, domain: str) -> bytes | None:
        return self.records.get((spider, domain))

    def _write(self, spider: str, domain: str, data: bytes) -> None:
        self.records[(spider, domain)] = data

    def _delete(self, spider: str, domain: str) -> bool:
        return self.records.pop((spider, domain), None) is not None

    def _keys(self, spider: str | None) -> Iterator[tuple[str, str]]:
        return iter([key for key in self.records if spider is None or key[0] == spider])
