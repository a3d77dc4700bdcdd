"""The cut point (n, a) of the n-gram paper, and its Fig. 3 walk to the lowest alternation count."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class CutPoint:
    """A cut point (n, a) and the alternation count it attains."""

    n: int
    a: int
    alternation: int


def fig3_walk(count: Callable[[int, int], int], longest: int) -> CutPoint:
    """Fig. 3: walk from (2, 1) to the neighbour that lowers ``count(n, a)`` until none does.

    Guarded: n never passes the longest document, a stays below 100.  Shared by the plain-Python
    reference (:mod:`.reference`) and the numpy version (:mod:`.find_optimal`), which differ only
    in ``count``.
    """
    n, a = 2, 1
    val0 = count(n, a)
    while n <= longest and a < 100:
        val1 = count(n, a + 1)
        val2 = count(n + 1, a)
        if val0 <= val1 and val0 <= val2:
            break
        if val0 > val1 and val1 < val2:
            a, val0 = a + 1, val1
        elif val0 > val2 and val2 <= val1:
            n, val0 = n + 1, val2
    return CutPoint(n, a, val0)
