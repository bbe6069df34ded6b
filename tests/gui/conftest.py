"""A real Kivy window for the app's tests, headless (SDL's offscreen driver on Mesa).

Kivy reads its environment when first imported, so this runs before any test imports it.
One window serves the whole session (Kivy has one per process); each test gets a fresh
app with its own data folder.
"""

from __future__ import annotations

import gc
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPWMPin

_home = tempfile.mkdtemp(prefix="kivy-home-")
os.environ["KIVY_HOME"] = _home
os.environ["KIVY_NO_ARGS"] = "1"
os.environ["KIVY_NO_CONSOLELOG"] = "1"
os.environ["KIVY_NO_FILELOG"] = "1"
# The web page's address shows only where a test asks for it (test_web_address.py): a
# server another program runs on this machine's port 8080 must not change the screens.
os.environ["SPLENDOR_WEB"] = "no"
if not os.environ.get("DISPLAY"):
    os.environ["SDL_VIDEODRIVER"] = "offscreen"

from ui.launch import prepare_kivy  # noqa: E402

# The collector's young generation 50,000 objects, not Python's 700. A test starts an app,
# and its screens build widgets that the next refresh drops: at 700 they are collected
# while still shown, again and again, until they reach the oldest generation, which only a
# full collection frees, walking everything the process holds (the closed apps not yet
# freed too). At 50,000 most of them are dropped before they grow that old. Measured on
# the 2-core machine, alternately: the default run 165 s and 166 s, and 148 s and 151 s
# with it. The kiosk keeps Python's own: its one app's frames are no better with it (the
# rare collection is longer: its longest frame grew), docs/development.md.
gc.set_threshold(50_000, 10, 10)

# SDL's offscreen window draws only inside the surface it was made with, but the window
# can be resized down inside it: the window is made as large as the largest display the
# app supports in either orientation, then set to the size a test wants (800x480 unless
# SPLENDOR_TEST_WINDOW says otherwise, or a test calls ``resized``).
WINDOW = os.environ.get("SPLENDOR_TEST_WINDOW", "800x480")
SURFACE = "1920x1280"
prepare_kivy(SURFACE, fullscreen=False)

import kivy.core.text  # noqa: E402
from kivy.base import EventLoop  # noqa: E402
from kivy.clock import Clock  # noqa: E402
from kivy.core.window import Window  # noqa: E402

from ui.launch import window_size  # noqa: E402

EventLoop.ensure_window()
Window.size = window_size(WINDOW)
# Frames as fast as they come: a test steps the clock itself (Driver.frames), and the
# clock's wait for 60 frames a second would only be idle time. A test that needs time
# to pass waits on the clock's time, not on a count of frames.
Clock._max_fps = 0

# Every display of the README's table: (width, height).
DISPLAYS = [
    (800, 480),
    (1024, 600),
    (1280, 720),
    (1280, 800),
    (1920, 1080),
    (720, 1280),
    (480, 800),
    (480, 320),
]


# Between them these four show every arrangement (landscape at the smallest and the
# largest unit, portrait, the 3.5-inch screen's floors): the default run walks them. The
# four others (landscape and portrait at units in between) are walked by the long run.
MAIN_DISPLAYS = [(800, 480), (720, 1280), (480, 320), (1920, 1080)]
OTHER_DISPLAYS = [size for size in DISPLAYS if size not in MAIN_DISPLAYS]


@pytest.fixture(
    params=[
        pytest.param(MAIN_DISPLAYS, id="main-displays"),
        pytest.param(OTHER_DISPLAYS, id="other-displays", marks=pytest.mark.long),
    ]
)
def displays(request: pytest.FixtureRequest) -> list[tuple[int, int]]:
    """The displays a test walks: the main four, or (in the long run) the four others."""
    sizes: list[tuple[int, int]] = request.param
    return sizes


def set_window(size: tuple[int, int]) -> None:
    """Resize the window (the app lays itself out again, as after a rotation)."""
    Window.size = size
    for _ in range(3):
        EventLoop.idle()


@pytest.fixture
def resized() -> Iterator[Callable[[tuple[int, int]], None]]:
    """Set the window's size in a test; the usual size comes back afterwards."""
    yield set_window
    set_window(window_size(WINDOW))


@pytest.fixture(autouse=True)
def usual_window() -> Iterator[None]:
    """Every test starts at the usual size: one that resized the window and then failed
    (before its own resize back) must not hand the next test a 3.5-inch screen."""
    if tuple(Window.size) != window_size(WINDOW):
        set_window(window_size(WINDOW))
    yield


from .driver import Driver, skip_drawing  # noqa: E402

skip_drawing()  # laid out, not rendered, but for screenshots (Driver.screenshot)


@pytest.fixture
def driver(tmp_path: Path) -> Iterator[Driver]:
    d = Driver(tmp_path / "data")
    yield d
    d.close()


@pytest.fixture
def drawn() -> Iterator[list[tuple[str, float]]]:
    """Every text Kivy's text provider renders (labels and text drawn on a canvas)."""
    seen: list[tuple[str, float]] = []
    original = kivy.core.text.LabelBase.__init__

    def record(self: Any, text: str = "", font_size: float = 12, **kw: Any) -> None:
        seen.append((text, float(font_size)))
        original(self, text=text, font_size=font_size, **kw)

    kivy.core.text.LabelBase.__init__ = record  # type: ignore[method-assign]
    yield seen
    kivy.core.text.LabelBase.__init__ = original  # type: ignore[method-assign]


def forget_drawn(drawn: list[tuple[str, float]]) -> None:
    """Start recording afresh: text drawn before comes from a cache, so empty it too."""
    from ui.widgets.text import forget_drawn_text

    drawn.clear()
    forget_drawn_text()


def at_1280x720(target: str, *args: str) -> subprocess.CompletedProcess[str]:
    """Run ``target`` (a test file or node) in a second process with a 1280x720 window
    (one window size a process); its pictures go to this run's screenshot folder."""
    from .driver import SCREENSHOTS

    env = {
        **os.environ,
        "SPLENDOR_TEST_WINDOW": "1280x720",
        "SPLENDOR_SCREENSHOTS": str(SCREENSHOTS),
    }
    command = [sys.executable, "-m", "pytest", target, "-q", "-p", "no:cacheprovider", *args]
    return subprocess.run(
        command, capture_output=True, text=True, env=env, timeout=600, check=False
    )


@pytest.fixture
def pins() -> Iterator[MockFactory]:
    """gpiozero's mock pins (PWM ones, for the LEDs) in place of the board's, for one test."""
    factory = MockFactory(pin_class=MockPWMPin)
    Device.pin_factory = factory
    yield factory
    factory.reset()
    Device.pin_factory = None
