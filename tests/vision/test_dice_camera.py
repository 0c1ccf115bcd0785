"""Cameras: still images, a video file through VideoCapture, missing devices, reopening."""

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.camera import (
    CameraError,
    ImageCamera,
    OpenCVCamera,
    PiCamera,
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
