"""Cameras behind one interface: OpenCV VideoCapture, Picamera2, or a list of still images.

Every camera has `open()`, `read() -> BGR frame`, `close()` and works as a context manager.
A camera that stops delivering frames raises `CameraError` with a message the app can show;
calling `open()` again reopens it.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np

from companion.i18n import _
from vision.frames import ImageError, load_image

IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff"}
PI_FORMAT = "RGB888"  # Picamera2 names formats by DRM fourcc: RGB888 is [B, G, R] in memory
VIDEO_SYSFS = Path("/sys/class/video4linux")

log = logging.getLogger(__name__)


class CameraError(RuntimeError):
    """A camera that cannot be opened or stopped delivering frames."""


class PicameraMissing(CameraError):
    """Picamera2 is not installed (not a Pi, or the camera stack was left out)."""


def import_picamera2() -> Any:
    """Picamera2's camera class; PicameraMissing when it is not installed, CameraError in words
    when it is there but cannot load (e.g. a system package built for another numpy)."""
    try:
        from picamera2 import Picamera2  # optional: only on a Pi
    except ImportError as exc:
        raise PicameraMissing(
            _("Pi camera: picamera2 is not installed (sudo apt install python3-picamera2; the "
              "virtual environment must see the system's packages: --system-site-packages)")
        ) from exc
    except Exception as exc:  # a compiled module that does not fit this environment
        if "size changed" in str(exc):
            raise CameraError(
                _("Pi camera: picamera2 cannot load: a system package it uses (simplejpeg) was "
                  "built for another numpy than this environment's numpy {version} ({error}); "
                  "run deploy/install.sh again, it installs a matching simplejpeg into the "
                  "virtual environment").format(version=np.__version__, error=exc)) from exc
        raise CameraError(_("Pi camera: picamera2 cannot load ({error})").format(
            error=f"{type(exc).__name__}: {exc}")) from exc
    return Picamera2


def picamera2_problem() -> str | None:
    """Why Picamera2 cannot be used here, in words; None when it loads (deploy/install.sh's
    check: `sys.exit(picamera2_problem())`)."""
    try:
        import_picamera2()
    except CameraError as error:
        return str(error)
    return None


@dataclass(frozen=True)
class CameraSettings:
    """Capture settings; None leaves the camera's own default."""

    width: int | None = None
    height: int | None = None
    exposure: float | None = None  # OpenCV: driver units; Picamera2: microseconds
    fps: float | None = None


class Camera(Protocol):
    """What the reader needs from a camera."""

    name: str

    def open(self) -> None:
        """Open (or reopen) the device."""

    def read(self) -> np.ndarray:
        """The next BGR frame, or CameraError."""

    def close(self) -> None:
        """Release the device."""


class _ContextMixin:
    """Open on enter, close on exit."""

    def __enter__(self):
        self.open()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class OpenCVCamera(_ContextMixin):
    """A USB webcam (index or device path) or a video file through cv2.VideoCapture."""

    def __init__(self, source: int | str, settings: CameraSettings | None = None,
                 retries: int = 3) -> None:
        """Remember the source; nothing is opened until `open()`."""
        self.source = source
        self.settings = settings or CameraSettings()
        self.retries = retries
        self.name = _("camera {source}").format(source=source)
        self._cap: cv2.VideoCapture | None = None

    def open(self) -> None:
        """Open the source and apply the settings; CameraError if it does not open."""
        self.close()
        cap = cv2.VideoCapture(self.source)
        if not cap.isOpened():
            raise CameraError(_("{camera}: cannot open (is it plugged in and free?)").format(
                camera=self.name))
        s = self.settings
        for prop, value in ((cv2.CAP_PROP_FRAME_WIDTH, s.width),
                            (cv2.CAP_PROP_FRAME_HEIGHT, s.height), (cv2.CAP_PROP_FPS, s.fps)):
            if value is not None:
                cap.set(prop, value)
        if s.exposure is not None:
            cap.set(cv2.CAP_PROP_AUTO_EXPOSURE, 1)  # manual on V4L2
            cap.set(cv2.CAP_PROP_EXPOSURE, s.exposure)
        self._cap = cap

    def read(self) -> np.ndarray:
        """The next frame; CameraError when the device is gone or the video has ended."""
        if self._cap is None:
            raise CameraError(_("{camera}: not open").format(camera=self.name))
        for _try in range(self.retries):
            ok, frame = self._cap.read()
            if ok and frame is not None:
                return frame
            time.sleep(0.01)
        raise CameraError(_("{camera}: stopped delivering frames (unplugged or ended?)").format(
            camera=self.name))

    def close(self) -> None:
        """Release the capture if open."""
        if self._cap is not None:
            self._cap.release()
            self._cap = None


class PiCamera(_ContextMixin):
    """The Raspberry Pi camera module through Picamera2 (Bookworm), when it is importable."""

    def __init__(self, settings: CameraSettings | None = None) -> None:
        """Remember the settings; nothing is opened until `open()`."""
        self.settings = settings or CameraSettings()
        self.name = _("Pi camera")
        self._cam = None

    def open(self) -> None:
        """Start Picamera2 with a BGR preview stream; CameraError if unavailable."""
        self.close()
        Picamera2 = import_picamera2()
        s = self.settings
        try:
            cam = Picamera2()
            size = (s.width or 1280, s.height or 960)
            cam.configure(cam.create_preview_configuration(main={"size": size,
                                                                 "format": PI_FORMAT}))
            controls: dict[str, object] = {}
            if s.exposure is not None:
                controls.update(ExposureTime=int(s.exposure), AeEnable=False)
            if s.fps is not None:
                controls["FrameRate"] = s.fps
            if controls:
                cam.set_controls(controls)
            cam.start()
        except Exception as exc:  # picamera2 raises assorted errors for a missing module
            raise CameraError(_("{camera}: cannot open ({error})").format(
                camera=self.name, error=exc)) from exc
        self._cam = cam

    def read(self) -> np.ndarray:
        """The next frame: Picamera2's RGB888 is B, G, R in memory, as OpenCV wants (a fourth
        channel, as XRGB8888 gives, is dropped)."""
        if self._cam is None:
            raise CameraError(_("{camera}: not open").format(camera=self.name))
        try:
            return np.ascontiguousarray(self._cam.capture_array("main")[..., :3])
        except Exception as exc:
            raise CameraError(_("{camera}: stopped delivering frames ({error})").format(
                camera=self.name, error=exc)) from exc

    def close(self) -> None:
        """Stop and release the camera if open."""
        if self._cam is not None:
            try:
                self._cam.close()
            finally:
                self._cam = None


class ImageCamera(_ContextMixin):
    """Still images played as a camera: a folder (sorted) or a list of files; for tests/replays."""

    def __init__(self, images: str | Path | Iterable[str | Path], loop: bool = False) -> None:
        """A folder of images or an explicit list; `loop` restarts at the end."""
        if isinstance(images, str | Path):
            folder = Path(images)
            if not folder.is_dir():
                raise CameraError(_("{folder}: not a folder of images").format(folder=folder))
            self.paths = sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
            self.name = _("images in {folder}").format(folder=folder)
        else:
            self.paths = [Path(p) for p in images]
            self.name = _("image list")
        if not self.paths:
            raise CameraError(_("{camera}: no images").format(camera=self.name))
        self.loop = loop
        self._next: int | None = None

    def open(self) -> None:
        """Start again at the first image."""
        self._next = 0

    def read(self) -> np.ndarray:
        """The next image; CameraError at the end (unless looping) or for an unreadable file."""
        if self._next is None:
            raise CameraError(_("{camera}: not open").format(camera=self.name))
        if self._next >= len(self.paths):
            if not self.loop:
                raise CameraError(_("{camera}: no more images").format(camera=self.name))
            self._next = 0
        path = self.paths[self._next]
        self._next += 1
        try:
            return load_image(path)
        except ImageError as exc:
            raise CameraError(str(exc)) from exc

    def close(self) -> None:
        """Forget the position."""
        self._next = None


def usb_camera_indexes(sysfs: Path = VIDEO_SYSFS) -> list[int]:
    """Indexes N of the /dev/videoN nodes that belong to a USB camera (sorted)."""
    if not sysfs.is_dir():
        return []
    found = []
    for node in sysfs.glob("video*"):
        if node.name[5:].isdigit() and "/usb" in str((node / "device").resolve()):
            found.append(int(node.name[5:]))
    return sorted(found)


def pi_camera_count() -> int:
    """How many cameras Picamera2 (libcamera) lists; 0 when it is not installed, or (logged)
    when it cannot load."""
    try:
        Picamera2 = import_picamera2()
    except PicameraMissing:
        return 0
    except CameraError as error:
        log.warning("%s", error)
        return 0
    try:
        return len(Picamera2.global_camera_info())
    except Exception:  # a broken libcamera set-up: no Pi camera to offer
        return 0


def auto_source(sysfs: Path = VIDEO_SYSFS) -> int | str:
    """The camera "auto" means: the first USB webcam; else the Pi camera when Picamera2 lists
    one (its raw /dev/video node opens but gives no frames); else index 0."""
    usb = usb_camera_indexes(sysfs)
    if usb:
        return usb[0]
    return "pi" if pi_camera_count() else 0


def is_camera_number(source: object) -> bool:
    """Whether a source is a camera's number written with the digits 0-9 ("²" is a file
    name, never a camera)."""
    return isinstance(source, str) and source.isascii() and source.isdigit()


def open_camera(source: str | int | Path | None = None,
                settings: CameraSettings | None = None, loop: bool = False) -> Camera:
    """A camera for a source: index or /dev path -> OpenCV, "pi" -> Picamera2 when importable,
    folder -> still images, image file -> that image (`loop`: played again and again), other
    file -> video; None or "auto" -> `auto_source()`."""
    source = auto_source() if source in (None, "auto") else source
    if isinstance(source, int) or is_camera_number(source):
        return OpenCVCamera(int(source), settings)
    if isinstance(source, str) and ("\0" in source or not source.strip()):
        raise CameraError(_("{source}: not a camera, folder or file; give \"auto\", \"pi\", a "
                            "camera's number or a path").format(source=repr(source)))
    if source == "pi":
        return PiCamera(settings)
    path = Path(source)
    if path.is_dir():
        return ImageCamera(path, loop)
    if path.suffix.lower() in IMAGE_SUFFIXES:
        return ImageCamera([path], loop)
    if str(source).startswith("/dev/") or path.is_file():
        return OpenCVCamera(str(path), settings)
    raise CameraError(_("{source}: no such camera, folder or file").format(source=source))
