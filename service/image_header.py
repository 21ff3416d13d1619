"""The size of an encoded image, read from its header before anything decodes it.

Why: a decoder allocates the whole bitmap the header declares before it reads a pixel, so a
small file declaring 30000x30000 pixels (an "image bomb": 875 KB of PNG) took gigabytes of
the server's memory, and one declaring 65535x65535 made OpenCV raise. Reading the header is a
few bytes of parsing: the frames endpoint refuses what it cannot or will not decode before
decoding it. Only the formats a camera sends are accepted: JPEG, PNG, WebP, BMP.
"""

from __future__ import annotations

import struct

FORMATS = "JPEG, PNG, WebP or BMP"


class UnknownImage(ValueError):
    """Not an image this service decodes, or a header too broken to tell its size."""


def image_size(data: bytes) -> tuple[str, int, int]:
    """``(format, width, height)`` from the header of ``data`` (raises :class:`UnknownImage`)."""
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return _png(data)
    if data.startswith(b"\xff\xd8"):
        return _jpeg(data)
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return _webp(data)
    if data.startswith(b"BM"):
        return _bmp(data)
    raise UnknownImage(
        f"the upload ({len(data)} bytes, starting {data[:8]!r}) is not an image: expected {FORMATS}"
    )


def _png(data: bytes) -> tuple[str, int, int]:
    if len(data) < 24 or data[12:16] != b"IHDR":
        raise UnknownImage("a PNG without its IHDR header")
    width, height = struct.unpack(">II", data[16:24])
    return "PNG", width, height


# start-of-frame markers (baseline, progressive, lossless...); C4, C8 and CC are not frames
_SOF = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}


def _jpeg(data: bytes) -> tuple[str, int, int]:
    i = 2
    while i + 4 <= len(data):
        if data[i] != 0xFF:
            raise UnknownImage(f"a JPEG whose header is broken at byte {i}")
        marker = data[i + 1]
        if marker == 0xFF:  # fill byte
            i += 1
            continue
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:  # no length
            i += 2
            continue
        (length,) = struct.unpack(">H", data[i + 2 : i + 4])
        if marker in _SOF:
            if i + 9 > len(data):
                break
            height, width = struct.unpack(">HH", data[i + 5 : i + 9])
            return "JPEG", width, height
        if marker == 0xDA or length < 2:  # scan data before any frame header
            break
        i += 2 + length
    raise UnknownImage("a JPEG without a frame header (its size)")


def _webp(data: bytes) -> tuple[str, int, int]:
    chunk = data[12:16]
    if chunk == b"VP8X" and len(data) >= 30:
        width = 1 + int.from_bytes(data[24:27], "little")
        height = 1 + int.from_bytes(data[27:30], "little")
        return "WebP", width, height
    if chunk == b"VP8 " and len(data) >= 30 and data[23:26] == b"\x9d\x01\x2a":
        width, height = struct.unpack("<HH", data[26:30])
        return "WebP", width & 0x3FFF, height & 0x3FFF
    if chunk == b"VP8L" and len(data) >= 25 and data[20] == 0x2F:
        bits = int.from_bytes(data[21:25], "little")
        return "WebP", 1 + (bits & 0x3FFF), 1 + ((bits >> 14) & 0x3FFF)
    raise UnknownImage("a WebP without a header this service reads")


def _bmp(data: bytes) -> tuple[str, int, int]:
    if len(data) < 26:
        raise UnknownImage("a BMP without its header")
    (size,) = struct.unpack("<I", data[14:18])
    if size == 12:  # OS/2 core header
        width, height = struct.unpack("<HH", data[18:22])
    else:
        width, height = struct.unpack("<ii", data[18:26])
    return "BMP", abs(width), abs(height)
