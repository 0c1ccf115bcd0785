"""`phoenix-dice`: the dice reader's command line (read, watch, calibrate, teach, bench).

Exit codes: 0 success, 1 a target or reading problem (e.g. camera lost in `watch`, a
calibration refused because it would read its own photos worse than the plain reader),
2 bad input (unreadable image, missing folder, bad option, missing or unreadable profile).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import cv2
import numpy as np

from companion import __version__, i18n
from companion.files import JsonFileError, check_target, write_atomically
from companion.i18n import _
from companion.text import os_error, safe_output
from vision.calibrate import (
    CalibrationRefused,
    Calibrator,
    advice,
    calibrate,
    calibrate_scored,
    how_checked,
)
from vision.camera import CameraError, CameraSettings, open_camera
from vision.dataset import DatasetError, is_held_out, load_dataset
from vision.faces import FACES, FaceMapError
from vision.frames import ImageError, load_image
from vision.icons import IconReader, default_model_path
from vision.live import ReadOnce
from vision.overlay import draw_overlay
from vision.pips import ModelError, PipReader
from vision.profile import NOT_A_DIE, Profile, ProfileError


class UsageError(Exception):
    """Bad input on the command line: printed, exit code 2."""


def make_reader(args: argparse.Namespace) -> IconReader | PipReader:
    """The reader for --profile (or --icons: the taught icon profile), else the plain pip
    reader."""
    path = args.profile or (default_model_path() if args.icons else None)
    profile = Profile.load(path) if path else None
    return reader_for(profile, args.face_map)


def reader_for(profile: Profile | None, face_map: str | None = None,
               models: Path | None = None) -> IconReader | PipReader:
    """The icon reader for an icon profile, else the pip reader (with the profile, if any;
    `models`: a folder of other networks to try, as `train_pips --out` writes)."""
    if profile is not None and profile.kind == "icons":
        return IconReader(profile)
    return PipReader(face_map=face_map, profile=profile, model_dir=models)


def cmd_read(args: argparse.Namespace) -> int:
    """Read each image and print its dice (JSON lines with --json)."""
    if args.overlay and len(args.images) != 1:
        raise UsageError(_("--overlay takes exactly one IMAGE"))
    if args.overlay and _same_file(args.overlay, args.images[0]):
        raise UsageError(_("--overlay {file}: that is the photo being read; choose another file "
                           "name for the outlined copy").format(file=args.overlay))
    if args.overlay:
        try:
            check_target(args.overlay)  # before any work: never onto a device or through a link
        except JsonFileError as exc:
            raise UsageError(str(exc)) from None
    frames = [(path, load_image(path)) for path in args.images]  # all bad files fail first
    read = make_reader(args).read
    for path, frame in frames:
        reading = read(frame)
        if args.json:
            out: dict[str, object] = {"image": path, "dice": [d.to_json() for d in reading.dice]}
            if reading.hint:
                out["hint"] = reading.hint
            print(json.dumps(out))
        else:
            faces = ", ".join(f"{n} {f}" for f, n in reading.faces.items() if n)
            found = _("{path}: {count} dice").format(path=path, count=len(reading.dice))
            print(found + (f" ({faces})" if faces else ""))
            for die in reading.dice:
                value = "" if die.value is None else f"{die.value} "
                print(f"  {value}{die.face:6} box {list(die.box)} conf {die.confidence:.2f}")
            if reading.hint:
                print(_("  hint: {hint}").format(hint=reading.hint))
        if args.overlay:
            write_image(args.overlay, draw_overlay(frame, reading))
    return 0


def _same_file(first: str | Path, second: str | Path) -> bool:
    """True when two paths name the same file (links included)."""
    try:
        return Path(first).resolve() == Path(second).resolve() or Path(first).samefile(second)
    except OSError:
        return False


def write_image(path: Path, image: np.ndarray) -> None:
    """Write an image file atomically (never through a link or onto a device), or UsageError
    naming it; the format comes from the extension."""
    try:
        ok, encoded = cv2.imencode(Path(path).suffix or ".png", image)
    except cv2.error:
        ok = False
    if not ok:
        raise UsageError(_("{file}: cannot write the overlay image (use a .png or .jpg "
                           "name)").format(file=path))
    try:
        write_atomically(path, encoded.tobytes())
    except JsonFileError as exc:
        raise UsageError(str(exc)) from None
    except OSError as exc:
        raise UsageError(_("{file}: cannot write the overlay image ({error})").format(
            file=path, error=exc.strerror)) from None


def _settings(args: argparse.Namespace) -> CameraSettings:
    """Camera settings from the common options."""
    return CameraSettings(args.width, args.height, args.exposure)


def cmd_watch(args: argparse.Namespace) -> int:
    """Print the dice as JSON lines, read once each time the picture has been still for the
    settle time, until interrupted or out of frames (the app's camera view reads the same way,
    `vision.live`)."""
    read = make_reader(args).follower()
    once = ReadOnce(args.settle, args.expect)
    camera = open_camera(args.camera, _settings(args))
    frames = 0
    with camera:
        while args.frames is None or frames < args.frames:
            try:
                frame = camera.read()
            except CameraError as exc:
                print(f"phoenix-dice: {exc}", file=sys.stderr)
                return 2 if isinstance(exc.__cause__, ImageError) else 1  # a bad photo: 2
            frames += 1
            now = time.monotonic() if args.fps is None else frames / args.fps
            sighting = once.update(frame, now, read)  # the dice read only once still
            if sighting.fresh:
                print(json.dumps({
                    "dice": [d.to_json() for d in sighting.reading.dice],
                    "count_ok": sighting.count_ok, "hint": sighting.reading.hint,
                }), flush=True)  # fmt: skip
    return 0


def cmd_calibrate(args: argparse.Namespace) -> int:
    """Learn a table's setup from a folder of labelled photos and save the profile."""
    _check_out(args.out)
    items = load_dataset(args.folder)
    if not items:
        raise UsageError(_("{folder}: no labelled photos").format(folder=args.folder))
    start = time.perf_counter()
    try:
        profile, plain, calibrated = calibrate_scored(items, args.face_map)
    except CalibrationRefused as refused:
        print("phoenix-dice: " + _("calibration refused: {reason}").format(reason=refused),
              file=sys.stderr)
        return 1
    path = profile.save(args.out)
    print(describe_profile(profile, items[0].width, items[0].height))
    if plain.dice:
        print(_("checked on {photos} of its photos, {how}: {right} of {dice} dice right, "
                "{extra} extra (the plain reader: {plain_right} right, {plain_extra} "
                "extra)").format(
                    photos=plain.photos, how=how_checked(len(items)), right=calibrated.right,
                    dice=calibrated.dice, extra=calibrated.extra, plain_right=plain.right,
                    plain_extra=plain.extra))
    for tip in advice(profile, items[0].width, items[0].height):
        print(_("advice: {tip}").format(tip=tip))
    print(_("learned from {count} photos in {seconds} s; saved {path}").format(
        count=len(items), seconds=f"{time.perf_counter() - start:.1f}", path=path))
    return 0


def _check_out(path: Path) -> None:
    """Refuse a profile path that is not a regular file of its own (a link, a device, a FIFO,
    a folder, a hard-linked file) before any work; saving checks it again (Profile.save)."""
    try:
        check_target(path)
    except JsonFileError as exc:
        raise UsageError(str(exc)) from None


def describe_profile(profile: Profile, width: int, height: int) -> str:
    """One line on what a profile holds, die size in pixels of a width x height photo."""
    counts = ", ".join(f"{n} x {_('not a die') if label == NOT_A_DIE else label}"
                       for label, n in profile.counts().items())
    custom = _("; custom faces (read from the examples): {faces}").format(
        faces=list(profile.custom)) if profile.custom else ""
    return _("{kind} dice about {size} px across in {width}x{height} photos; examples "
             "{counts}{custom}").format(kind=profile.kind,
                                        size=f"{profile.die_px((height, width)):.0f}",
                                        width=width, height=height, counts=counts,
                                        custom=custom)


def cmd_teach(args: argparse.Namespace) -> int:
    """Teach the icon faces (a calibration): from a camera (prompted) or from a folder with one
    folder per face."""
    out = args.out or default_model_path()
    _check_out(out)
    calibrator = Calibrator("icons")
    if args.from_folder:
        root = Path(args.from_folder)
        for face in FACES:
            folder = root / face
            if not folder.is_dir():
                raise UsageError(_("{folder}: missing (expected one folder per face: "
                                   "{faces})").format(folder=folder, faces=FACES))
            for path in sorted(folder.iterdir()):
                if path.is_file():
                    calibrator.add_shown(load_image(path), face)
    else:
        camera = open_camera(args.camera, _settings(args))
        with camera:
            for face in FACES:
                for shot in range(1, args.shots + 1):
                    input(_("Show {face} on top of every die ({shot}/{shots}), then "
                            "Enter: ").format(face=face, shot=shot, shots=args.shots))
                    found = calibrator.add_shown(camera.read(), face)
                    print(_("  learned {count} {face} face(s)").format(count=found, face=face))
    path = calibrator.profile().save(out)
    counts = ", ".join(f"{n} {f}" for f, n in calibrator.counts().items())
    print(_("taught {counts}; saved {path}").format(counts=counts, path=path))
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    """Bench the reader on a labelled folder and print the figures."""
    items = load_dataset(args.dataset)
    if args.held_out:
        items = [it for k, it in enumerate(items) if is_held_out(k, len(items))]
    profile, refusal = None, None
    if args.calibrate:
        if args.calibrate >= len(items):
            raise UsageError(_("--calibrate {count}: needs more than that many photos ({here} "
                               "here) so some are left to read").format(count=args.calibrate,
                                                                        here=len(items)))
        shown = set(random.Random(args.seed).sample(range(len(items)), args.calibrate))
        try:  # the looks of the networks read with
            profile = calibrate([items[k] for k in sorted(shown)], args.face_map,
                                PipReader(model_dir=args.models))
        except CalibrationRefused as refused:  # the table keeps the plain reader
            refusal = _("calibration refused: {reason}").format(reason=refused)
            print(f"phoenix-dice: {refusal}", file=sys.stderr)
        items = [it for k, it in enumerate(items) if k not in shown]
    if not items:
        raise UsageError(_("{folder}: no labelled images").format(folder=args.dataset))
    from vision.bench import bench  # only the bench needs it

    cv2.setNumThreads(1)
    reader = reader_for(profile, args.face_map, args.models)
    result = bench(items, reader.read, reader.follower)
    if args.json:
        print(json.dumps({**result.to_json(), **({"calibration_refused": refusal}
                                                 if args.calibrate else {})}))
    else:
        print(result.text())
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with its sub-commands."""
    parser = argparse.ArgumentParser(
        prog="phoenix-dice",
        description=_("Reads Terran Expedition dice from camera frames or image files."),
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    def reader_options(p: argparse.ArgumentParser) -> None:
        p.add_argument("--face-map", help=_('pip values to faces, e.g. "1-2=food,3-4=water,'
                                            '5=metal,6=human" (the default)'))
        p.add_argument("--profile", type=Path, help=_("a table's calibration (phoenix-dice "
                                                      "calibrate or teach)"))
        p.add_argument("--icons", action="store_true",
                       help=_("read icon dice with the taught profile in the user's data "
                              "folder"))

    def camera_options(p: argparse.ArgumentParser) -> None:
        p.add_argument("--camera", default="auto", type=_camera,
                       help=_("'auto' (a USB webcam, else the Pi camera, else 0), webcam index, "
                              "/dev path, 'pi', video file or image folder"))
        p.add_argument("--width", type=_number(int, 16, 10000))
        p.add_argument("--height", type=_number(int, 16, 10000))
        p.add_argument("--exposure", type=_number(float, -10000, 10000))

    p = sub.add_parser("read", help=_("read dice in image files"))
    p.add_argument("images", nargs="+", metavar="IMAGE")
    p.add_argument("--json", action="store_true", help=_("one JSON object per image"))
    p.add_argument("--overlay", type=Path, metavar="OUT.png", help=_("write the outlined image"))
    reader_options(p)
    p.set_defaults(func=cmd_read)

    p = sub.add_parser("watch", help=_("print settled readings from a camera"))
    camera_options(p)
    reader_options(p)
    p.add_argument("--settle", type=_number(float, 0, 60), default=0.5,
                   help=_("seconds stable before reporting"))
    p.add_argument("--expect", type=_number(int, 1, 100), help=_("number of dice rolled"))
    p.add_argument("--frames", type=_number(int, 1, 10**9),
                   help=_("stop after this many frames"))
    p.add_argument("--fps", type=_number(float, 0.1, 1000),
                   help=_("time frames by this rate (replays) not the clock"))
    p.set_defaults(func=cmd_watch)

    p = sub.add_parser("calibrate", help=_("learn a table's setup from labelled photos"))
    p.add_argument("folder", metavar="FOLDER", help=_("photos and their labels.json"))
    p.add_argument("--out", type=Path, required=True, metavar="PROFILE",
                   help=_("where to save the profile (.npz)"))
    p.add_argument("--face-map", help=_("pip values to faces (default: from the labels when "
                                        "they give faces, else the standard map)"))
    p.set_defaults(func=cmd_calibrate)

    p = sub.add_parser("teach", help=_("teach the four icon faces (an icon calibration)"))
    camera_options(p)
    p.add_argument("--shots", type=_number(int, 1, 100), default=3, help=_("shots per face"))
    p.add_argument("--from-folder",
                   help=_("folder with food/ water/ metal/ human/ image folders"))
    p.add_argument("--out", type=Path, metavar="PROFILE",
                   help=_("where to save (default: in the user's data folder)"))
    p.set_defaults(func=cmd_teach)

    p = sub.add_parser("bench", help=_("accuracy and speed on a labelled folder"))
    p.add_argument("dataset", metavar="DATASET_DIR")
    p.add_argument("--held-out", action="store_true", help=_("only the held-out split"))
    p.add_argument("--calibrate", type=_number(int, 1, 10000), metavar="K",
                   help=_("calibrate on K photos drawn at random, read the others"))
    p.add_argument("--seed", type=int, default=0, help=_("draw for --calibrate (default 0)"))
    p.add_argument("--json", action="store_true")
    p.add_argument("--face-map")
    p.add_argument("--models", type=Path, metavar="FOLDER",
                   help=_("bench these networks instead of the shipped ones (train_pips "
                          "--out)"))
    p.set_defaults(func=cmd_bench)
    return parser


MAX_CAMERA_INDEX = 63


def _camera(text: str) -> str:
    """The --camera argument: a camera index is 0 to MAX_CAMERA_INDEX."""
    if text.isdigit() and not text.isascii():
        raise argparse.ArgumentTypeError(_("camera {text}: write a camera's number with the "
                                           "digits 0-9, or give a file or folder").format(
                                               text=repr(text[:24])))
    if text.isdigit() and int(text[:4]) > MAX_CAMERA_INDEX:
        raise argparse.ArgumentTypeError(_("camera index {index}: there is no such camera (0 to "
                                           "{most}; 0 is the first)").format(
                                               index=text[:24], most=MAX_CAMERA_INDEX))
    return text


def _number(kind: type, low: float, high: float) -> Callable[[str], float]:
    """An argument type: a number of `kind` from `low` to `high` (argparse says so, exit 2)."""
    def parse(text: str) -> float:
        try:
            value = kind(text)
        except ValueError:
            value = None
        if value is None or not low <= value <= high:
            raise argparse.ArgumentTypeError(_("{text}: give a number from {low} to {high}").format(
                text=repr(text[:24]), low=low, high=high))
        return value
    parse.__name__ = kind.__name__  # argparse names the type in its messages
    return parse


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of `phoenix-dice`."""
    i18n.from_environment()
    with safe_output():
        args = build_parser().parse_args(argv)
        try:
            code = args.func(args)
            sys.stdout.flush()
        except (UsageError, ImageError, DatasetError, ProfileError, FaceMapError, ModelError,
                CameraError) as exc:
            print(f"phoenix-dice: {exc}", file=sys.stderr)
            return 2
        except OSError as exc:
            return os_error("phoenix-dice", exc)
        except KeyboardInterrupt:
            return 130
        return code


if __name__ == "__main__":
    sys.exit(main())
