"""The crawl's timers: the reactor's in a crawl, a test's own clock (``twisted.internet.task.Clock``) in tests."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, cast

from twisted.internet.task import LoopingCall

if TYPE_CHECKING:
    from twisted.internet.interfaces import IDelayedCall, IReactorTime


class Clock(Protocol):
    """What the parts use of a clock: Twisted's ``IReactorTime`` in its two calls."""

    def callLater(self, delay: float, callable: Callable[..., Any], *args: Any) -> IDelayedCall:
        """Call ``callable(*args)`` in ``delay`` seconds."""

    def seconds(self) -> float:
        """The time now, in seconds."""


class ReactorClock:
    """The reactor's timers, with the time read from the monotonic clock (a wall-clock jump moves no deadline)."""

    def __init__(self) -> None:
        from twisted.internet import reactor  # imported late: the crawler installs the reactor

        # Declared here: Twisted types the reactor by interfaces whose methods have no ``self``, so mypy
        # would take callLater's delay for its ``self`` and the callable for the delay.
        self._call_later: Callable[..., IDelayedCall] = reactor.callLater

    def callLater(self, delay: float, callable: Callable[..., Any], *args: Any) -> IDelayedCall:
        """Call ``callable(*args)`` in ``delay`` seconds, on the reactor."""
        return self._call_later(delay, callable, *args)

    def seconds(self) -> float:
        """The monotonic time, in seconds."""
        return time.monotonic()


def looping_call(function: Callable[[], object], clock: Clock) -> LoopingCall:
    """A ``LoopingCall`` of ``function`` whose timers are ``clock``'s."""
    loop = LoopingCall(function)
    loop.clock = cast("IReactorTime", clock)
    return loop
