"""Test support for the model store: a Redis server for the session and a template redesign."""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path

import lxml.etree
import lxml.html
import pytest


def _ping(url: str) -> bool:
    import redis

    try:
        return bool(redis.Redis.from_url(url, socket_connect_timeout=0.5).ping())
    except (redis.RedisError, OSError):
        return False


def free_port() -> int:
    """A TCP port on the loopback address that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# Only a server that hangs takes this long to say it is ready: not a bound on its start-up time.
READY_HUNG_AFTER = 60


@contextlib.contextmanager
def running_redis(port: int, workdir: Path) -> Iterator[str]:
    """Yield the URL of a Redis server started here on ``port`` (another free port if a server of
    another test session already answers there), once it says it is ready; shut down after."""
    pytest.importorskip("redis", reason="redis-py is not installed (pip install 'scrapy-boilerplate-learner[redis]')")
    if _ping(f"redis://127.0.0.1:{port}/0"):  # not ours: it may stop while we still need one
        port = free_port()
    url = f"redis://127.0.0.1:{port}/0"
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed (apt-get install redis-server; .ci/run does it)")
    # The server says when it is ready as a systemd service does: READY=1 on the NOTIFY_SOCKET.
    notify = f"@redis-test-{uuid.uuid4().hex}"  # an abstract socket: no file, no path length limit
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as ready:
        ready.bind("\0" + notify[1:])
        ready.settimeout(READY_HUNG_AFTER)
        server = subprocess.Popen(
            [
                "redis-server",
                *("--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"),
                *("--supervised", "systemd", "--daemonize", "no"),
                *("--dir", str(workdir), "--logfile", str(workdir / "redis.log")),
            ],
            env={**os.environ, "NOTIFY_SOCKET": notify},
        )
        try:
            while b"READY=1" not in ready.recv(4096):
                pass
        except TimeoutError:
            server.kill()
            server.wait()
            pytest.fail(f"redis-server did not say it was ready on port {port}: {(workdir / 'redis.log').read_text()}")
    try:
        yield url
    finally:
        import redis

        with contextlib.suppress(redis.RedisError, OSError):
            redis.Redis.from_url(url).shutdown(nosave=True)
        server.wait(timeout=READY_HUNG_AFTER)


def run_out_fit_lock(coordinator, spider: str, domain: str, ttl: float) -> None:
    """End a Redis fit lock as its expiry does, after checking that Redis would expire it within ``ttl``
    seconds: its key goes (``coordinator``: a :class:`RedisCoordinator`)."""
    from scrapy_boilerplate.store.redis_backend import key

    name = key(coordinator.prefix, "lock", spider, domain)
    assert 0 < coordinator.client.pttl(name) <= ttl * 1000
    coordinator.client.delete(name)


def redesign(html: str) -> str:
    """The same page in a new template: every class and id renamed, the body wrapped in new blocks."""
    root = lxml.html.fromstring(html)
    for el in root.iter():
        if not isinstance(el.tag, str):
            continue
        for attribute in ("class", "id"):
            if el.get(attribute):
                el.set(attribute, " ".join("v2-" + token for token in el.get(attribute).split()))
    body = root.find("body")
    shell = lxml.html.Element("div", {"class": "shell"})
    frame = lxml.etree.SubElement(shell, "section", {"class": "frame"})
    for child in list(body):
        frame.append(child)
    body.append(shell)
    return lxml.html.tostring(root, encoding="unicode", doctype="<!DOCTYPE html>")
