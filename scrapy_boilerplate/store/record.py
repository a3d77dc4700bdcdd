"""One stored model as bytes: a versioned JSON record of metadata plus the model contract's document.

The record is ``{"format", "version", "meta", "model"}`` where ``model`` is exactly what
:func:`~scrapy_boilerplate.models.serialization.dump_model` writes, so a stored model is loaded
through the same validation as a saved one, and never through pickle.
"""

from __future__ import annotations

import json
import math
import os
import socket
import time
from dataclasses import dataclass, field, replace
from typing import Any

from scrapy_boilerplate.models.base import ModelFormatError, SiteModel
from scrapy_boilerplate.models.serialization import dump_model, load_model, parse_json

RECORD_FORMAT = "scrapy-boilerplate/stored-model"
RECORD_VERSION = 1


class StoreFormatError(ModelFormatError):
    """A stored record is corrupt, foreign, or of an unsupported version."""


@dataclass(frozen=True)
class Baseline:
    """What the model saw at fit time: the drift monitor compares a crawl's running figures with it."""

    removed_share: float
    unseen_share: float
    signatures: frozenset[str] = frozenset()
    coverage: float | None = None  # the sample's mean share of blocks the model's rules decided (rule models)

    def to_json(self) -> dict[str, Any]:
        """JSON form (signatures sorted, so equal baselines give equal bytes; coverage only when known)."""
        coverage = {} if self.coverage is None else {"coverage": self.coverage}
        return {
            "removed_share": self.removed_share,
            "unseen_share": self.unseen_share,
            "signatures": sorted(self.signatures),
            **coverage,
        }

    @classmethod
    def from_json(cls, data: Any) -> Baseline:
        """Parse and validate :meth:`to_json` output."""
        if not isinstance(data, dict):
            raise StoreFormatError("baseline is not an object")
        removed, unseen = _share(data, "removed_share"), _share(data, "unseen_share")
        signatures = data.get("signatures")
        if not isinstance(signatures, list) or not all(isinstance(s, str) for s in signatures):
            raise StoreFormatError("baseline signatures must be a list of strings")
        coverage = _share(data, "coverage") if data.get("coverage") is not None else None
        return cls(removed, unseen, frozenset(signatures), coverage)


def _share(data: dict[str, Any], name: str) -> float:
    """``data[name]``, checked to be a share in [0, 1]."""
    value = data.get(name)
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not 0.0 <= value <= 1.0:
        raise StoreFormatError(f"baseline {name} must be a share in [0, 1], got {value!r}")
    return float(value)


def worker_id() -> str:
    """``host:pid`` of this process, recorded as the fitter of the models it stores."""
    return f"{socket.gethostname()}:{os.getpid()}"


@dataclass(frozen=True)
class StoreEntry:
    """Metadata of one stored model.  ``size`` is the record's bytes, filled in by the backend."""

    spider: str
    domain: str
    model: str
    pages: int
    fitted_at: float
    params: dict[str, Any] = field(default_factory=dict)
    baseline: Baseline | None = None
    generation: int = 0
    fitter: str = ""
    size: int = 0
    template: frozenset[int] = frozenset()  # the structure signature of the page template it was fitted on

    def to_json(self) -> dict[str, Any]:
        """JSON form of everything but ``size`` (which depends on the encoding); ``template`` only when set,
        so a record of a domain's only template reads as before."""
        template = {"template": sorted(self.template)} if self.template else {}
        return {
            "spider": self.spider,
            "domain": self.domain,
            "model": self.model,
            "pages": self.pages,
            "fitted_at": self.fitted_at,
            "params": self.params,
            "generation": self.generation,
            "fitter": self.fitter,
            "baseline": self.baseline.to_json() if self.baseline is not None else None,
            **template,
        }

    @classmethod
    def from_json(cls, data: Any, size: int = 0) -> StoreEntry:
        """Parse and validate :meth:`to_json` output."""
        if not isinstance(data, dict):
            raise StoreFormatError("record metadata is not an object")
        try:
            strings = {key: data[key] for key in ("spider", "domain", "model", "fitter")}
            numbers = {"pages": data["pages"], "generation": data["generation"], "fitted_at": data["fitted_at"]}
            params, baseline = data["params"], data["baseline"]
        except KeyError as exc:
            raise StoreFormatError(f"record metadata lacks {exc}") from None
        if not all(isinstance(value, str) for value in strings.values()):
            raise StoreFormatError("record spider, domain, model and fitter must be strings")
        if not all(
            isinstance(v, (int, float)) and not isinstance(v, bool) and 0 <= v < math.inf for v in numbers.values()
        ):
            raise StoreFormatError("record pages, generation and fitted_at must be finite non-negative numbers")
        if not isinstance(params, dict):
            raise StoreFormatError("record params must be an object")
        template = data.get("template", [])
        if not isinstance(template, list) or not all(isinstance(n, int) and not isinstance(n, bool) for n in template):
            raise StoreFormatError("record template must be a list of integers")
        return cls(
            strings["spider"],
            strings["domain"],
            strings["model"],
            int(numbers["pages"]),
            float(numbers["fitted_at"]),
            params,
            Baseline.from_json(baseline) if baseline is not None else None,
            int(numbers["generation"]),
            strings["fitter"],
            size,
            frozenset(template),
        )


@dataclass(frozen=True)
class StoredModel:
    """A fitted model and its metadata, as kept in a store."""

    entry: StoreEntry
    model: SiteModel

    @classmethod
    def new(
        cls,
        spider: str,
        domain: str,
        model: SiteModel,
        pages: int,
        baseline: Baseline | None = None,
        generation: int = 0,
        template: frozenset[int] = frozenset(),
    ) -> StoredModel:
        """Wrap a just-fitted model, stamping the time and this worker as its fitter."""
        entry = StoreEntry(
            spider,
            domain,
            model.name,
            pages,
            time.time(),
            model.get_params(),
            baseline,
            generation,
            worker_id(),
            template=template,
        )
        return cls(entry, model)


def encode_record(stored: StoredModel) -> bytes:
    """The record bytes of ``stored`` (the model part is :func:`dump_model`'s output verbatim)."""
    head = {"format": RECORD_FORMAT, "version": RECORD_VERSION, "meta": stored.entry.to_json()}
    prefix = json.dumps(head, ensure_ascii=False, separators=(",", ":"))[:-1].encode("utf-8")
    return prefix + b',"model":' + dump_model(stored.model) + b"}"


def _parse(data: bytes) -> dict[str, Any]:
    try:
        document = parse_json(data, "stored-model record")
    except ModelFormatError as exc:
        raise StoreFormatError(str(exc)) from exc
    if not isinstance(document, dict) or document.get("format") != RECORD_FORMAT:
        raise StoreFormatError("not a scrapy-boilerplate stored-model record")
    if document.get("version") != RECORD_VERSION:
        raise StoreFormatError(
            f"stored-model record version {document.get('version')!r} is not supported "
            f"(this release reads version {RECORD_VERSION})"
        )
    return document


def decode_entry(data: bytes) -> StoreEntry:
    """Only the metadata of a record (the model part is checked to be an object, not loaded)."""
    document = _parse(data)
    if not isinstance(document.get("model"), dict):
        raise StoreFormatError("record holds no model")
    return StoreEntry.from_json(document.get("meta"), len(data))


def decode_record(data: bytes) -> StoredModel:
    """Metadata and model of a record; any defect raises ``ModelFormatError``."""
    document = _parse(data)
    entry = StoreEntry.from_json(document.get("meta"), len(data))
    model_document = document.get("model")
    if not isinstance(model_document, dict):
        raise StoreFormatError("record holds no model")
    model = load_model(model_document)
    if model.name != entry.model:
        raise StoreFormatError(f"record says model {entry.model!r} but holds a {model.name!r} model")
    return StoredModel(replace(entry, params=model.get_params()), model)
