"""A minimal PNG reader for the browser test (8-bit RGB/RGBA, not interlaced): zlib, struct and numpy only."""

from __future__ import annotations

import struct
import zlib

import numpy as np

_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_CHANNELS = {2: 3, 6: 4}  # colour type -> bytes per pixel at 8 bits


def _paeth_row(row: bytes, prev: bytes, bpp: int) -> bytearray:
    out = bytearray(len(row))
    for i, value in enumerate(row):
        a = out[i - bpp] if i >= bpp else 0
        b = prev[i]
        c = prev[i - bpp] if i >= bpp else 0
        p = a + b - c
        pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
        out[i] = (value + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF
    return out


def _average_row(row: bytes, prev: bytes, bpp: int) -> bytearray:
    out = bytearray(len(row))
    for i, value in enumerate(row):
        a = out[i - bpp] if i >= bpp else 0
        out[i] = (value + ((a + prev[i]) >> 1)) & 0xFF
    return out


def _unfilter(kind: int, row: bytes, prev: bytes, bpp: int) -> bytes:
    if kind == 0:
        return row
    if kind == 1:  # Sub: a running sum per channel
        pixels = np.frombuffer(row, np.uint8).reshape(-1, bpp).astype(np.uint32)
        return (np.cumsum(pixels, axis=0) & 0xFF).astype(np.uint8).tobytes()
    if kind == 2:  # Up
        return (
            ((np.frombuffer(row, np.uint8).astype(np.uint16) + np.frombuffer(prev, np.uint8)) & 0xFF)
            .astype(np.uint8)
            .tobytes()
        )
    if kind == 3:
        return bytes(_average_row(row, prev, bpp))
    if kind == 4:
        return bytes(_paeth_row(row, prev, bpp))
    raise ValueError(f"unknown PNG filter {kind}")


def png_size(data: bytes) -> tuple[int, int]:
    """(width, height) of a PNG, from its header."""
    if not data.startswith(_SIGNATURE) or data[12:16] != b"IHDR":
        raise ValueError("not a PNG file")
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def read_png(data: bytes, rows: int | None = None) -> np.ndarray:
    """The image (or its first ``rows`` rows) as a (height, width, 3) uint8 RGB array."""
    if not data.startswith(_SIGNATURE):
        raise ValueError("not a PNG file")
    pos, idat, header = len(_SIGNATURE), [], None
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
    if header is None:
        raise ValueError("PNG without IHDR")
    width, height, depth, colour, _, _, interlace = header
    if depth != 8 or colour not in _CHANNELS or interlace:
        raise ValueError(f"unsupported PNG: depth {depth}, colour type {colour}, interlace {interlace}")
    bpp = _CHANNELS[colour]
    raw = zlib.decompress(b"".join(idat))
    stride = width * bpp
    height = height if rows is None else min(rows, height)
    lines, prev = [], bytes(stride)
    for y in range(height):
        start = y * (stride + 1)
        prev = _unfilter(raw[start], raw[start + 1 : start + 1 + stride], prev, bpp)
        lines.append(prev)
    image = np.frombuffer(b"".join(lines), np.uint8).reshape(height, width, bpp)
    return image[:, :, :3]
