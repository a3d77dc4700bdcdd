"""Model specs on the command line: ``NAME`` or ``NAME:param=value[:param=value...]``."""

from __future__ import annotations

import difflib
import inspect
import json
from dataclasses import dataclass, field
from typing import Any

from scrapy_boilerplate.models.base import SiteModel
from scrapy_boilerplate.models.registry import create_model, get_model_class


def _parse_value(raw: str) -> Any:
    """JSON when it parses (numbers, true/false, null), otherwise the raw string."""
    try:
        return json.loads(raw)
    except ValueError:
        return raw


def _parameter_problem(name: str, params: dict[str, Any], error: TypeError) -> str:
    """The given parameters model ``name`` does not take, with the ones it takes (the user's next step)."""
    signature = inspect.signature(get_model_class(name))
    kinds = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    accepted = [p.name for p in signature.parameters.values() if p.kind in kinds]
    listed = f"its parameters are {', '.join(accepted)}" if accepted else "it takes no parameters"
    unknown = [key for key in params if key not in accepted]
    if not unknown or any(p.kind is inspect.Parameter.VAR_KEYWORD for p in signature.parameters.values()):
        return f"{error}; {listed}"
    hints = []
    for key in unknown:
        guess = difflib.get_close_matches(key, accepted, n=1)
        hints.append(f"{key!r} (did you mean {guess[0]!r}?)" if guess else repr(key))
    return f"unknown parameter{'s' if len(hints) > 1 else ''} {', '.join(hints)}; {listed}"


@dataclass(frozen=True)
class ModelSpec:
    """A model name plus constructor parameters, e.g. ``pvalue:variant=paper``."""

    name: str
    params: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def parse(cls, text: str) -> ModelSpec:
        """Parse ``NAME[:k=v...]``; unknown names or malformed parameters raise ``ValueError``."""
        name, *pairs = text.strip().split(":")
        params: dict[str, Any] = {}
        for pair in pairs:
            key, sep, value = pair.partition("=")
            if not sep or not key:
                raise ValueError(f"bad model parameter {pair!r} in {text!r}: expected key=value")
            params[key] = _parse_value(value)
        get_model_class(name)  # raises UnknownModelError (a ValueError) with the valid names
        spec = cls(name, params)
        spec.create()  # validate parameters now, not half-way through a run
        return spec

    @property
    def label(self) -> str:
        """How the spec is shown in tables and logs."""
        return ":".join(
            [self.name, *(f"{k}={v if isinstance(v, str) else json.dumps(v)}" for k, v in self.params.items())]
        )

    def create(self) -> SiteModel:
        """A new unfitted model; bad parameters raise ``ValueError`` naming the model."""
        try:
            return create_model(self.name, **self.params)
        except TypeError as exc:
            raise ValueError(
                f"bad parameters for model {self.name!r}: {_parameter_problem(self.name, self.params, exc)}"
            ) from exc
