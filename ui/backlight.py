"""The touchscreen's backlight: dimmed after an idle time, woken by a touch.

The panel's brightness is a file of the kernel's backlight class
(``/sys/class/backlight/<name>/brightness``, 0 to ``max_brightness``): the official
7-inch touchscreen's is ``10-0045`` or ``rpi_backlight``. ``deploy.sh`` installs a udev
rule that lets the kiosk's ``video`` group write it. Without one (a desktop), nothing is
dimmed.

The touch that wakes the screen only wakes it: it does not reach the button under the
finger, which the player could not see.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

BACKLIGHTS = Path("/sys/class/backlight")
DIM_TO = 0.1
"""The dimmed brightness, as a part of the maximum (never 0: a dark panel looks off)."""


class Backlight:
    """One backlight's brightness file."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.maximum = int((folder / "max_brightness").read_text().split()[0])

    @classmethod
    def find(cls, root: Path = BACKLIGHTS) -> Backlight | None:
        """The first backlight under ``root`` that can be read, or ``None``."""
        try:
            folders = sorted(root.iterdir())
        except OSError:
            return None
        for folder in folders:
            try:
                return cls(folder)
            except (OSError, ValueError, IndexError):
                continue
        return None

    @property
    def brightness(self) -> int:
        return int((self.folder / "brightness").read_text().split()[0])

    @brightness.setter
    def brightness(self, value: int) -> None:
        # The kernel's own file, written in place; a link put there is not followed.
        flags = os.O_WRONLY | os.O_TRUNC | os.O_NOFOLLOW | os.O_CLOEXEC
        fd = os.open(self.folder / "brightness", flags)
        with os.fdopen(fd, "w") as file:
            file.write(f"{value}\n")


class Dimmer:
    """Dims ``backlight`` after ``idle()`` seconds without a touch (0: never); the next
    touch brings the brightness back and is swallowed. :meth:`check` is called by the
    app's clock; :meth:`touched` by the window's ``on_touch_down``."""

    def __init__(
        self,
        backlight: Backlight | None,
        idle: Callable[[], float],
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.backlight = backlight
        self.idle = idle
        self.clock = clock
        self.last_touch = clock()
        self.saved: int | None = None  # the brightness before dimming, while dimmed

    @property
    def dimmed(self) -> bool:
        return self.saved is not None

    def check(self, *_args: Any) -> None:
        idle = self.idle()
        if self.backlight is None or self.dimmed or idle <= 0:
            return
        if self.clock() - self.last_touch < idle:
            return
        try:
            current = self.backlight.brightness
            low = max(1, round(self.backlight.maximum * DIM_TO))
            if current > low:
                self.backlight.brightness = low
                self.saved = current
        except OSError as err:  # not allowed (no udev rule): stop trying
            log.warning("cannot dim the backlight %s: %s", self.backlight.folder, err)
            self.backlight = None

    def touched(self, *_args: Any) -> bool:
        """A touch: ``True`` (swallow it) when it only woke the screen."""
        self.last_touch = self.clock()
        if self.saved is None or self.backlight is None:
            return False
        saved, self.saved = self.saved, None
        try:
            self.backlight.brightness = saved
        except OSError as err:
            log.warning("cannot restore the backlight %s: %s", self.backlight.folder, err)
        return True
