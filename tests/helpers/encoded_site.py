"""A local site whose pages come gzip-encoded, and reached through a redirect from ``/moved/PATH``."""

from __future__ import annotations

import gzip
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler
from pathlib import Path
from typing import Any

MOVED = "/moved"


class GzipRedirectHandler(SimpleHTTPRequestHandler):
    """Answers ``/moved/PATH`` with a 301 to ``/PATH``, and every file gzip-compressed
    (``Content-Encoding: gzip``) when the client accepts it."""

    def log_message(self, format: str, *args: Any) -> None:  # the stdlib's name
        return

    def do_GET(self) -> None:  # the stdlib's name
        if self.path.startswith(MOVED + "/"):
            self.send_response(HTTPStatus.MOVED_PERMANENTLY)
            self.send_header("Location", self.path[len(MOVED) :])
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        local = Path(self.translate_path(self.path))
        if not local.is_file() or "gzip" not in self.headers.get("Accept-Encoding", ""):
            super().do_GET()
            return
        body = gzip.compress(local.read_bytes())
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", self.guess_type(str(local)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
