"""Fitted models as versioned JSON documents; numeric arrays are embedded, typed and checked.

Never pickle: a model file may come from a shared store, so loading must not run code.  Arrays are
numpy arrays, or stdlib ``array.array`` for models with ``numpy_state = False``; both are written
in the same format (a 1-D ``array.array`` of ``"i"`` gives the same bytes as numpy's ``<i4``), and
numpy is imported only for models that use it.  A model is read and restored through its public
state API (:meth:`~scrapy_boilerplate.models.base.SiteModel.get_state` and ``set_state``).
"""

from __future__ import annotations

import array as pyarray
import base64
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, overload

from scrapy_boilerplate.models.base import SiteModel
from scrapy_boilerplate.models.errors import ModelFormatError, UnknownModelError
from scrapy_boilerplate.models.registry import get_model_class

if TYPE_CHECKING:
    import numpy as np

ModelT = TypeVar("ModelT", bound=SiteModel)

FORMAT = "scrapy-boilerplate/model"
_ALLOWED_DTYPES = frozenset({"<i4", "<i8", "<u4", "<u8", "<f4", "<f8", "|u1", "|b1"})
# dtype -> the stdlib array typecode with that item size on this platform
_TYPECODES = {
    dtype: code
    for dtype, code in (
        ("<i4", "i"),
        ("<i8", "q"),
        ("<u4", "I"),
        ("<u8", "Q"),
        ("<f4", "f"),
        ("<f8", "d"),
        ("|u1", "B"),
    )
    if pyarray.array(code).itemsize == int(dtype[2:])
}
_DTYPES = {code: dtype for dtype, code in _TYPECODES.items()}


def _little_endian(array: pyarray.array) -> pyarray.array:
    """``array`` in the saved (little-endian) byte order: itself here, a swapped copy on a big-endian machine.

    The swap is its own inverse, so it serves saving and loading alike.
    """
    if sys.byteorder == "little":
        return array
    swapped = pyarray.array(array.typecode, array)
    swapped.byteswap()
    return swapped


def _encode_plain(array: pyarray.array) -> dict[str, Any]:
    dtype = _DTYPES.get(array.typecode)
    if dtype is None:
        raise TypeError(f"cannot save arrays of typecode {array.typecode!r}")
    data = _little_endian(array).tobytes()
    return {"dtype": dtype, "shape": [len(array)], "data": base64.b64encode(data).decode("ascii")}


def _decode_plain(name: str, dtype: str, shape: tuple[int, ...], raw: bytes) -> pyarray.array:
    code = _TYPECODES.get(dtype)
    if code is None or len(shape) != 1:
        raise ModelFormatError(f"array {name!r}: only 1-D arrays of {sorted(_TYPECODES)} load without numpy")
    array = pyarray.array(code)
    array.frombytes(raw)  # ValueError when the bytes are not a whole number of items
    if len(array) != shape[0]:
        raise ValueError(f"{len(array)} items for shape {list(shape)}")
    return _little_endian(array)


def _encode_array(array: np.ndarray | pyarray.array) -> dict[str, Any]:
    if isinstance(array, pyarray.array):
        return _encode_plain(array)
    import numpy as np

    array = np.ascontiguousarray(array)
    if array.dtype.byteorder == ">":
        array = array.astype(array.dtype.newbyteorder("<"))
    dtype = array.dtype.str
    if dtype not in _ALLOWED_DTYPES:
        raise TypeError(f"cannot save arrays of dtype {dtype}")
    return {"dtype": dtype, "shape": list(array.shape), "data": base64.b64encode(array.tobytes()).decode("ascii")}


def _decode_array(name: str, spec: Any, plain: bool = False) -> np.ndarray | pyarray.array:
    """One stored array, as numpy's, or as an ``array.array`` when ``plain`` (numpy not imported)."""
    try:
        dtype, shape, data = spec["dtype"], tuple(int(n) for n in spec["shape"]), spec["data"]
        if dtype not in _ALLOWED_DTYPES:
            raise ModelFormatError(f"array {name!r}: dtype {dtype!r} not allowed")
        raw = base64.b64decode(data, validate=True)
        if plain:
            return _decode_plain(name, dtype, shape, raw)
        import numpy as np

        return np.frombuffer(raw, dtype=np.dtype(dtype)).reshape(shape).copy()
    except ModelFormatError:
        raise
    except (KeyError, TypeError, ValueError, OverflowError) as exc:  # OverflowError: a shape of inf
        raise ModelFormatError(f"array {name!r} is malformed: {exc}") from exc


def dump_model(model: SiteModel) -> bytes:
    """Serialise a fitted model to UTF-8 JSON bytes."""
    if not model.is_fitted:
        raise ValueError(f"cannot save an unfitted {model.name} model")
    state, arrays = model.get_state()
    document = {
        "format": FORMAT,
        "model": model.name,
        "version": model.format_version,
        "params": model.get_params(),
        "state": state,
        "arrays": {name: _encode_array(a) for name, a in arrays.items()},
    }
    return json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def parse_json(data: bytes, what: str) -> Any:
    """The JSON document in ``data``; ``ModelFormatError`` (naming ``what``) for anything else.

    Beyond malformed JSON, ``json`` raises ``ValueError`` for an integer of more than 4,300 digits
    and ``RecursionError`` for deeply nested arrays: a damaged file must not get either out.
    """
    try:
        return json.loads(data.decode("utf-8"))
    except (ValueError, RecursionError) as exc:  # UnicodeDecodeError and JSONDecodeError are ValueErrors
        raise ModelFormatError(f"not a {what}: {exc}") from exc


# What a model's constructor or ``_set_state`` may raise on values of the wrong type or range
# (e.g. ``int(float("inf"))``) that its own checks missed: loading reports them as a bad file.
_STATE_ERRORS = (ValueError, TypeError, KeyError, IndexError, AttributeError, OverflowError, RecursionError)


def load_model(data: bytes | dict[str, Any]) -> SiteModel:
    """Rebuild a fitted model from :func:`dump_model` output (bytes, or already parsed), validating every part.

    Raises ``ModelFormatError`` and nothing else for any damaged, foreign or outdated input."""
    document = data if isinstance(data, dict) else parse_json(data, "model file")
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise ModelFormatError("not a scrapy-boilerplate model file")
    name = document.get("model")
    if not isinstance(name, str):
        raise ModelFormatError(f"model name must be a string, got {type(name).__name__}")
    try:
        cls = get_model_class(name)
    except UnknownModelError as exc:
        raise ModelFormatError(str(exc)) from exc
    if document.get("version") != cls.format_version:
        raise ModelFormatError(
            f"{cls.name} model format version {document.get('version')!r} is not supported "
            f"(this release reads version {cls.format_version}); re-fit the model"
        )
    params, state, arrays = document.get("params"), document.get("state"), document.get("arrays")
    if not isinstance(params, dict) or not isinstance(state, dict) or not isinstance(arrays, dict):
        raise ModelFormatError("model file lacks params, state or arrays")
    try:
        model = cls(**params)
    except _STATE_ERRORS as exc:
        raise ModelFormatError(f"bad {cls.name} parameters: {exc}") from exc
    plain = not cls.numpy_state
    decoded = {key: _decode_array(key, spec, plain) for key, spec in arrays.items()}
    try:
        return model.set_state(state, decoded)
    except ModelFormatError:
        raise
    except _STATE_ERRORS as exc:
        raise ModelFormatError(f"{cls.name} state does not load: {exc!r}") from exc


def save_model(model: SiteModel, path: str | Path) -> None:
    """Write the fitted ``model`` to ``path`` as versioned JSON (never pickle)."""
    Path(path).write_bytes(dump_model(model))


@overload
def read_model(path: str | Path) -> SiteModel: ...
@overload
def read_model(path: str | Path, model_class: type[ModelT]) -> ModelT: ...
def read_model(path: str | Path, model_class: type[SiteModel] = SiteModel) -> SiteModel:
    """The model :func:`save_model` wrote to ``path``, validated; ``ModelFormatError`` unless it is a
    ``model_class``."""
    model = load_model(Path(path).read_bytes())
    if not isinstance(model, model_class):
        raise ModelFormatError(f"{path} is a saved {model.name} model, not {model_class.__name__}")
    return model
