"""The benchmark crawls' web: the data set's sites behind one local HTTP proxy, a domain per site.

Every crawl uses the server as its HTTP proxy (``http_proxy``), so a request for
``http://s7.bench/p/T105.html`` reaches it with the domain in the request line: one server, any
number of domains.  ``/`` of each domain is a front page linking its pages (``a.page``); pages are
read from the data set by path on every request, never copied.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

LOOPBACK = "127.0.0.1"


def choose_sites(data_dir: Path, case: Any) -> dict[str, list[Path]]:
    """Domain -> its pages: ``case.sites`` sites of ``case.min_pages``-``case.max_pages`` pages (the
    largest first, so 4 sites are the 4 largest); with ``case.reuse_sites``, domains take turns over
    the sites with enough pages, ``case.max_pages`` pages each."""
    sites = sorted(
        (sorted(d.glob("*.html")) for d in data_dir.iterdir() if d.is_dir() and not d.name.startswith("_unknown")),
        key=lambda pages: (-len(pages), str(pages[0]) if pages else ""),
    )
    usable = [pages for pages in sites if len(pages) >= case.min_pages]
    if case.reuse_sites:
        chosen = [usable[i % len(usable)][: case.max_pages] for i in range(case.sites)]
    else:
        chosen = [pages[: case.max_pages] for pages in usable if len(pages) <= case.max_pages][: case.sites]
    if len(chosen) < case.sites:
        raise SystemExit(
            f"{data_dir} has {len(chosen)} sites of {case.min_pages}-{case.max_pages} pages, not {case.sites}"
        )
    return {f"s{i}.bench": pages for i, pages in enumerate(chosen)}


def _handler(domains: dict[str, list[Path]], others: dict[str, list[Path]] | None) -> type[BaseHTTPRequestHandler]:
    """``others``: the hosts layout (see bench_crawl_hosts), each domain's pages that yield no item."""
    from bench_crawl_hosts import hosts_response

    by_name = {domain: {page.name: page for page in pages} for domain, pages in domains.items()}
    others_by_name = {domain: {page.name: page for page in pages} for domain, pages in (others or {}).items()}

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self) -> None:  # the stdlib's name
            url = urlsplit(self.path)
            domain = url.hostname or self.headers.get("Host", "")
            pages = by_name.get(domain)
            if pages is None:
                return self._send(404, b"")
            if others is not None:
                body = hosts_response(pages, others_by_name.get(domain, {}), domain, url.path)
                return self._send(404, b"") if body is None else self._send(200, body)
            if url.path == "/":
                links = "".join(f'<li><a class="page" href="/p/{name}">{name}</a></li>' for name in sorted(pages))
                return self._send(200, f"<html><body><ul>{links}</ul></body></html>".encode())
            page = pages.get(url.path.rsplit("/", 1)[-1]) if url.path.startswith("/p/") else None
            if page is None:
                return self._send(404, b"")
            return self._send(200, page.read_bytes())

        def _send(self, status: int, body: bytes) -> None:
            self.send_response(status)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:  # the stdlib's name
            return

    return Handler


def choose_hosts(
    data_dir: Path, wcxb_dir: Path | None, case: Any
) -> tuple[dict[str, list[Path]], dict[str, list[Path]]]:
    """The hosts layout: ``case``'s Dragnet sites (each page a leaf) and the WCXB hosts with at least
    ``case.min_leaves`` leaf pages: domain -> leaf pages, and domain -> its other pages."""
    from bench_crawl_hosts import wcxb_hosts

    leaves = choose_sites(data_dir, case)
    others: dict[str, list[Path]] = {domain: [] for domain in leaves}
    if wcxb_dir is not None:
        for host, (host_leaves, host_others) in sorted(wcxb_hosts(wcxb_dir, case.min_leaves).items()):
            leaves[host] = host_leaves
            others[host] = host_others
    return leaves, others


@contextlib.contextmanager
def serve_sites(
    data_dir: Path, case: Any, wcxb_dir: Path | None = None
) -> Iterator[tuple[str, list[str], dict[str, list[Path]]]]:
    """Serve ``case``'s sites; yields the proxy URL, each domain's front page, and each domain's
    item pages (its leaf pages in the hosts layout)."""
    if case.layout == "hosts":
        domains, others = choose_hosts(data_dir, wcxb_dir, case)
    else:
        domains, others = choose_sites(data_dir, case), None
    server = ThreadingHTTPServer((LOOPBACK, 0), _handler(domains, others))
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, name="bench sites", daemon=True)
    thread.start()
    try:
        yield (
            f"http://{LOOPBACK}:{server.server_address[1]}",
            [f"http://{domain}/" for domain in domains],
            domains,
        )
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
