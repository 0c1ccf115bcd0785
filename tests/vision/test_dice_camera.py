"""Cameras: still images, a video file through VideoCapture, missing devices, reopening."""

from pathlib import Path
from typing import ClassVar

import cv2
import numpy as np
import pytest

from vision.camera import (
    CameraError,
    CameraSettings,
    ImageCamera,
    OpenCVCamera,
    PiCamera,
    auto_source,
    open_camera,
)


def write_frames(folder: Path, n: int) -> list[Path]:
    folder.mkdir(exist_ok=True)
    paths = []
    for k in range(n):
        path = folder / f"{k:02d}.png"
        cv2.imwrite(str(path), np.full((24, 32, 3), 40 * k, np.uint8))
        paths.append(path)
    return paths


def test_image_folder_plays_in_order_ends_and_reopens(tmp_path: Path) -> None:
    write_frames(tmp_path / "shots", 3)
    (tmp_path / "shots" / "notes.txt").write_text("ignored")
    with open_camera(tmp_path / "shots") as cam:
        assert [int(cam.read()[0, 0, 0]) for _ in range(3)] == [0, 40, 80]
        with pytest.raises(CameraError, match="no more images"):
            cam.read()
        cam.open()
        assert int(cam.read()[0, 0, 0]) == 0


def test_image_list_loops_and_bad_files_are_named(tmp_path: Path) -> None:
    paths = write_frames(tmp_path / "shots", 2)
    cam = ImageCamera(paths, loop=True)
    with cam:
        assert [int(cam.read()[0, 0, 0]) for _ in range(3)] == [0, 40, 0]
    bad = tmp_path / "bad.png"
    bad.write_text("not an image")
    with ImageCamera([bad]) as cam, pytest.raises(CameraError, match=r"bad\.png"):
        cam.read()
    with pytest.raises(CameraError, match="not open"):
        ImageCamera(paths).read()
    with pytest.raises(CameraError, match="no images"):
        ImageCamera([])


def test_video_file_through_videocapture_ends_with_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "roll.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (64, 48))
    assert writer.isOpened(), "OpenCV cannot write an MJPG test video here"
    for k in range(4):
        writer.write(np.full((48, 64, 3), 50 * k, np.uint8))
    writer.release()
    cam = open_camera(str(path))
    assert isinstance(cam, OpenCVCamera)
    with cam:
        frames = [cam.read() for _ in range(4)]
        assert frames[0].shape == (48, 64, 3)
        assert frames[3].mean() > frames[0].mean()
        with pytest.raises(CameraError, match="stopped delivering frames"):
            cam.read()
        cam.open()  # reopening starts the video again
        assert cam.read().shape == (48, 64, 3)


def test_missing_devices_raise_camera_errors(tmp_path: Path) -> None:
    with pytest.raises(CameraError, match="cannot open"):
        OpenCVCamera(str(tmp_path / "no-such-video.avi")).open()
    with pytest.raises(CameraError, match="not open"):
        OpenCVCamera(0).read()
    with pytest.raises(CameraError, match="no such camera"):
        open_camera("nowhere/at/all")
    try:
        import picamera2  # noqa: F401
    except ImportError:
        with pytest.raises(CameraError, match="picamera2"):
            PiCamera().open()
    assert isinstance(open_camera("pi"), PiCamera)
    assert isinstance(open_camera(2), OpenCVCamera)


class FakePicamera2:
    """Stands in for picamera2.Picamera2: lists one camera and delivers a frame laid out as
    Picamera2 documents its formats (RGB888 = [B, G, R], XRGB8888 = [B, G, R, X],
    BGR888 = [R, G, B] in memory), for a scene that is pure red on the left half."""

    cameras: ClassVar[list[dict]] = [{"Model": "imx708", "Id": "/base/soc/i2c0mux/i2c@1/imx708@1a"}]
    layouts: ClassVar[dict[str, tuple]] = {"RGB888": (2, 1, 0), "XRGB8888": (2, 1, 0, 3),
                                           "BGR888": (0, 1, 2)}

    @classmethod
    def global_camera_info(cls) -> list[dict]:
        return cls.cameras

    def create_preview_configuration(self, main: dict) -> dict:
        return {"main": main}

    def configure(self, config: dict) -> None:
        self.format = config["main"]["format"]
        self.size = config["main"]["size"]

    def set_controls(self, controls: dict) -> None:
        pass

    def start(self) -> None:
        pass

    def capture_array(self, stream: str) -> np.ndarray:
        w, h = self.size
        rgbx = np.zeros((h, w, 4), np.uint8)
        rgbx[:, : w // 2, 0] = 255  # red, in R, G, B, X order
        rgbx[..., 3] = 255
        return rgbx[..., list(self.layouts[self.format])]

    def close(self) -> None:
        pass


@pytest.fixture
def fake_picamera2(monkeypatch) -> type[FakePicamera2]:
    import sys
    import types

    module = types.ModuleType("picamera2")
    module.Picamera2 = FakePicamera2
    monkeypatch.setitem(sys.modules, "picamera2", module)
    return FakePicamera2


def test_pi_camera_frames_are_bgr(fake_picamera2) -> None:
    """Red in the scene is red to OpenCV: (B, G, R) = (0, 0, 255), three channels."""
    with PiCamera(CameraSettings(width=64, height=48)) as cam:
        frame = cam.read()
    assert frame.shape == (48, 64, 3) and frame.flags["C_CONTIGUOUS"]
    assert frame[10, 5].tolist() == [0, 0, 255]
    assert frame[10, 60].tolist() == [0, 0, 0]


def test_pi_camera_drops_the_x_channel_of_xrgb(fake_picamera2, monkeypatch) -> None:
    monkeypatch.setattr("vision.camera.PI_FORMAT", "XRGB8888")
    with PiCamera(CameraSettings(width=64, height=48)) as cam:
        frame = cam.read()
    assert frame.shape == (48, 64, 3) and frame[10, 5].tolist() == [0, 0, 255]


def fake_sysfs(root: Path, nodes: dict[str, str]) -> Path:
    """/sys/class/video4linux with each videoN's `device` linking to a fake bus path."""
    for name, bus in nodes.items():
        target = root / "devices" / bus
        target.mkdir(parents=True)
        (root / "class" / name).mkdir(parents=True)
        (root / "class" / name / "device").symlink_to(target)
    return root / "class"


def test_auto_picks_the_pi_camera_over_its_raw_video_node(tmp_path: Path, fake_picamera2,
                                                           monkeypatch) -> None:
    """A Pi with only a CSI camera: /dev/video0 is the sensor's raw node (platform bus)."""
    sysfs = fake_sysfs(tmp_path, {"video0": "platform/1f00128000.csi/video0"})
    assert auto_source(sysfs) == "pi"
    monkeypatch.setattr("vision.camera.VIDEO_SYSFS", sysfs)
    assert isinstance(open_camera("auto"), PiCamera)
    assert isinstance(open_camera(None), PiCamera)


def test_auto_prefers_a_usb_webcam_and_falls_back_to_index_0(tmp_path: Path, fake_picamera2,
                                                              monkeypatch) -> None:
    sysfs = fake_sysfs(tmp_path, {"video0": "platform/1f00128000.csi/video0",
                                  "video2": "pci0000:00/usb1/1-1/1-1:1.0/video2",
                                  "video3": "pci0000:00/usb1/1-1/1-1:1.0/video3"})
    assert auto_source(sysfs) == 2
    monkeypatch.setattr(FakePicamera2, "cameras", [])
    assert auto_source(tmp_path / "nothing") == 0
    monkeypatch.setitem(__import__("sys").modules, "picamera2", None)  # not installed
    assert auto_source(tmp_path / "nothing") == 0
