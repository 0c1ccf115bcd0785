"""Loading and checking frames: one place that turns bad input into a clear error."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from companion.i18n import _
from vision.limits import MAX_IMAGE_BYTES, MAX_PIXELS, check_image_bytes, read_limited

TOO_DARK_LEVEL = 30.0  # mean grey level (0..255) below which a frame with no dice is too dark
TOO_DARK_HINT = "too dark: add light over the tray or raise the camera exposure"
MIN_SIDE = 16  # pixels: a smaller side cannot hold a die
MAX_ASPECT = 10  # a longer side more than this many times the shorter is no photo of a tray


def square_view(frame: np.ndarray, x: float, y: float, span: float, side: int) -> np.ndarray:
    """The square of `span` frame pixels centred on (x, y), brought to `side` pixels (area
    averaged; beyond the frame's edge its edge pixels go on): what each of the reader's checks
    of one candidate looks at."""
    s = side / span
    m = np.array([[s, 0, side / 2 - s * x], [0, s, side / 2 - s * y]])
    return cv2.warpAffine(frame, m, (side, side), flags=cv2.INTER_AREA,
                          borderMode=cv2.BORDER_REPLICATE)


class ImageError(ValueError):
    """An image file or frame that cannot be read as a picture."""


def load_image(path: str | Path) -> np.ndarray:
    """Read an image file as a BGR frame, or raise ImageError naming the file. The file's size
    and the pixels its header declares are checked first (vision.limits): nothing too large is
    read or decoded."""
    path = Path(path)
    if not path.is_file():
        raise ImageError(f"{path}: no such file")
    try:
        data = read_limited(path, MAX_IMAGE_BYTES, _("a photo"))
        check_image_bytes(data, path)
    except OSError as exc:
        raise ImageError(_("{file}: cannot read it ({error})").format(
            file=path, error=exc.strerror or exc)) from None
    except ValueError as exc:  # TooLarge, or no header of a known format
        raise ImageError(str(exc)) from None
    try:
        frame = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    except cv2.error:  # OpenCV refuses images claiming more pixels than it allows
        raise ImageError(f"{path}: not a readable image (too large or damaged)") from None
    if frame is None:
        raise ImageError(f"{path}: not a readable image")
    height, width = frame.shape[:2]
    if min(height, width) < MIN_SIDE or max(height, width) > MAX_ASPECT * min(height, width) \
            or height * width > MAX_PIXELS:
        raise ImageError(f"{path}: {width}x{height} pixels cannot be a photo of the dice tray "
                         f"(each side at least {MIN_SIDE} pixels, at most {MAX_ASPECT} times "
                         f"the other, {MAX_PIXELS // 1_000_000} megapixels in all)")
    return frame


def as_bgr(frame: object) -> np.ndarray:
    """A uint8 BGR copy-free view of a grey, BGR or BGRA frame; ImageError for anything else."""
    if not isinstance(frame, np.ndarray) or frame.size == 0:
        raise ImageError("frame is not a non-empty image array")
    if frame.dtype != np.uint8:
        raise ImageError(f"frame must be 8-bit, got {frame.dtype}")
    if frame.ndim == 2:
        return cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    if frame.ndim == 3 and frame.shape[2] == 3:
        return frame
    if frame.ndim == 3 and frame.shape[2] == 4:
        return cv2.cvtColor(frame, cv2.COLOR_BGRA2BGR)
    raise ImageError(f"frame must be grey, BGR or BGRA, got shape {frame.shape}")


def darkness_hint(frame: np.ndarray) -> str | None:
    """The 'too dark' hint when the frame's mean brightness is below TOO_DARK_LEVEL, else None:
    the readers give it to explain a frame in which they found no die."""
    small = cv2.resize(frame, (64, 64), interpolation=cv2.INTER_AREA)
    grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    return TOO_DARK_HINT if float(grey.mean()) < TOO_DARK_LEVEL else None
