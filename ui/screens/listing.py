"""What the history and statistics screens share: a tappable line of columns, a plain
panel over the screen, and dates as players read them.

Sizes follow the window, with floors for the 7-inch 800x480 screen: no text under
:data:`MIN_FONT` pixels and no tap target under :data:`MIN_TAP` pixels a side.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from kivy.core.window import Window
from kivy.graphics import Color, Line, RoundedRectangle
from kivy.properties import BooleanProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.scrollview import ScrollView
from kivy.uix.widget import Widget

from .. import theme
from ..widgets import big_button, text_label

MIN_FONT = 15.0
MIN_TAP = 48.0


def font() -> float:
    """The size of a table's text: legible from a chair, at least :data:`MIN_FONT`."""
    return max(MIN_FONT, float(Window.height) * 0.035)


def line_height(lines: int = 1) -> float:
    """A row tall enough for ``lines`` of text and a finger."""
    return max(MIN_TAP, font() * (1.25 * lines + 0.9))


def when(moment: str) -> str:
    """A journal time (UTC) as the kiosk's local date and time: ``2026-11-21 20:15``.

    Numbers, not month names: the same in every language. Text that is not a time is
    shown as it is.
    """
    try:
        parsed = datetime.fromisoformat(moment)
        if parsed.tzinfo is not None:
            parsed = parsed.astimezone()
    except (ValueError, OverflowError, OSError):
        # Not a time, or one the kiosk's clock cannot turn local (an older companion let
        # the year 9999 in): shown as it is, and the game listed all the same.
        return moment
    return parsed.strftime("%Y-%m-%d %H:%M")


def title(text: str) -> Label:
    """A screen's title, top left."""
    return text_label(
        text,
        scale=0.55,
        size_hint_y=None,
        height=line_height(),
        bold=True,
        color=theme.ACCENT,
        halign="left",
        valign="middle",
    )


def rows_view(rows: Sequence[Widget], empty: str) -> ScrollView:
    """Rows one under the other, scrolled when they outgrow the screen; ``empty`` if none."""
    scroll = ScrollView(do_scroll_x=False)
    grid = GridLayout(cols=1, spacing=4, size_hint_y=None)
    grid.bind(minimum_height=grid.setter("height"))
    for row in rows:
        grid.add_widget(row)
    if not rows:
        grid.add_widget(cell(empty, 1, size_hint_y=None, height=line_height()))
    scroll.add_widget(grid)
    return scroll


def cell(text: str, width: float, bold: bool = False, **kw: Any) -> Label:
    """A column of a row: wraps to the row's height rather than spilling out."""
    label = Label(
        text=text,
        size_hint_x=width,
        font_size=font(),
        bold=bold,
        halign=kw.pop("halign", "left"),
        valign="middle",
        **kw,
    )
    label.bind(size=lambda w, s: setattr(w, "text_size", (s[0], s[1])))
    return label


def draw_panel(widget: Widget, framed: bool, radius: float = 8) -> None:
    """A panel behind ``widget``'s content; ``framed``: lighter, with a frame of the accent."""
    widget.canvas.before.clear()
    with widget.canvas.before:
        Color(*(theme.PANEL_ACTIVE if framed else theme.PANEL))
        RoundedRectangle(pos=widget.pos, size=widget.size, radius=[radius])
        if framed:
            Color(*theme.ACCENT)
            x, y, w, h = widget.x, widget.y, widget.width, widget.height
            Line(rounded_rectangle=(x + 1, y + 1, w - 2, h - 2, radius), width=2)


class Row(ButtonBehavior, BoxLayout):
    """A line of a list: columns of text on a panel; a tap does ``on_tap``.

    ``selected`` draws a frame and the caller puts a mark in the text as well: colour is
    never the only sign.
    """

    selected = BooleanProperty(False)

    def __init__(
        self,
        columns: Sequence[tuple[str, float]],
        on_tap: Callable[[], object] | None = None,
        lines: int = 1,
        **kw: Any,
    ) -> None:
        super().__init__(
            size_hint_y=None, height=line_height(lines), padding=[8, 2], spacing=6, **kw
        )
        self.cells = [cell(text, width) for text, width in columns]
        for label in self.cells:
            self.add_widget(label)
        if on_tap is not None:
            self.bind(on_release=lambda *_: on_tap())
        self.bind(pos=self._draw, size=self._draw, selected=self._draw)

    def _draw(self, *_: Any) -> None:
        draw_panel(self, self.selected, radius=6)


def header(columns: Sequence[tuple[str, float]]) -> BoxLayout:
    """The titles of a list's columns, dimmed, two lines at most."""
    box = BoxLayout(size_hint_y=None, height=font() * 2.6, padding=[8, 0], spacing=6)
    for text, width in columns:
        box.add_widget(cell(text, width, bold=True, color=theme.TEXT_DIM))
    return box


class Panel(ModalView):
    """An opaque panel over the screen: a title, lines of text or rows, buttons."""

    def __init__(self, title: str, height: float = 0.9, **kw: Any) -> None:
        super().__init__(
            size_hint=(0.92, height),
            auto_dismiss=False,
            overlay_color=(0, 0, 0, 0.75),
            background_color=(0, 0, 0, 0),
            **kw,
        )
        self._anim_duration = 0
        self.box = BoxLayout(orientation="vertical", padding=10, spacing=6)
        with self.box.canvas.before:
            Color(*theme.PANEL)
            self._back = RoundedRectangle(radius=[10])
        self.box.bind(pos=self._place, size=self._place)
        self.box.add_widget(
            text_label(
                title,
                scale=0.5,
                size_hint_y=None,
                height=line_height(),
                bold=True,
                halign="left",
                valign="middle",
                color=theme.ACCENT,
            )
        )
        self.body = BoxLayout(orientation="vertical", spacing=6)
        self.box.add_widget(self.body)
        self.message = cell("", 1, color=theme.ERROR, size_hint_y=None, height=line_height(2))
        self.box.add_widget(self.message)
        self.buttons = BoxLayout(size_hint_y=None, height=line_height(), spacing=8)
        self.box.add_widget(self.buttons)
        self.add_widget(self.box)

    def _place(self, *_: Any) -> None:
        self._back.pos = self.box.pos
        self._back.size = self.box.size

    def text(self, line: str, **kw: Any) -> Label:
        label = cell(line, 1, size_hint_y=None, height=line_height(), **kw)
        self.body.add_widget(label)
        return label

    def button(self, text: str, action: Callable[[], object]) -> Any:
        button = big_button(text, action)
        self.buttons.add_widget(button)
        return button
