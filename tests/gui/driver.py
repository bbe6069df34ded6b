"""Drive the real app like a person: tap what is on screen, read what it says."""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from kivy.base import EventLoop
from kivy.config import ConfigParser
from kivy.core.window import Window
from kivy.tests.common import UnitTestTouch
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.widget import Widget

from companion import i18n
from ui.application import CompanionApp

# The suite never writes into the repository: pictures go to a temporary folder, unless
# SPLENDOR_SCREENSHOTS names one (``python tools/screenshots.py`` sets docs/screenshots).
SCREENSHOTS = Path(
    os.environ.get("SPLENDOR_SCREENSHOTS") or tempfile.mkdtemp(prefix="splendor-screenshots-")
)
# The journal's clock during the tests: a fixed evening, so every picture is the same.
FIXED_TIME = datetime(2026, 11, 21, 20, 15, tzinfo=UTC)


def fixed_clock() -> datetime:
    return FIXED_TIME


class Driver:
    def __init__(
        self,
        data_dir: Path,
        language: str = "en",
        demo: bool | int = False,
        clock: Callable[[], datetime] = fixed_clock,
    ) -> None:
        self.data_dir = data_dir
        self.clock = clock
        self.taps = 0  # every tap, counted: a flow's cost in taps is what a player feels
        self.app = self.start(language, demo)

    def start(self, language: str = "en", demo: bool | int = False) -> CompanionApp:
        # Kivy keeps the app's configuration by name for the whole process: a new app at
        # the table must read its own file, not the last test's settings.
        ConfigParser._named_configs.pop("app", None)
        app = CompanionApp(
            data_dir=str(self.data_dir), language=language, demo=demo, clock=self.clock
        )
        app._run_prepare()
        self.app = app
        self.frames(3)
        return app

    def close(self) -> None:
        for view in self.modals():
            view.dismiss(animation=False)
        self.frames(2)
        self.app.dispatch("on_stop")
        Window.remove_widget(self.app.root)
        self.frames(1)
        i18n.set_language("en")

    def restart(self) -> CompanionApp:
        """Close the app and start it again on the same data, as after a power cut."""
        self.close()
        return self.start()

    # ------------------------------------------------------------------ time

    def frames(self, n: int = 2) -> None:
        for _ in range(n):
            EventLoop.idle()

    def wait(self, seconds: float) -> None:
        """Frames until ``seconds`` have passed on the clock (frames come as fast as they
        can in the tests: an animation needs time, not a count of frames)."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            time.sleep(0.01)
            EventLoop.idle()

    # ------------------------------------------------------------------ looking

    def modals(self) -> list[ModalView]:
        return [w for w in Window.children if isinstance(w, ModalView) and w._is_open]

    def top(self) -> Widget:
        """What a tap reaches: the open dialog, else the current screen."""
        modals = self.modals()
        return modals[0] if modals else self.app.manager.current_screen

    def walk(self, root: Widget | None = None) -> Iterator[Widget]:
        yield from (root or self.top()).walk(restrict=True)

    def find(self, kind: type, test: Callable[[Any], bool], root: Widget | None = None) -> Any:
        found = [w for w in self.walk(root) if isinstance(w, kind) and test(w)]
        if not found:
            raise LookupError(f"nothing on screen matches {kind.__name__}")
        return found[0]

    def button(self, text: str, exact: bool = False) -> Button:
        def match(b: Button) -> bool:
            return b.text == text if exact else b.text.startswith(text)

        try:
            return self.find(Button, match)
        except LookupError:
            shown = [b.text for b in self.walk() if isinstance(b, Button)]
            raise LookupError(f"no button {text!r}; buttons on screen: {shown}") from None

    def texts(self) -> str:
        """Every label on screen, joined: what a person reads."""
        parts = [w.text for w in self.walk() if isinstance(w, Label) and w.text]
        if self.modals():
            screen = self.app.manager.current_screen
            parts = [w.text for w in screen.walk(restrict=True) if isinstance(w, Label)] + parts
        return "\n".join(parts)

    # ------------------------------------------------------------------ doing

    def tap(self, widget: Widget) -> None:
        assert not widget.disabled, f"{widget} is disabled"
        self.taps += 1
        x, y = widget.to_window(*widget.center)
        touch = UnitTestTouch(x, y)
        touch.touch_down()
        self.frames(1)
        touch.touch_up()
        self.frames(1)

    def press(self, text: str, exact: bool = False) -> None:
        self.tap(self.button(text, exact))

    def screenshot(self, name: str) -> Path:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        return self.screenshot_to(SCREENSHOTS / f"{name}.png")

    def screenshot_to(self, path: Path) -> Path:
        """A screenshot in a test's own folder (the suite never rewrites tracked files)."""
        self.frames(2)
        draw()
        written = Window.screenshot(str(path))
        Path(written).replace(path)  # Kivy numbers the file: keep the plain name
        return path

    def resize(self, width: int, height: int) -> None:
        Window.size = (width, height)
        self.frames(4)


def _not_drawn(*_: Any) -> None:
    """A frame laid out but not rendered: rendering by Mesa's software rasteriser is most
    of a GUI test's time, and what a test measures is the layout (sizes, texts, taps)."""


def skip_drawing() -> None:
    """Frames from now on are laid out, not rendered, until :func:`draw` asks for one."""
    Window.on_draw = _not_drawn


def draw() -> None:
    """Render the window once, as the screen would show it now (for a screenshot)."""
    skipping = vars(Window).get("on_draw") is _not_drawn
    if skipping:
        del Window.on_draw
    try:
        Window.dispatch("on_draw")
    finally:
        if skipping:
            skip_drawing()


def lay_out_table(d: Driver, nobles: list[str], market: list[list[str]]) -> None:
    """On the setup screen: each place's picker opens by itself; one tap a place
    (:func:`ui.taps.layout_taps`).

    ``market``: the face-up cards of levels 1, 2, 3. Places fill as they lie on the
    table: the nobles, then levels 3, 2 and 1.
    """
    from ui.taps import layout_taps

    d.frames(2)
    for widget in layout_taps(d.app, nobles, market):
        d.tap(widget)
    d.frames(2)
