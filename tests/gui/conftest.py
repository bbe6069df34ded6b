"""A real Kivy window for the app's tests, headless (SDL's offscreen driver on Mesa).

Kivy reads its environment when first imported, so this runs before any test imports it.
One window serves the whole session (Kivy has one per process); each test gets a fresh
app with its own data folder.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

_home = tempfile.mkdtemp(prefix="kivy-home-")
os.environ["KIVY_HOME"] = _home
os.environ["KIVY_NO_ARGS"] = "1"
os.environ["KIVY_NO_CONSOLELOG"] = "1"
os.environ["KIVY_NO_FILELOG"] = "1"
if not os.environ.get("DISPLAY"):
    os.environ["SDL_VIDEODRIVER"] = "offscreen"

from ui.app import prepare_kivy  # noqa: E402

# One window size a process (SDL's offscreen window does not resize its surface): the
# 1280x720 screenshots run in a second process, with SPLENDOR_TEST_WINDOW=1280x720.
WINDOW = os.environ.get("SPLENDOR_TEST_WINDOW", "800x480")
prepare_kivy(WINDOW, fullscreen=False)

from .driver import Driver  # noqa: E402


@pytest.fixture
def driver(tmp_path: Path) -> Iterator[Driver]:
    d = Driver(tmp_path / "data")
    yield d
    d.close()
