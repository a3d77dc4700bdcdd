"""No test waits by sleeping or bounds wall time.

On a loaded machine a sleep is too short and a time bound too tight, and a sleep long enough to be
safe makes the suite slow.  Tests wait for events instead (a process that stops itself, a server
that says it is ready, a subprocess that ends, with a generous timeout that only fails a hung test)
and assert on counts and stats; the time the code under test reads comes from a clock the test
moves (``twisted.internet.task.Clock``, the page clock of ``helpers.page_clock``).  This scan of
``tests/`` keeps sleeps and clock reads from coming back, except where the allow-list says why.
"""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent

# Calls that wait for a time to pass.
SLEEPS = {"sleep", "deferLater"}
# Clock reads: what a wall-clock bound is made of (``time.X()``, ``datetime.X()``, or imported alone).
CLOCKS = {
    "time",
    "time_ns",
    "monotonic",
    "monotonic_ns",
    "perf_counter",
    "perf_counter_ns",
    "process_time",
    "process_time_ns",
    "thread_time",
    "thread_time_ns",
    "now",
    "utcnow",
}
CLOCK_MODULES = {"time", "datetime", "date"}

# (file under tests/, call) -> why it is no wait of the test and no bound on its time.
ALLOWED = {
    ("helpers/stalling_pipeline.py", "deferLater"): (
        "a user's pipeline that holds some items for a while: the slow neighbour the plugin's pipeline must "
        "cope with in a crawl (the behaviour under test), like a page served slowly; and a reactor turn (0 s)"
    ),
    ("helpers/store_crawl_models.py", "thread_time"): (
        "a test model whose fit costs CPU seconds, so the crawl runs its fits in the thread pool as it does "
        "a slow model's (the behaviour under test); it spends the time, the test asserts no bound on it"
    ),
}


def timing_calls(source: str) -> list[tuple[int, str]]:
    """(line, name) of each sleep and clock read in ``source``."""
    tree = ast.parse(source)
    imported = {  # names bound by ``from time import sleep`` and the like
        alias.asname or alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module in {"time", "asyncio", "twisted.internet.task"}
        for alias in node.names
        if alias.name in SLEEPS | CLOCKS
    }
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Name) and func.id in imported:
            found.append((node.lineno, func.id))
        elif isinstance(func, ast.Attribute):
            owner = func.value.id if isinstance(func.value, ast.Name) else ""
            if (
                func.attr in SLEEPS
                or (func.attr == "callLater" and owner == "reactor")
                or func.attr in CLOCKS
                and owner in CLOCK_MODULES
            ):
                found.append((node.lineno, func.attr))
    return sorted(found)


def hypothesis_deadlines(source: str) -> list[int]:
    """Lines of property tests that keep Hypothesis's default deadline (a wall-clock bound per example)."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        calls = [d for d in node.decorator_list if isinstance(d, ast.Call) and isinstance(d.func, ast.Name)]
        if not any(d.func.id == "given" for d in calls):  # type: ignore[attr-defined]
            continue
        unbounded = any(
            d.func.id == "settings"  # type: ignore[attr-defined]
            and any(
                k.arg == "deadline" and isinstance(k.value, ast.Constant) and k.value.value is None for k in d.keywords
            )
            for d in calls
        )
        if not unbounded:
            lines.append(node.lineno)
    return lines


def test_no_test_sleeps_or_reads_the_clock_outside_the_allow_list():
    found = []
    for path in sorted(TESTS.rglob("*.py")):
        name = path.relative_to(TESTS).as_posix()
        if name.startswith("data/"):
            continue
        for line, call in timing_calls(path.read_text(encoding="utf-8")):
            if (name, call) not in ALLOWED:
                found.append(f"tests/{name}:{line}: {call}()")
    assert found == [], "sleeps or clock reads in tests (wait for an event, give the code a clock):\n" + "\n".join(
        found
    )


def test_every_allowed_call_is_still_there():
    present = {
        (path.relative_to(TESTS).as_posix(), call)
        for path in TESTS.rglob("*.py")
        for _, call in timing_calls(path.read_text(encoding="utf-8"))
    }
    assert set(ALLOWED) <= present, set(ALLOWED) - present


def test_property_tests_have_no_deadline():
    found = [
        f"tests/{path.relative_to(TESTS).as_posix()}:{line}"
        for path in sorted(TESTS.rglob("*.py"))
        for line in hypothesis_deadlines(path.read_text(encoding="utf-8"))
    ]
    assert found == [], "add @settings(deadline=None): " + ", ".join(found)


def test_the_scan_finds_each_kind_of_wait_and_bound():
    source = """
import time, asyncio
from time import monotonic as now
from twisted.internet import reactor
from twisted.internet.task import deferLater
from hypothesis import given, settings

def waits():
    time.sleep(0.1)
    asyncio.sleep(1)
    reactor.callLater(1, print)
    deferLater(reactor, 1, print)
    started = now()
    assert time.perf_counter() - started < 5

def moves_its_own_clock(clock):
    clock.callLater(5, print)
    clock.advance(5)

@given(x=1)
def bounded(x): ...

@settings(deadline=None)
@given(x=1)
def unbounded(x): ...
"""
    assert [call for _, call in timing_calls(source)] == [
        "sleep",
        "sleep",
        "callLater",
        "deferLater",
        "now",
        "perf_counter",
    ]
    assert hypothesis_deadlines(source) == [source.splitlines().index("def bounded(x): ...") + 1]
