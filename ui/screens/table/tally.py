"""The players' counts as a grid, where a line each does not fit: the 3.5-inch screen
(480x320) with three or four players, at rest (the others under the player to act in
full) and beside the companion's move (every player, the one to act outlined).

A row is a player: the name over the points, then per colour the tokens held (a bare
gem, its shape and colour, the count beside it) over the bonuses owned (the gem on a
card's square, the count beside it), then the token total against the limit over the
reserved cards and nobles counted. A player's line (:class:`.players.PlayerPanel`) is a
tap target, a finger's height (36 px there); the grid's rows are not (the grid is one
target, opening every player in full), so a row is only as tall as its two lines of
12 px counts: four rows and the companion's move fit where four lines pushed its Done
and its card under the floor (issue 34). The counts stand beside their gems, in the
text's colour: inside a 15 px gem a 12 px digit spilled over the diamond's edges.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from kivy.clock import Clock
from kivy.graphics import Color, Line, RoundedRectangle
from kivy.properties import BooleanProperty, ListProperty, NumericProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from companion.engine.game import Seat
from companion.engine.rules import BASE
from companion.engine.tokens import Colour

from ... import theme
from ...scale import SCALE
from ...widgets.drawing import draw_back, draw_gem
from ...widgets.text import draw_text, fit_name, text_width

GAP = 2.0  # px between rows, and beside them inside the grid (1 above and below)


def line_least() -> float:
    """A line of counts: a count at the text floor (15 px at 480x320)."""
    return float(math.ceil(SCALE.min_text * 1.2))


def row_least() -> float:
    """A row's least height: its two lines of counts, a pixel between them."""
    return 2 * line_least() + 1


def grid_least(rows: int) -> float:
    """The grid's least height for ``rows`` players (never under a finger's height)."""
    return float(max(SCALE.min_target, rows * row_least() + (rows - 1) * GAP + 2))


class Tally(Widget):
    """One player's counts: per colour the tokens over the bonuses, then the total over
    the reserve and the nobles counted (nothing where none)."""

    tokens = ListProperty([0] * 6)
    bonuses = ListProperty([0] * 5)
    reserved = ListProperty([])  # the reserved cards' levels
    nobles = NumericProperty(0)
    limit = NumericProperty(BASE.token_limit)
    across = True  # its counts are read across the table (the legibility test checks them)

    def __init__(self, **kw: Any) -> None:
        self.redraw_soon = Clock.create_trigger(lambda dt: self.redraw(), -1)
        super().__init__(**kw)
        for name in ("pos", "size", "tokens", "bonuses", "reserved", "nobles", "limit"):
            self.bind(**{name: self.redraw_soon})

    def total_width(self) -> float:
        """The right-hand column: the widest total (``10/10``) at the floor, or the
        reserve's and nobles' tiles side by side."""
        text = text_width(f"{self.limit}/{self.limit}", SCALE.min_text) + 4
        return float(max(text, 2 * line_least() + 2))

    def redraw(self, *_: Any) -> None:
        c = self.canvas
        c.clear()
        x, y, w, h = self.x, self.y, self.width, self.height
        right = self.total_width()
        cw = (w - right) / 6
        line = (h - 1) / 2  # a line of counts: the tokens over, the bonuses under
        top = y + h - line
        s = min(line * 0.9, cw * 0.5)  # a gem's side, its count beside it
        text = SCALE.min_text

        def count(number: str, at: float, ly: float) -> None:
            """A count just after its gem: the gap falls between columns, not inside one."""
            tw = min(cw - s - 1, text_width(number, text, bold=True) + 2)
            draw_text(c, number, at + 1, ly, tw, line, theme.TEXT, text)

        for colour in Colour:
            cx = x + colour * cw
            held = self.tokens[colour]
            gy = top + (line - s) / 2
            if held:
                draw_gem(c, colour, cx + 1, gy, s)
                count(str(held), cx + s, top)
            else:  # none: a faint dot keeps the column
                c.add(Color(1, 1, 1, 0.12))
                c.add(RoundedRectangle(pos=(cx + 1 + s * 0.3, gy + s * 0.3), size=(s * 0.4,) * 2))
            if colour == Colour.GOLD:
                continue
            owned = self.bonuses[colour]
            by = y + (line - s) / 2
            # A bonus: its gem on a card's square (a token's is bare), the count beside.
            c.add(Color(*(theme.CARD_BODY if owned else (1, 1, 1, 0.08))))
            c.add(RoundedRectangle(pos=(cx + 1, by), size=(s, s), radius=[s * 0.15]))
            if owned:
                g = s * 0.8
                draw_gem(c, colour, cx + 1 + (s - g) / 2, by + (s - g) / 2, g)
                count(str(owned), cx + s, y)
        total = sum(self.tokens)
        limit = int(self.limit)
        ink = theme.ERROR if total >= limit else theme.ACCENT if total >= limit - 2 else theme.TEXT
        tx = x + w - right
        draw_text(c, f"{total}/{limit}", tx, top, right, line, ink, text)
        side = line
        nx = tx + (right - 2 * side - 2) / 2
        if self.reserved:
            draw_back(c, max(self.reserved), nx, y, side, side, 3)
            draw_text(c, str(len(self.reserved)), nx, y, side, side, theme.TEXT, text)
        nx += side + 2
        if self.nobles:
            c.add(Color(*theme.NOBLE_FILL))
            c.add(RoundedRectangle(pos=(nx, y), size=(side, side), radius=[3]))
            c.add(Color(*theme.NOBLE_RING))
            c.add(Line(rounded_rectangle=(nx, y, side, side, 3), width=1))
            draw_text(c, str(self.nobles), nx, y, side, side, theme.NOBLE_INK, text)


class TallyRow(BoxLayout):
    """A player in the grid: the name over the points, and the :class:`Tally`."""

    outlined = BooleanProperty(False)  # the player to act, beside its move

    def __init__(self, **kw: Any) -> None:
        super().__init__(spacing=2, padding=[3, 0, 2, 0], **kw)
        self.seat_index = 0
        self.names = BoxLayout(orientation="vertical", size_hint_x=None)
        self.name_label = Label(halign="left", valign="middle", bold=True)
        self.name_label.full_name = ""
        fit_name(self.name_label, lambda: SCALE.min_text, lambda: SCALE.min_text)
        self.points_label = Label(
            halign="left", valign="middle", bold=True, color=theme.ACCENT, font_size=SCALE.min_text
        )
        self.points_label.bind(size=lambda w, s: setattr(w, "text_size", s))
        self.names.add_widget(self.name_label)
        self.names.add_widget(self.points_label)
        self.tally = Tally()
        self.add_widget(self.names)
        self.add_widget(self.tally)
        self.bind(pos=self._bg, size=self._bg, outlined=self._bg)

    def show(self, seat: Seat, outlined: bool) -> None:
        self.seat_index = seat.seat
        self.outlined = outlined
        self.name_label.full_name = seat.name
        self.points_label.text = str(seat.points)
        self.points_label.font_size = SCALE.min_text
        tally = self.tally
        tally.limit = seat.rules.token_limit
        tally.tokens = list(seat.tokens)
        tally.bonuses = list(seat.bonuses)
        tally.reserved = [c.level for c in seat.reserved]
        tally.nobles = len(seat.nobles)
        self._bg()

    def name_width(self, room: float) -> float:
        """The names' column: the name whole at the floor where ``room`` allows, up to a
        third of the row (a longer name is cut between its words)."""
        name = self.name_label.full_name or ""
        least = text_width(name, SCALE.min_text, bold=True) + 6
        return float(min(max(least, text_width("00", SCALE.min_text, bold=True)), room))

    def _bg(self, *_: Any) -> None:
        self.name_label.fit_name()
        self.canvas.before.clear()
        if not self.outlined:
            return
        with self.canvas.before:
            Color(*theme.PANEL_ACTIVE)
            RoundedRectangle(pos=self.pos, size=self.size, radius=[4])
            Color(*theme.ACCENT)
            Line(rounded_rectangle=(self.x, self.y, self.width, self.height, 4), width=1.2)


class TallyGrid(ButtonBehavior, BoxLayout):
    """The grid of players' rows: one tap target (a tap opens every player in full)."""

    def __init__(self, on_open: Callable[[int], None], **kw: Any) -> None:
        super().__init__(orientation="vertical", spacing=GAP, padding=[GAP, 1], **kw)
        self.rows: list[TallyRow] = []
        self.bind(on_release=lambda *_: on_open(-1))
        self.bind(pos=self._bg, size=self._bg)

    def show(self, seats: list[Seat], outlined: int | None) -> None:
        """``seats``' rows, in play order; ``outlined``: the seat to act, beside its move."""
        while len(self.rows) < len(seats):
            self.rows.append(TallyRow())
        del self.rows[len(seats) :]
        self.clear_widgets()
        for seat, row in zip(seats, self.rows, strict=True):
            row.show(seat, seat.seat == outlined)
            self.add_widget(row)
        self._columns()

    def _columns(self, *_: Any) -> None:
        """Every row's names column as wide as the widest name asks (the counts line up)."""
        room = max(1.0, self.width / 3)
        width = max((row.name_width(room) for row in self.rows), default=room)
        for row in self.rows:
            row.names.width = width

    def _bg(self, *_: Any) -> None:
        self._columns()
        self.canvas.before.clear()
        with self.canvas.before:
            Color(*theme.PANEL)
            RoundedRectangle(pos=self.pos, size=self.size, radius=[6])
