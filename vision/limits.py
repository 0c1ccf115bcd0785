"""The one size check of everything the dice reader reads from a file: photos, calibration
profiles and labels. Sizes are checked before anything is decoded or allocated, against limits
that a real table never meets: a file that claims more is refused with a message, never decoded
into gigabytes.

- a photo file: at most MAX_IMAGE_BYTES on disk, and its header (PNG, JPEG, BMP, WebP, TIFF)
  must declare at most MAX_PIXELS pixels (a 48 megapixel phone photo passes);
- a profile (.npz): at most MAX_PROFILE_BYTES on disk, each array at most MAX_ARRAY_BYTES
  unpacked (the zip's declared size and the array's own header both), all of them together at
  most MAX_PROFILE_ARRAY_BYTES;
- labels: MAX_LABELS_BYTES of labels.json, MAX_PHOTOS photos, MAX_DICE_PER_PHOTO dice a photo.
"""

from __future__ import annotations

import os
import struct
from pathlib import Path

from companion.files import read_bytes
from companion.i18n import _

MAX_IMAGE_BYTES = 64 * 1024 * 1024  # a 48 MP JPEG is about 20 MB, a 50 MP PNG about 40 MB
MAX_PIXELS = 50_000_000  # far beyond any camera's frame (a 12 MP still, a 48 MP phone photo)
MAX_PROFILE_BYTES = 64 * 1024 * 1024  # a profile from 200 kept photos is a few MB
MAX_ARRAY_BYTES = 128 * 1024 * 1024  # one array of a profile, unpacked
MAX_PROFILE_ARRAY_BYTES = 256 * 1024 * 1024  # all of a profile's arrays together, unpacked
MAX_LABELS_BYTES = 16 * 1024 * 1024  # labels.json of MAX_PHOTOS photos of 10 dice is ~5 MB
MAX_PHOTOS = 10_000  # photos in one labelled folder
MAX_DICE_PER_PHOTO = 100  # dice on one photo (a game rolls a handful)
MAX_SIDE = 100_000  # pixels on one side of a labelled photo


class TooLarge(ValueError):
    """A file, or what its header declares, beyond the reader's limits (the message says which
    and what to do)."""


def _mb(size: int) -> str:
    """A file size in words: MB, or bytes below one MB."""
    return f"{size / (1024 * 1024):.0f} MB" if size >= 1024 * 1024 else f"{size} bytes"


def check_file_size(path: str | Path, most: int, what: str) -> int:
    """The size of the file at `path`; TooLarge when it is over `most` bytes (checked before
    reading: a sparse file of gigabytes is never read). OSError as os.stat gives it."""
    size = os.stat(path).st_size
    if size > most:
        raise TooLarge(_("{file}: {size} is too large for {what} (at most {most}); give a "
                         "smaller file").format(file=path, size=_mb(size), what=what,
                                                most=_mb(most)))
    return size


def read_limited(path: str | Path, most: int, what: str) -> bytes:
    """The bytes of a regular file of at most `most` bytes: TooLarge, saying for `what`, when it
    is larger; else as companion.files.read_bytes reads (never blocking on a FIFO; a file that
    grows while being read refused too)."""
    check_file_size(path, most, what)
    return read_bytes(path, limit=most, follow=True)


def image_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) as the header of a PNG, JPEG, BMP, WebP or TIFF image declares them;
    None for another format or a header cut short."""
    try:
        if data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR":
            return struct.unpack(">II", data[16:24])
        if data[:2] == b"\xff\xd8":
            return _jpeg_size(data)
        if data[:2] == b"BM":
            header = struct.unpack("<I", data[14:18])[0]
            if header == 12:
                return struct.unpack("<HH", data[18:22])
            width, height = struct.unpack("<ii", data[18:26])
            return abs(width), abs(height)
        if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
            return _webp_size(data)
        if data[:4] in (b"II*\x00", b"MM\x00*"):
            return _tiff_size(data)
    except (struct.error, IndexError):
        return None
    return None


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    """The size in a JPEG's first frame header (SOF0..SOF15 but DHT, JPG and DAC)."""
    at = 2
    while at + 4 <= len(data):
        if data[at] != 0xFF:
            return None
        marker = data[at + 1]
        if marker == 0xFF:  # fill byte
            at += 1
            continue
        if marker in (0x01, *range(0xD0, 0xD8)):  # markers without a length
            at += 2
            continue
        length = struct.unpack(">H", data[at + 2:at + 4])[0]
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            height, width = struct.unpack(">HH", data[at + 5:at + 9])
            return width, height
        if marker == 0xDA or length < 2:  # image data before any frame header
            return None
        at += 2 + length
    return None


def _webp_size(data: bytes) -> tuple[int, int] | None:
    chunk = data[12:16]
    if chunk == b"VP8X":
        width = int.from_bytes(data[24:27], "little") + 1
        height = int.from_bytes(data[27:30], "little") + 1
        return width, height
    if chunk == b"VP8L" and data[20] == 0x2F:
        bits = int.from_bytes(data[21:25], "little")
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    if chunk == b"VP8 " and data[23:26] == b"\x9d\x01\x2a":
        width, height = struct.unpack("<HH", data[26:30])
        return width & 0x3FFF, height & 0x3FFF
    return None


def _tiff_size(data: bytes) -> tuple[int, int] | None:
    """The size in a TIFF's first image directory (tags 256 and 257)."""
    order = "<" if data[:2] == b"II" else ">"
    offset = struct.unpack(order + "I", data[4:8])[0]
    count = struct.unpack(order + "H", data[offset:offset + 2])[0]
    found: dict[int, int] = {}
    for k in range(count):
        entry = data[offset + 2 + 12 * k:offset + 14 + 12 * k]
        tag, kind = struct.unpack(order + "HH", entry[:4])
        if tag in (256, 257):
            found[tag] = struct.unpack(order + ("H" if kind == 3 else "I"), entry[8:10 if kind == 3
                                                                                  else 12])[0]
    return (found[256], found[257]) if len(found) == 2 else None


def check_image_bytes(data: bytes, path: str | Path) -> tuple[int, int]:
    """The (width, height) an image file's header declares; TooLarge when that is more than
    MAX_PIXELS, ValueError when its format's header cannot be read (nothing is decoded)."""
    size = image_size(data)
    if size is None:
        raise ValueError(_("{file}: not a readable image (a PNG, JPEG, BMP, WebP or TIFF file "
                           "is expected)").format(file=path))
    width, height = size
    if width * height > MAX_PIXELS:
        raise TooLarge(_("{file}: not a readable image (too large or damaged): it claims "
                         "{width}x{height} pixels, more than the {most} megapixels a photo of "
                         "the dice tray can have; give a smaller photo").format(
                             file=path, width=width, height=height,
                             most=MAX_PIXELS // 1_000_000))
    return width, height
