"""What every screen and dialog off the table needs to follow the window: a layout done
again when the window changes size or shape, texts whose font fits their box, names
shortened by whole words, buttons sized from :data:`ui.scale.SCALE`.

Sizes are given as the 7-inch 800x480 screen reads them and scaled by ``SCALE``; fonts
never go under ``SCALE.min_text`` nor targets under ``SCALE.min_target``.

Text is measured before it is drawn (:func:`fit_font`), so a label's font is the largest
that fits: its words wrap between words, never inside one, and its lines fit its box.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.clock import Clock
from kivy.core.window import Window
from kivy.properties import NumericProperty, StringProperty
from kivy.uix.anchorlayout import AnchorLayout
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from .scale import SCALE
from .widgets.buttons import big_button
from .widgets.text import short_forms, text_width, wrapped_lines

LINE = 1.22  # a line of text's height over its font size (Roboto, as Kivy renders it)
ELLIPSIS = "…"


# ---------------------------------------------------------------------- measuring


def words_fit(text: str, font: float, width: float, bold: bool = False) -> bool:
    """Whether every word of ``text`` is narrower than ``width`` at ``font``."""
    return all(text_width(word, font, bold) <= width for word in text.split())


def line_count(text: str, font: float, width: float, bold: bool = False) -> int:
    """The lines ``text`` takes wrapped between words in ``width`` (Kivy wraps the same
    way: a word goes to the next line when it does not fit after the last one)."""
    return len(wrapped_lines(text, font, width, bold))


def text_height(text: str, font: float, width: float, bold: bool = False) -> float:
    """How tall ``text`` is drawn wrapped in ``width`` at ``font``."""
    return line_count(text, font, width, bold) * font * LINE + 2


def fit_font(text: str, width: float, height: float, largest: float, bold: bool = False) -> float:
    """The largest font up to ``largest`` (px, already scaled) at which ``text`` wraps
    between words in ``width`` and its lines fit ``height``; the floor if none does."""
    floor = float(SCALE.min_text)
    font = max(floor, float(int(largest)))
    while font > floor:
        if words_fit(text, font, width, bold) and (
            height == float("inf") or text_height(text, font, width, bold) <= height
        ):
            return font
        font = max(floor, float(int(font * 0.92)))
    return floor


def short_name(name: str, width: float, font: float, bold: bool = False) -> str:
    """``name`` if it fits ``width`` at ``font``, else its longest short form that does
    (:func:`ui.widgets.text.short_forms`, the table's: whole leading words and "…", ``Marie-…``,
    ``Jean…``), never cut inside a word ("Co...ion"); the shortest form if none fits."""
    forms = short_forms(name)
    return next((f for f in forms if text_width(f, font, bold) <= width), forms[-1])


def best_grid(n: int, width: float, height: float, aspect: float, gap: float) -> tuple[int, int]:
    """Columns and rows for ``n`` tiles of ``aspect`` (height over width) in a box, so that
    the tiles are as large as can be."""

    def side(cols: int) -> float:
        rows = -(-n // cols)
        w = (width - gap * (cols - 1)) / cols
        h = (height - gap * (rows - 1)) / rows
        return min(w, h / aspect)

    cols = max(range(1, max(1, n) + 1), key=side)
    return cols, -(-max(1, n) // cols)


# ---------------------------------------------------------------------- following the window


def refit(root: Widget) -> None:
    """Fit again everything under ``root`` that sizes itself from the window's scale (a
    label whose width did not change, say): after a resize, for a dialog kept open.

    Nothing binds :data:`SCALE` itself: a widget no longer shown would be fitted again
    at every resize until it is collected."""
    for widget in list(root.walk(restrict=True)):
        again = getattr(widget, "refit", None)
        if again is not None and widget is not root:
            again()


class FollowsWindow:
    """Mixed into a screen or a dialog: :meth:`lay_out` runs again when the window changes
    size or shape (a rotation, another display), at once while it shows; a screen not
    showing is laid out again when it is next shown."""

    _stale = False

    def follow_window(self) -> None:
        self._relayout = Clock.create_trigger(lambda dt: self._window_changed(), -1)
        # A bound method is held weakly by Kivy: a closed app's screens are not kept alive.
        Window.bind(size=self._on_window_size)
        if isinstance(self, Screen):
            self.fbind("on_pre_enter", self._entering)

    def _on_window_size(self, *_: Any) -> None:
        self._relayout()

    def _window_changed(self) -> None:
        if not self.showing():
            self._stale = True
            return
        self._stale = False
        self.lay_out()

    def _entering(self, *_: Any) -> None:
        if self._stale:
            self._stale = False
            self.lay_out()

    def showing(self) -> bool:
        root: Any = getattr(self, "get_root_window", lambda: None)()
        return root is not None

    def lay_out(self) -> None:
        raise NotImplementedError


class Shaped(FollowsWindow, Screen):
    """A screen laid out again when the window changes; its :meth:`lay_out` redraws it
    (by default :meth:`refresh`, which every screen has)."""

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.follow_window()

    def showing(self) -> bool:
        return self.parent is not None and self.get_root_window() is not None

    def lay_out(self) -> None:
        refresh: Callable[[], None] | None = getattr(self, "refresh", None)
        if refresh is not None:
            refresh()


# ---------------------------------------------------------------------- texts


class FitLabel(Label):
    """A text that fills its box: the largest font up to ``largest`` (px at 800x480,
    scaled) at which it wraps between words and its lines fit; never under the floor."""

    largest = NumericProperty(18.0)

    def __init__(self, **kw: Any) -> None:
        kw.setdefault("halign", "left")
        kw.setdefault("valign", "middle")
        super().__init__(**kw)
        self.bind(size=self._fit, text=self._fit, largest=self._fit, padding=self._fit)
        self._fit()

    def refit(self) -> None:
        self._fit()

    def _fit(self, *_: Any) -> None:
        width = max(1.0, self.width - self.padding[0] - self.padding[2] - 2)
        self.font_size = fit_font(
            self.text, width, self.height, SCALE.font(self.largest), self.bold
        )
        self.text_size = (width, None)


class GrowLabel(Label):
    """A text as tall as its lines, wrapped between words in its width: a message is never
    cut. Its font is ``font`` (scaled), smaller only where a word would not fit."""

    font = NumericProperty(18.0)

    def __init__(self, **kw: Any) -> None:
        kw.setdefault("halign", "left")
        kw.setdefault("valign", "middle")
        kw.setdefault("size_hint_y", None)
        super().__init__(**kw)
        self.bind(width=self._fit, text=self._fit, font=self._fit, padding=self._fit)
        self.bind(texture_size=self._grow)
        self._fit()

    def refit(self) -> None:
        self._fit()

    def _fit(self, *_: Any) -> None:
        width = max(1.0, self.width - self.padding[0] - self.padding[2] - 2)
        self.font_size = fit_font(self.text, width, float("inf"), SCALE.font(self.font), self.bold)
        self.text_size = (width, None)
        if not self.text:
            self.height = 0  # nothing to say: no room taken (Kivy renders no texture)

    def _grow(self, *_: Any) -> None:
        self.height = self.texture_size[1] + 2 if self.text else 0


def fit_label(text: str = "", font: float = 18, **kw: Any) -> FitLabel:
    return FitLabel(text=text, largest=font, **kw)


def grow_label(text: str = "", font: float = 18, **kw: Any) -> GrowLabel:
    return GrowLabel(text=text, font=font, **kw)


def button(text: str, action: Callable[[], object], font: float = 20, **kw: Any) -> Button:
    """The app's button (:func:`ui.widgets.buttons.big_button`), its font the largest up to
    ``font`` (px at 800x480, scaled) at which its words fit: they wrap between words,
    never inside one, and their lines fit the button."""
    b = big_button(text, action, **kw)

    def fit(b: Button, *_: Any) -> None:
        # Bound after big_button's own fit: Kivy calls observers in the order they were
        # bound, so this one has the last word.
        width = b.width * 0.94
        b.font_size = fit_font(b.text, width - 2, b.height * 0.94, SCALE.font(font), True)

    b.bind(size=fit, text=fit)
    fit(b)
    return b


def row_height(n: float = 48) -> float:
    """A row of buttons: ``n`` px at 800x480, never under the finger's floor."""
    return SCALE.target(n)


class TileGrid(AnchorLayout):
    """Tiles of one shape (``aspect``: height over width) in as many columns as make them
    largest in the room there is, in its middle; arranged again when the room changes.
    ``least``: tiles sized as if there were that many at the least (two cards left keep
    a card's size rather than fill the panel)."""

    def __init__(
        self,
        tiles: list[Widget],
        aspect: float,
        spacing: float = 10,
        least: int = 1,
        **kw: Any,
    ) -> None:
        super().__init__(**kw)
        self.tiles = tiles
        self.aspect = aspect
        self.space = spacing
        self.least = least
        self.grid = GridLayout(
            size_hint=(None, None), col_force_default=True, row_force_default=True
        )
        for tile in tiles:
            self.grid.add_widget(tile)
        self.add_widget(self.grid)
        self.bind(size=self._arrange)
        self._arrange()

    def refit(self) -> None:
        self._arrange()

    def _arrange(self, *_: Any) -> None:
        space = gap(self.space)
        n = max(1, self.least, len(self.tiles))
        cols, rows = best_grid(n, self.width, self.height, self.aspect, space)
        side = min(
            (self.width - space * (cols - 1)) / cols,
            (self.height - space * (rows - 1)) / rows / self.aspect,
        )
        side = max(1.0, side)
        cols = max(1, min(cols, len(self.tiles)))
        rows = -(-max(1, len(self.tiles)) // cols)
        grid = self.grid
        grid.cols = cols
        grid.spacing = space
        grid.col_default_width = side
        grid.row_default_height = side * self.aspect
        grid.size = (
            cols * side + (cols - 1) * space,
            rows * side * self.aspect + (rows - 1) * space,
        )


def fit_row(row: BoxLayout, *labels: Label, least: float = 0) -> None:
    """``row`` (a horizontal box) as tall as its tallest label (they grow with their
    text), and ``least`` at the least, with its padding; what it holds in its middle."""
    for child in row.children:
        if not {"y", "top", "center_y"} & set(child.pos_hint):
            child.pos_hint = {**child.pos_hint, "center_y": 0.5}

    def fit(*_: Any) -> None:
        pad = row.padding[1] + row.padding[3] if len(row.padding) == 4 else 0
        row.height = max(least, *(label.height for label in labels)) + pad

    for label in labels:
        label.bind(height=fit)
    fit()


def gap(n: float = 6) -> float:
    """Spacing and padding: ``n`` px at 800x480."""
    return max(2.0, SCALE.px(n))


def name_line(widget: Label, name: str, font: float, before: str = "", after: str = "") -> None:
    """Put ``before + name + after`` on one line of ``widget`` (a label or a button): the
    name in full at ``font`` (px at 800x480, scaled) or down to 70% of it (never under
    the floor) where it fits so, else shortened by whole words (:func:`short_name`)."""
    w = widget
    room = float(w.width) * 0.94 - 2
    font_px = max(SCALE.min_text, float(int(min(SCALE.font(font), w.height / LINE))))
    least = max(SCALE.min_text, float(int(font_px * 0.7)))
    full = before + name + after

    def fits(text: str, size: float) -> bool:
        return text_width(text, size, bool(w.bold)) <= room

    def shorter(size: float) -> str:
        rest = room - text_width(before + after, size, w.bold)
        return before + short_name(name, rest, size, w.bold) + after

    while not fits(full, font_px) and font_px > least:
        font_px = max(least, float(int(font_px * 0.92)))
    text = full if fits(full, font_px) else shorter(font_px)
    # A single word too long even so (a name shortens by words only): down to the floor.
    while not fits(text, font_px) and font_px > SCALE.min_text:
        font_px = max(SCALE.min_text, float(int(font_px * 0.92)))
        text = full if fits(full, font_px) else shorter(font_px)
    # The text first: a button's own fit runs when its text changes; this one wins.
    w.text = text
    w.font_size = font_px
    # One line that fits: aligned in the whole width, or centred by Kivy.
    w.text_size = (None, None) if w.halign == "center" else (max(1.0, room), None)


def show_name(
    widget: Label, name: str, font: float = 18, before: str = "", after: str = ""
) -> None:
    """``widget`` says ``name`` by :func:`name_line`, again whenever its size changes."""
    widget.bind(size=lambda w, *_: name_line(w, name, font, before, after))
    name_line(widget, name, font, before, after)


class NameLabel(Label):
    """A name on one line: in full where it fits, else shortened by whole words, never
    cut inside one (:func:`name_line`); ``name`` may change."""

    name = StringProperty("")
    largest = NumericProperty(18.0)

    def __init__(self, **kw: Any) -> None:
        kw.setdefault("halign", "left")
        super().__init__(**kw)
        self.bind(size=self._fit, name=self._fit, largest=self._fit)
        self._fit()

    def _fit(self, *_: Any) -> None:
        name_line(self, self.name, self.largest)
