"""Other extractors, scored on the same pages in the same run (needs the ``bench`` extra)."""

from __future__ import annotations

from collections.abc import Callable

from scrapy_boilerplate.html import parse_html, to_text

Extractor = Callable[[str], str]


class PeerUnavailableError(RuntimeError):
    """A peer's package is not installed."""


def _trafilatura() -> Extractor:
    import trafilatura

    def extract(html: str) -> str:
        return trafilatura.extract(html) or ""

    return extract


def _readability() -> Extractor:
    from readability import Document

    def extract(html: str) -> str:
        summary = Document(html).summary(html_partial=True)
        return to_text(parse_html(summary).root) if summary else ""

    return extract


def _html_text() -> Extractor:
    """Everything visible, through our own HTML layer: the recall ceiling and precision floor."""

    def extract(html: str) -> str:
        from scrapy_boilerplate.page import Page

        return to_text(Page(html).body)

    return extract


PEERS: dict[str, Callable[[], Extractor]] = {
    "trafilatura": _trafilatura,
    "readability": _readability,
    "everything": _html_text,
}


def load_peer(name: str) -> Extractor:
    """The extractor function of peer ``name``."""
    try:
        factory = PEERS[name]
    except KeyError:
        raise ValueError(f"unknown peer {name!r}; choose from: {', '.join(PEERS)}") from None
    try:
        return factory()
    except ImportError as exc:
        raise PeerUnavailableError(
            f"peer {name!r} needs {exc.name}, which is not installed: pip install 'scrapy-boilerplate-learner[bench]'"
        ) from exc


__all__ = ["PEERS", "Extractor", "PeerUnavailableError", "load_peer"]
