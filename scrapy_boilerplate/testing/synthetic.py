"""Synthetic multi-page sites with a known article text, for tests, demos and benchmarks.

Each site has a shared template (header, navigation, cookie banner, sidebar, related links,
comments, footer) around a varying article, with some layout variation between pages, so a
model's output can be checked against the article text it should keep.
"""

from __future__ import annotations

import html
import random
from collections.abc import Callable
from dataclasses import dataclass

_WORDS = [
    "river",
    "harbor",
    "council",
    "winter",
    "market",
    "railway",
    "garden",
    "village",
    "engineer",
    "report",
    "school",
    "budget",
    "storm",
    "bridge",
    "museum",
    "season",
    "harvest",
    "mayor",
    "library",
    "festival",
    "county",
    "station",
    "orchard",
    "lantern",
    "meadow",
    "factory",
    "voyage",
    "ledger",
    "quarry",
    "tunnel",
    "beacon",
    "granary",
    "canal",
    "archive",
    "furnace",
    "pasture",
    "chapel",
    "timber",
    "cargo",
    "signal",
    "compass",
    "harbour",
    "valley",
    "summit",
]
_VERBS = [
    "opened",
    "reported",
    "announced",
    "described",
    "measured",
    "repaired",
    "visited",
    "planned",
    "studied",
    "built",
]
_ADJECTIVES = [
    "new",
    "old",
    "northern",
    "quiet",
    "busy",
    "early",
    "late",
    "local",
    "public",
    "narrow",
    "broad",
    "famous",
]


@dataclass(frozen=True)
class SyntheticPage:
    """One generated page and the ground truth of its main content."""

    url: str
    html: str
    title: str
    article_text: str
    template_texts: tuple[str, ...]


def _sentence(rng: random.Random) -> str:
    words = [
        rng.choice(_ADJECTIVES),
        rng.choice(_WORDS),
        rng.choice(_VERBS),
        "the",
        rng.choice(_ADJECTIVES),
        rng.choice(_WORDS),
    ]
    words += rng.sample(_WORDS, rng.randint(3, 9))
    return " ".join(words).capitalize() + "."


def _paragraph(rng: random.Random) -> str:
    return " ".join(_sentence(rng) for _ in range(rng.randint(2, 5)))


def _title(rng: random.Random) -> str:
    return f"The {rng.choice(_ADJECTIVES)} {rng.choice(_WORDS)} {rng.choice(_VERBS)} in {rng.choice(_WORDS)} {rng.randint(2, 99)}".title()


@dataclass(frozen=True)
class _Template:
    site: str
    nav: tuple[str, ...]
    sidebar: tuple[str, ...]
    footer: str
    cookie: str


def _template(site: str, rng: random.Random) -> _Template:
    nav = tuple(w.title() for w in rng.sample(_WORDS, 7))
    sidebar = tuple(_title(rng) for _ in range(5))
    footer = f"Copyright {site}. All rights reserved. Contact the {rng.choice(_WORDS)} desk."
    cookie = "We use cookies to improve your experience. Accept all cookies or manage settings."
    return _Template(site, nav, sidebar, footer, cookie)


def _esc(text: str) -> str:
    return html.escape(text, quote=True)


def _render(
    t: _Template,
    url: str,
    title: str,
    paragraphs: list[str],
    related: list[tuple[str, str]],
    comments: list[str],
    variant: int,
) -> str:
    nav = "".join(f'<li><a href="/{w.lower()}/">{_esc(w)}</a></li>' for w in t.nav)
    side = "".join(f'<li><a href="/p/{i}">{_esc(s)}</a></li>' for i, s in enumerate(t.sidebar))
    rel = "".join(f'<li><a href="{href}">{_esc(s)}</a></li>' for href, s in related)
    com = "".join(
        f'<div class="comment"><span class="who">reader{i}</span><p>{_esc(c)}</p></div>' for i, c in enumerate(comments)
    )
    body = "".join(f"<p>{_esc(p)}</p>" for p in paragraphs)
    article = f'<article class="post"><h1>{_esc(title)}</h1><div class="entry">{body}</div></article>'
    sidebar = f'<aside class="sidebar"><h3>Popular</h3><ul>{side}</ul><div class="ad">Advertisement</div></aside>'
    banner = (
        f'<div class="breaking"><a href="/live">Live updates from the {_esc(t.site)} newsroom</a></div>'
        if variant == 2
        else ""
    )
    main = (
        f'<div class="main">{banner}{article}<div class="related"><h3>Related</h3><ul>{rel}</ul></div>'
        f'<div class="comments"><h3>Comments</h3>{com}</div></div>'
    )
    columns = main + sidebar if variant != 1 else sidebar + main
    return (
        f'<!DOCTYPE html><html><head><meta charset="utf-8"><title>{_esc(title)} | {_esc(t.site)}</title>'
        f"<style>body{{font-family:serif}}</style><script>var tracking = 1;</script></head><body>"
        f'<div id="cookie-banner">{_esc(t.cookie)}</div>'
        f'<header><a class="logo" href="/">{_esc(t.site)}</a><nav><ul>{nav}</ul></nav></header>'
        f'<div class="wrap">{columns}</div>'
        f"<footer><p>{_esc(t.footer)}</p></footer></body></html>"
    )


def make_site(
    site: str = "example.com",
    n_pages: int = 10,
    seed: int = 0,
    variation: bool = True,
    linked: bool = False,
    paragraphs: Callable[[random.Random, int], list[str]] | None = None,
    page_kb: int = 0,
) -> list[SyntheticPage]:
    """``n_pages`` pages of one site sharing a template; with ``variation``, some pages differ in
    layout (sidebar first, an extra banner) the way real templates drift between sections.
    With ``linked``, related links point at the site's own articles (``/article/N.html``, the
    next article always among them), so a crawler reaches every page from the first one.
    ``paragraphs(rng, i)``, when given, writes page ``i``'s article body (e.g. from real prose).
    ``page_kb`` pads each page to about that size the way real pages are heavy: inline scripts
    (most of the bytes) and a footer sitemap of links, both template."""
    rng = random.Random(f"{site}/{seed}")
    template = _template(site, rng)
    titles = [_title(rng) for _ in range(n_pages)]
    pages = []
    for i, title in enumerate(titles):
        body = paragraphs(rng, i) if paragraphs is not None else [_paragraph(rng) for _ in range(rng.randint(3, 7))]
        related_ids = rng.sample([j for j in range(n_pages) if j != i], min(4, n_pages - 1))
        if linked and n_pages > 1 and (i + 1) % n_pages not in related_ids:
            related_ids[-1] = (i + 1) % n_pages
        related = [(f"/article/{j}.html" if linked else f"/r/{k}", titles[j]) for k, j in enumerate(related_ids)]
        comments = [_sentence(rng) for _ in range(rng.randint(0, 3))]
        variant = (i % 5) if variation else 0
        url = f"http://{site}/article/{i}.html"
        page_html = _render(template, url, title, body, related, comments, variant if variant in (1, 2) else 0)
        if page_kb:
            page_html = _pad(page_html, page_kb * 1024, template)
        template_texts = (*template.nav, *template.sidebar, template.footer, template.cookie)
        pages.append(SyntheticPage(url, page_html, title, "\n\n".join([title, *body]), template_texts))
    return pages


def _pad(page_html: str, size: int, t: _Template) -> str:
    """``page_html`` grown to about ``size`` characters: nine tenths inline script, one tenth sitemap."""
    missing = size - len(page_html)
    if missing <= 0:
        return page_html
    links = "".join(f'<li><a href="/{w.lower()}/{i}">{_esc(w)} {i}</a></li>' for i, w in enumerate(t.nav * 400))
    sitemap = f'<div class="sitemap"><ul>{links[: missing // 10]}</ul></div>'
    script = "<script>var config = " + ("{'tracking': [1, 2, 3], 'ads': 'slot'}, " * (missing // 40)) + "0;</script>"
    return page_html.replace("</head>", script + "</head>", 1).replace("</footer>", sitemap + "</footer>", 1)


def write_corpus(root: str, sites: dict[str, int], seed: int = 0) -> int:
    """Write synthetic sites as ``root/<site>/NN.html`` plus gold ``NN.txt``; returns pages written."""
    from pathlib import Path

    written = 0
    for index, (site, n_pages) in enumerate(sorted(sites.items())):
        folder = Path(root) / site
        folder.mkdir(parents=True, exist_ok=True)
        for i, page in enumerate(make_site(site, n_pages, seed=seed + index)):
            (folder / f"{i:02d}.html").write_text(page.html, encoding="utf-8")
            (folder / f"{i:02d}.txt").write_text(page.article_text + "\n", encoding="utf-8")
            written += 1
    return written
