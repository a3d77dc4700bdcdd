"""The site-model contract: ``fit(pages) -> self``, ``clean(page) -> CleanedPage``, and the learned state.

Shaped after scikit-learn estimators: the constructor stores parameters only, ``fit`` sets the
learned state (attributes named with a trailing underscore, ``cut_``), ``clean`` refuses to run
before ``fit`` and never mutates its input.  Saving and loading belong to
:mod:`~scrapy_boilerplate.models.serialization`, which reads and restores a model through
:meth:`SiteModel.get_state` and :meth:`SiteModel.set_state`; this module imports neither it nor the
registry.
"""

from __future__ import annotations

import abc
import inspect
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar, overload

from scrapy_boilerplate.models.errors import ModelFormatError, NotFittedError
from scrapy_boilerplate.page import Page

ModelT = TypeVar("ModelT", bound="SiteModel")
T = TypeVar("T")


@dataclass(frozen=True)
class Decision:
    """Why one region of a page was kept or removed, in the model's own terms (for inspection)."""

    path: str
    kept: bool
    chars: int
    reason: str


Decisions = tuple[Decision, ...]


@dataclass(frozen=True)
class PageType:
    """What kind of page it is (:mod:`scrapy_boilerplate.pagetype`): the most probable type and
    the probability of every type."""

    label: str
    probabilities: dict[str, float]

    @property
    def confidence(self) -> float:
        """The probability of :attr:`label`."""
        return self.probabilities.get(self.label, 0.0)


# A model's named state arrays: numpy arrays, or ``array.array`` where its ``numpy_state`` is False.
# Any, so that each model declares the one kind it saves and the loader gives it back.
StateArrays = dict[str, Any]


class _Deferred(Generic[T]):
    """A field of :class:`CleanedPage` given as a value or as a function making it, called on first read.

    A crawl reads neither the cleaned HTML (unless BOILERPLATE_CLEANED_HTML_FIELD is set) nor the
    decisions (they are for the inspection report), so a model may hand over functions instead of
    serialising its output and naming every region on every clean; what they return is kept.
    """

    def __init__(self, slot: str, default: T | None = None) -> None:
        self.slot = slot  # where the instance keeps the value or the function
        self.default = default  # what the dataclass __init__ stores when the field was not given

    @overload
    def __get__(self, page: None, owner: type | None = None) -> _Deferred[T]: ...
    @overload
    def __get__(self, page: CleanedPage, owner: type | None = None) -> T: ...
    def __get__(self, page: CleanedPage | None, owner: type | None = None) -> T | _Deferred[T]:
        if page is None:
            return self  # read off the class: the field's default
        value = page.__dict__[self.slot]
        if callable(value):
            value = page.__dict__[self.slot] = value()
        return value

    def __set__(self, page: CleanedPage, value: T | Callable[[], T]) -> None:
        # only the dataclass __init__ gets here (the class is frozen); it passes this very object
        # when the field was not given, as it is the field's default
        default = self.default
        page.__dict__[self.slot] = default if value is self else value

    def __repr__(self) -> str:
        return repr(self.default)  # the default as signatures show it


@dataclass(frozen=True)
class CleanedPage:
    """What cleaning a page gives: the main text, the cleaned HTML, and how much was removed.

    ``page_type`` is the page's type where it was told (:meth:`with_page_type`).  ``html``,
    ``decisions`` and ``page_type`` may each be passed as a zero-argument function returning the value:
    it is called the first time the field is read (in a crawl, the HTML only when an item field
    receives it, the decisions never), and what it returned is kept.  Such a function reads the
    page's tree, which is read-only (:class:`~scrapy_boilerplate.page.Page`), so it gives what it
    would have given during the clean.
    """

    text: str
    html: str
    model: str
    total_chars: int
    kept_chars: int
    score: float | None = None
    decisions: _Deferred[Decisions] = field(default=_Deferred("_decisions", ()), repr=False)
    coverage: float | None = None  # share of the blocks a site's rules decided (None: a model without rules)
    page_type: _Deferred[PageType | None] = field(default=_Deferred("_page_type", None), repr=False)

    if TYPE_CHECKING:  # the dataclass __init__, with the functions ``html`` and ``decisions`` may be given as

        def __init__(
            self,
            text: str,
            html: str | Callable[[], str],
            model: str,
            total_chars: int,
            kept_chars: int,
            score: float | None = None,
            decisions: Decisions | Callable[[], Decisions] = (),
            coverage: float | None = None,
            page_type: PageType | Callable[[], PageType | None] | None = None,
        ) -> None: ...

    def __getstate__(self) -> dict[str, Any]:
        """Pickled and deep-copied with every deferred field made (a function of a clean may not pickle)."""
        return {**self.__dict__, "_html": self.html, "_decisions": self.decisions, "_page_type": self.page_type}

    def with_page_type(self, page_type: PageType | Callable[[], PageType | None] | None) -> CleanedPage:
        """This clean with ``page_type`` (or a function making it on first read), its other deferred
        fields left as they are (not made)."""
        copy = object.__new__(CleanedPage)
        copy.__dict__.update(self.__dict__)
        copy.__dict__["_page_type"] = page_type
        return copy

    @property
    def has_page_type(self) -> bool:
        """True when the clean carries the page's type, or a function telling it (not called here)."""
        return self.__dict__.get("_page_type") is not None

    @property
    def removed_chars(self) -> int:
        """Visible characters of the page that cleaning removed."""
        return max(self.total_chars - self.kept_chars, 0)

    @property
    def removed_share(self) -> float:
        """Share of the page's visible text that was removed, in [0, 1]."""
        return self.removed_chars / self.total_chars if self.total_chars else 0.0


# ``html`` has no default, so its descriptor is set on the class after the dataclass took its fields
# (declared ``str``, what reading it gives: mypy sees a descriptor only in a field with a default).
CleanedPage.html = _Deferred("_html")  # type: ignore[assignment]


class SiteModel(abc.ABC):
    """Base class of all site models.  Subclasses set ``name`` and implement the four hooks."""

    name: ClassVar[str]
    format_version: ClassVar[int] = 1
    # False: the model's state arrays are stdlib ``array.array`` (1-D), saved and loaded without
    # importing numpy, so a crawl with such a model never loads numpy (~0.14 CPU s and ~10 MiB).
    numpy_state: ClassVar[bool] = True

    def __init__(self) -> None:
        # Subclasses store each constructor argument under its own name (see get_params).
        self._fitted = False

    # -- the public contract -------------------------------------------------------------
    def fit(self: ModelT, pages: Sequence[Page]) -> ModelT:
        """Learn from a sample of one site's pages and return ``self``."""
        self._fit(list(pages))
        self._fitted = True
        return self

    def clean(self, page: Page) -> CleanedPage:
        """Return ``page``'s main content; ``page`` itself is left untouched."""
        if not self._fitted:
            raise NotFittedError(f"{self.name} model is not fitted: call fit(pages) or load() first")
        return self._clean(page)

    @property
    def is_fitted(self) -> bool:
        """True once ``fit`` or ``load`` has run."""
        return self._fitted

    def get_params(self) -> dict[str, Any]:
        """The constructor parameters, as given (or defaulted)."""
        signature = inspect.signature(type(self).__init__)
        return {name: getattr(self, name) for name in signature.parameters if name != "self"}

    def get_state(self) -> tuple[dict[str, Any], StateArrays]:
        """The learned state as (JSON-able dict, named arrays): what saving writes."""
        if not self._fitted:
            raise NotFittedError(f"{self.name} model is not fitted: it has no state to give")
        return self._get_state()

    def set_state(self: ModelT, state: dict[str, Any], arrays: StateArrays) -> ModelT:
        """Restore what :meth:`get_state` gave and return ``self``, fitted; ``ModelFormatError`` on bad input."""
        self._set_state(state, arrays)
        self._fitted = True
        return self

    # -- hooks for subclasses ------------------------------------------------------------
    @abc.abstractmethod
    def _fit(self, pages: list[Page]) -> None:
        """Learn the site state from ``pages``."""

    @abc.abstractmethod
    def _clean(self, page: Page) -> CleanedPage:
        """Clean one page with the fitted state."""

    def _get_state(self) -> tuple[dict[str, Any], StateArrays]:
        """Learned state as (JSON-able dict, named numeric arrays).  Stateless models keep the default."""
        return {}, {}

    def _set_state(self, state: dict[str, Any], arrays: StateArrays) -> None:
        """Restore what :meth:`_get_state` returned (arrays as numpy arrays, or ``array.array`` when
        ``numpy_state`` is False); raise ``ModelFormatError`` on bad input."""
        if state or arrays:
            raise ModelFormatError(f"{self.name} has no learned state, got {sorted(state) + sorted(arrays)}")

    def __repr__(self) -> str:
        params = ", ".join(f"{k}={v!r}" for k, v in self.get_params().items())
        return f"{type(self).__name__}({params})"
