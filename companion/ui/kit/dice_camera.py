"""The camera view of the expedition dice (dice_camera.kv): the live picture, with each die
outlined and labelled once the dice lie still and have been read, taken when their count is the
number rolled (or when a player taps the picture: the dice on it are read then, still or not);
a tap on a die then changes its face, a tap elsewhere adds a missed die. The camera and its
reader run off the main thread (`vision.live.DiceWatcher`: a motion check on every frame, the
full reader once the tray is still); this widget only draws the newest sighting. What it shows
in words: dice_camera_model.py.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kivy.clock import Clock
from kivy.graphics.texture import Texture
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.image import Image

from companion import paths
from companion.config import CameraConfig
from companion.i18n import _
from companion.rules.words import resource_name
from companion.ui.kit.dice_camera_model import CameraDice, RolledDice, camera_line
from vision.faces import FACES, Die, Reading

if TYPE_CHECKING:  # OpenCV and numpy load with the first camera (the app needs none without)
    import numpy as np

    from vision.live import DiceWatcher, Sighting

log = logging.getLogger(__name__)

FPS = 15  # how often the picture is redrawn, and the most frames a second the camera is read
KEEP_READINGS = 200  # the newest photos of confirmed readings kept (paths.dice_readings)


def keep_reading(frame: np.ndarray, seen: CameraDice, kind: str = "pips") -> Path | None:
    """Keep a confirmed reading's photo and labels (the calibration folder format) with the
    readings of its kind of dice in the data folder, the newest KEEP_READINGS; None, logged,
    when it cannot be written (the game goes on)."""
    from vision.dataset import LabelledDie, add_photo

    try:
        return add_photo(paths.dice_readings(kind), frame,
                         [LabelledDie(d.value, d.box, d.face) for d in seen.dice],
                         KEEP_READINGS)
    except (OSError, ValueError) as error:
        log.warning("the dice reading was not kept: %s", error)
        return None


def readings_kept(kind: str = "pips") -> int:
    """How many confirmed readings of that kind of dice are kept for the calibration."""
    return len(list(paths.dice_readings(kind).glob("*.jpg")))


def faces_kept() -> dict[str, int]:
    """Icon dice: how many dice kept show each face (what teaching them still needs)."""
    from vision.dataset import DatasetError, load_dataset

    counts = dict.fromkeys(FACES, 0)
    with contextlib.suppress(DatasetError):
        for item in load_dataset(paths.dice_readings("icons")):
            for die in item.dice:
                if die.face in counts:
                    counts[die.face] += 1
    return counts


def dice_watcher(camera: CameraConfig, turned_up: Callable[[], str | None] | None = None
                 ) -> DiceWatcher:
    """A watcher of the configured camera with the reader of its dice: pip dice through the
    face map (and the table's calibration), icon dice with the taught profile; while icon dice
    are taught, `turned_up()` names the face every die shows (None: read them). The networks
    load in the watcher's reader thread, so the screen never waits for them."""
    from vision.camera import open_camera
    from vision.live import DiceWatcher

    followers: list[Callable[[], Callable[[np.ndarray], Reading]]] = []  # loaded once

    def load() -> Callable[[], Callable[[np.ndarray], Reading]]:
        """How each roll's frames are read (the networks or profile loaded here, once)."""
        from vision.icons import IconReader, shown_reader
        from vision.pips import PipReader
        from vision.profile import Profile, ProfileError

        if camera.dice == "pips":
            return PipReader(face_map=camera.face_map, profile=Profile.load(camera.profile)
                             if camera.profile else None).follower
        taught = IconReader(Profile.load(camera.icon_profile)) \
            if camera.icon_profile.is_file() else None
        if turned_up is None:
            if taught is None:
                raise ProfileError(_("the icon dice are not taught yet (Settings, Dice camera)"))
            return taught.follower
        shown = shown_reader(lambda: turned_up() or "food")
        return lambda: lambda frame: (shown(frame) if turned_up() or taught is None
                                      else taught.read(frame))

    def read() -> Callable[[np.ndarray], Reading]:
        if not followers:
            followers.append(load())
        return followers[0]()

    # recorded frames (a folder of photos) are played again and again, as a camera goes on
    return DiceWatcher(lambda: open_camera(camera.source, loop=True), read,
                       settle_seconds=camera.settle, max_fps=FPS)


class DiceCameraView(Image):
    """The newest camera picture of the dice being entered, drawn with what was read."""

    tag = StringProperty("dice:camera")
    line = StringProperty("")
    taken = BooleanProperty(False)  # the picture is held: the reading the player corrects

    watcher: DiceWatcher | None = None
    dice: RolledDice | None = None  # the dice being entered (None: a preview of any dice)
    faces: tuple[str, ...] = FACES  # what a tap cycles through
    face_map: Mapping[int, str] | None = None  # calibrating: a tap cycles the pip values
    seen: CameraDice | None = None
    frame: np.ndarray | None = None
    changed: Callable[[], None] | None = None  # the count, the taking or the problem changed
    _told: tuple | None = None  # the state `changed` was last called for
    _last: Sighting | None = None  # the sighting drawn last
    _asked: bool = False  # held before its dice were read: waiting for the read asked for
    _before: Sighting | None = None  # the watcher's newest read when it was asked

    def watch(self, dice: RolledDice | None, watcher: DiceWatcher,
              changed: Callable[[], None] | None = None,
              face_map: Mapping[int, str] | None = None) -> None:
        """Show `watcher`'s pictures of a new roll of `dice` (None: a preview, taken on a tap
        only) until `stop`; `changed` is called when the count, the taking or the camera's
        problem changes; with a `face_map` (calibrating pip dice) a tap sets a die's value."""
        self.stop()
        self.dice, self.watcher, self.changed = dice, watcher, changed
        self.face_map = face_map
        self.faces = tuple(dice.faces) if dice is not None else FACES
        self.seen, self.frame, self.taken, self.texture = None, None, False, None
        self._told = self._last = self._before = None
        self._asked = False
        watcher.new_roll(self.rolled)
        watcher.start()
        Clock.schedule_interval(self.update, 1 / FPS)
        self.update(0)

    def stop(self) -> None:
        """Stop drawing and let the camera go."""
        Clock.unschedule(self.update)
        if self.watcher is not None:
            self.watcher.stop(wait=False)  # the main thread never waits on the camera
        self.watcher = None

    @property
    def rolled(self) -> int | None:
        """How many dice were rolled (None: a preview)."""
        return self.dice.dice if self.dice is not None else None

    @property
    def problem(self) -> str | None:
        """What is wrong with the camera now (None: pictures come)."""
        return self.watcher.problem if self.watcher is not None else None

    def update(self, _dt: float) -> None:
        """Draw the newest sighting, with its dice once read; take it when they are read with
        every die rolled; a picture held before its dice were read: its dice once read."""
        if self.watcher is None:
            return
        if self._asked:
            settled = self.watcher.settled()
            if settled is not None and settled is not self._before:
                self._asked = False
                self.show(settled)
        elif not self.taken:
            sighting = self.watcher.latest()
            if sighting is not None and sighting is not self._last:
                self._last = sighting
                if sighting.settled and self.rolled is not None \
                        and len(sighting.reading.dice) == self.rolled:
                    settled = self.watcher.settled()  # the frame those dice were read on
                    if settled is not None and settled.reading is sighting.reading:
                        sighting = settled
                    self.taken = True
                self.show(sighting)
        problem = self.problem
        self.line = camera_line(self.rolled, self.seen, self.taken, problem,
                                shown=self.frame is not None)
        # what the screen's answers and status strip follow, told when it differs from what
        # was told last (the camera's problem changes in the watcher's threads, between calls)
        state = (len(self.seen.dice) if self.seen else None, self.taken, problem)
        if state != self._told and self.changed is not None:
            self._told = state
            self.changed()

    def show(self, sighting: Sighting) -> None:
        """Draw a sighting: its frame, with its dice once read."""
        self.frame = sighting.frame
        self.seen = CameraDice.from_reading(sighting.reading, self.faces, self.face_map) \
            if sighting.settled else None
        self.draw()

    def take(self) -> None:
        """Hold the newest picture (the panel's Dice button, or a tap on the picture); when its
        dice were not read yet (the tray not still long enough), they are read now."""
        if self.taken or self.frame is None or self.watcher is None:
            return
        self.taken = True
        if self.seen is None:
            self._asked, self._before = True, self.watcher.settled()
            self.watcher.read_now()
        self.update(0)

    def again(self) -> None:
        """Let the picture go live again (a new roll of the same dice)."""
        if self.watcher is not None:
            self.watcher.new_roll(self.rolled)
            self.taken, self._asked, self._last, self.seen = False, False, None, None
            self.update(0)

    def draw(self) -> None:
        """The frame with each die outlined and labelled (uncertain ones marked)."""
        if self.frame is None:
            return
        import cv2
        import numpy as np

        from vision.overlay import draw_overlay

        # drawn at the size it is shown, so that the labels can be read at the table
        height, width = self.frame.shape[:2]
        scale = min(self.width / width, self.height / height) if self.width > 1 else 1.0
        picture = cv2.resize(self.frame, None, fx=scale, fy=scale, interpolation=(
            cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)) if scale != 1 else self.frame
        shown = draw_overlay(picture, Reading(tuple(
            Die(d.value if self.face_map else None, d.face,
                tuple(round(v * scale) for v in d.box), d.certainty)
            for d in (self.seen.dice if self.seen is not None else ()))), resource_name)
        height, width = shown.shape[:2]
        if self.texture is None or tuple(self.texture.size) != (width, height):
            self.texture = Texture.create(size=(width, height), colorfmt="bgr")
            self.texture.flip_vertical()
        self.texture.blit_buffer(np.ascontiguousarray(shown).tobytes(), colorfmt="bgr",
                                 bufferfmt="ubyte")
        self.canvas.ask_update()

    def frame_point(self, x: float, y: float) -> tuple[float, float] | None:
        """A window point in frame pixels (None: off the picture)."""
        if self.frame is None:
            return None
        shown_w, shown_h = self.norm_image_size
        left, bottom = self.center_x - shown_w / 2, self.center_y - shown_h / 2
        if not (0 <= x - left <= shown_w and 0 <= y - bottom <= shown_h) or not shown_w:
            return None
        height, width = self.frame.shape[:2]
        return (x - left) / shown_w * width, (1 - (y - bottom) / shown_h) * height

    def on_touch_down(self, touch: Any) -> bool:
        """A tap on the picture holds it, then changes the die under it or adds one there;
        on a picture whose dice were not read yet it holds it and reads them."""
        if not self.collide_point(*touch.pos) or self.frame is None:
            return super().on_touch_down(touch)
        point = self.frame_point(*touch.pos)
        if point is None:
            return False
        self.take()
        if self.seen is None:  # being read: a tap on a die waits for its dice
            return True
        self.seen.tap(*point)
        self.draw()
        self.update(0)  # tells the screen when the count changed
        return True
