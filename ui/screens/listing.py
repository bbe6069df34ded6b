"""What the history and statistics screens share: a tappable line of columns, a plain
panel over the screen, and dates as players read them.

Sizes follow the window (:data:`ui.scale.SCALE`): 17 px text and rows a finger's height
on the 7-inch 800x480 screen, scaled, never under the floors. A list's columns are side
by side where their words fit, else arranged on several lines (:data:`Layout`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from kivy.graphics import Color, Line, RoundedRectangle
from kivy.properties import BooleanProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.scrollview import ScrollView
from kivy.uix.widget import Widget

from .. import theme
from ..layout import (
    LINE,
    button,
    fit_label,
    fit_row,
    gap,
    grow_label,
    refit,
    words_fit,
)
from ..scale import SCALE
from ..widgets.modal import ModalPanel

Layout = list[list[tuple[int, float]]]
"""How a list's columns are arranged: lines of (column, share of the width). One line of
every column in landscape; several lines where the columns would not fit side by side."""


def font() -> float:
    """The size of a list's text: 17 px at 800x480, scaled, never under the floor."""
    return SCALE.font(17)


def line_height(lines: int = 1) -> float:
    """A row tall enough for ``lines`` of text and a finger."""
    return max(float(SCALE.min_target), font() * (LINE * lines + 0.6))


def one_line(widths: Sequence[float]) -> Layout:
    """Every column on one line, at ``widths``."""
    return [[(i, w) for i, w in enumerate(widths)]]


def fits(layout: Layout, rows: Sequence[Sequence[str]], bold: Sequence[bool] = ()) -> bool:
    """Whether every word of every row (the column titles are a row too) fits its
    column, arranged so in the window, at a list's font or a little smaller: else the
    words would be broken, and another arrangement is wanted."""
    size = max(SCALE.min_text, font() * 0.85)
    for line in layout:
        inner = SCALE.width - 2 * gap(8) - 2 * gap(8) - gap(6) * (len(line) - 1)
        total = sum(share for _, share in line)
        for i, share in line:
            width = inner * share / total - 4
            for n, texts in enumerate(rows):
                heavy = bool(bold[n]) if n < len(bold) else False
                if not words_fit(texts[i], size, width, heavy):
                    return False
    return True


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
    return fit_label(
        text,
        font=26,
        size_hint_y=None,
        height=line_height(),
        bold=True,
        color=theme.ACCENT,
    )


def rows_view(rows: Sequence[Widget], empty: str) -> ScrollView:
    """Rows one under the other, scrolled when they outgrow the screen; ``empty`` if none."""
    scroll = ScrollView(do_scroll_x=False, bar_width=gap(6))
    grid = GridLayout(cols=1, spacing=gap(4), size_hint_y=None)
    grid.bind(minimum_height=grid.setter("height"))
    for row in rows:
        grid.add_widget(row)
    if not rows:
        grid.add_widget(cell(empty, 1))
    scroll.add_widget(grid)
    return scroll


def cell(text: str, width: float, bold: bool = False, **kw: Any) -> Label:
    """A column of a row: as tall as its text, wrapped between words; a word too wide
    for the column makes the font smaller (never under the floor), never breaks."""
    kw.setdefault("pos_hint", {"center_y": 0.5})
    return grow_label(text, font=17, size_hint_x=width, bold=bold, **kw)


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


class Lines(BoxLayout):
    """Labels arranged by a :data:`Layout`: a line of them under another, each line as
    tall as its tallest label; as tall as all its lines, and ``least`` lines of text (a
    finger's height) at the least. ``pad``: across, and above and below (px at 800x480)."""

    def __init__(
        self,
        labels: Sequence[Label],
        layout: Layout,
        least: int = 0,
        pad: tuple[float, float] = (0, 0),
        **kw: Any,
    ) -> None:
        super().__init__(orientation="vertical", size_hint_y=None, **kw)
        self.least = least
        self.pad = pad
        self.lines: list[BoxLayout] = []
        for arranged in layout:
            line = BoxLayout(size_hint_y=None)
            members = [labels[i] for i, _ in arranged]
            for label, (_, share) in zip(members, arranged, strict=True):
                label.size_hint_x = share
                line.add_widget(label)
            fit_row(line, *members)
            line.bind(height=self._fit)
            self.lines.append(line)
            self.add_widget(line)
        self.refit()

    def refit(self) -> None:
        """Sizes for the window's scale (again after a resize: :func:`ui.layout.refit`)."""
        self.spacing = gap(2)
        for line in self.lines:
            line.spacing = gap(6)
        self._fit()

    def _fit(self, *_: Any) -> None:
        """As tall as the lines, or ``least`` lines: then the lines in the middle."""
        across, along = gap(self.pad[0]), gap(self.pad[1]) if self.pad[1] else 0
        inside = sum(line.height for line in self.lines) + self.spacing * (len(self.lines) - 1)
        least = line_height(self.least) if self.least else 0
        self.height = max(least, inside + 2 * along)
        extra = (self.height - inside) / 2
        self.padding = [across, extra, across, extra]


class Row(ButtonBehavior, Lines):
    """A line of a list: columns of text on a panel; a tap does ``on_tap``. ``layout``:
    how the columns are arranged (one line, at each column's width, by default).

    ``selected`` draws a frame and the caller puts a mark in the text as well: colour is
    never the only sign.
    """

    selected = BooleanProperty(False)

    def __init__(
        self,
        columns: Sequence[tuple[str, float]],
        on_tap: Callable[[], object] | None = None,
        lines: int = 1,
        layout: Layout | None = None,
        **kw: Any,
    ) -> None:
        self.cells = [cell(text, width) for text, width in columns]
        super().__init__(
            labels=self.cells,
            layout=layout or one_line([width for _, width in columns]),
            least=lines,
            pad=(8, 4),
            **kw,
        )
        if on_tap is not None:
            self.bind(on_release=lambda *_: on_tap())
        self.bind(pos=self._draw, size=self._draw, selected=self._draw)

    def _draw(self, *_: Any) -> None:
        draw_panel(self, self.selected, radius=6)


def header(columns: Sequence[tuple[str, float]], layout: Layout | None = None) -> BoxLayout:
    """The titles of a list's columns, dimmed, arranged as the rows are."""
    labels = [cell(text, width, bold=True, color=theme.TEXT_DIM) for text, width in columns]
    return Lines(
        labels,
        layout or one_line([width for _, width in columns]),
        pad=(8, 0),
    )


class Panel(ModalPanel):
    """An opaque panel over the screen: a title, lines of text or rows, buttons."""

    def __init__(self, title: str, height: float = 0.9, **kw: Any) -> None:
        super().__init__((0.92, height), shade=0.75, radius=10, **kw)
        self.box.add_widget(grow_label(title, font=24, bold=True, color=theme.ACCENT))
        self.body = BoxLayout(orientation="vertical")
        self.box.add_widget(self.body)
        self.message = grow_label("", font=17, color=theme.ERROR)
        self.box.add_widget(self.message)
        self.buttons = BoxLayout(size_hint_y=None)
        self.box.add_widget(self.buttons)
        self.lay_out()

    def lay_out(self) -> None:
        """Its sizes, from the window's (again when it changes while the panel shows)."""
        self.size_hint_x = 0.96 if SCALE.portrait else 0.92
        self.box.padding = gap(10)
        self.box.spacing = gap(6)
        self.body.spacing = gap(6)
        self.buttons.spacing = gap(8)
        self.buttons.height = line_height() * 1.2
        refit(self)

    def text(self, line: str, **kw: Any) -> Label:
        label = cell(line, 1, **kw)
        self.body.add_widget(label)
        return label

    def button(self, text: str, action: Callable[[], object]) -> Any:
        b = button(text, action)
        self.buttons.add_widget(b)
        return b
