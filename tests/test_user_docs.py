"""The user-facing docs speak about the product: no work diary, no paths only a developer has."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
USER_DOCS = [
    ROOT / "README.md",
    *sorted((ROOT / "docs").glob("*.md")),
    ROOT / "benchmarks" / "README.md",
    ROOT / "example_project" / "README.md",
]
# Words about how the work was organised, and dated or mood-of-the-day notes.
PROCESS_WORDS = re.compile(
    r"""
      \bowners?\b | \bissues?\b | \bsessions?\b | \blead\b | development\ machine
    | \bstop[ -]\d+ | \bround\ of\b | \bfollow-up\b | \b20\d\d-\d\d-\d\d\b
    | \btoday\b | \byesterday\b | \bthis\ (?:morning|afternoon|evening)\b | \bthis\ machine\b
    """,
    re.IGNORECASE | re.VERBOSE,
)
SHARED_PATH = re.compile(r"\.\./shared\b")
MAX_README_LINES = 200


def sections(text: str) -> list[tuple[str, str]]:
    """(heading, body) for each top- or second-level section; the text before the first is ''."""
    parts = re.split(r"^(#{1,2} .*)$", text, flags=re.MULTILINE)
    return [("", parts[0]), *zip(parts[1::2], parts[2::2], strict=True)]


@pytest.mark.parametrize("doc", USER_DOCS, ids=lambda path: str(path.relative_to(ROOT)))
def test_no_process_words(doc):
    found = [
        f"line {number}: {match.group(0)!r}"
        for number, line in enumerate(doc.read_text(encoding="utf-8").splitlines(), 1)
        for match in PROCESS_WORDS.finditer(line)
    ]
    assert not found, found


@pytest.mark.parametrize("doc", USER_DOCS, ids=lambda path: str(path.relative_to(ROOT)))
def test_development_paths_only_in_a_development_section(doc):
    misplaced = [
        heading or "(top)"
        for heading, body in sections(doc.read_text(encoding="utf-8"))
        if SHARED_PATH.search(body) and "development" not in heading.lower()
    ]
    assert not misplaced, misplaced


def test_the_readme_is_short():
    assert len((ROOT / "README.md").read_text(encoding="utf-8").splitlines()) <= MAX_README_LINES


def test_the_checks_catch_what_they_are_for():
    assert PROCESS_WORDS.search("What is left needs the owners' decision")
    assert PROCESS_WORDS.search("measured on 2026-11-26 after stop 13")
    assert PROCESS_WORDS.search("This machine was ~30% slower that afternoon")
    assert not PROCESS_WORDS.search("It leads the crawl; an issuer of requests; the sessionless store")
    body = dict(sections("# T\n\n## Use\n\nrun ../shared/x\n\n## Development\n\n../shared/y\n"))
    assert SHARED_PATH.search(body["## Use"]) and SHARED_PATH.search(body["## Development"])
