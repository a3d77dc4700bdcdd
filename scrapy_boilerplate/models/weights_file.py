"""Reading a shipped or user-given weights file: one JSON document, or a ModelFormatError that says why."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from scrapy_boilerplate.models.errors import ModelFormatError


def read_weights_document(where: Path, what: str) -> Any:
    """The JSON document in ``where``; ModelFormatError naming ``what`` (e.g. "fusion weights") when it
    is missing or unreadable."""
    try:
        return json.loads(where.read_bytes())
    except FileNotFoundError as exc:
        raise ModelFormatError(f"no {what} file at {where}") from exc
    except (OSError, ValueError) as exc:
        raise ModelFormatError(f"cannot read {what} {where}: {exc}") from exc
