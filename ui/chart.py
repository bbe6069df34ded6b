"""A chart of each player's points per round, drawn by the app (and saved as a PNG).

Each line carries its seat's number at every point, in the legend too, so a line is told
apart without its colour; the axes say what they count (rounds, points).
"""

from __future__ import annotations

import math
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kivy.clock import Clock
from kivy.graphics import Color, Ellipse, Line, Rectangle
from kivy.properties import ListProperty, NumericProperty
from kivy.uix.widget import Widget

from companion.engine.rules import BASE
from companion.files import EXPORT_ELSEWHERE, write_atomic
from companion.i18n import percent

from . import theme
from .i18n import tr
from .layout import short_name
from .scale import SCALE
from .widgets.text import draw_text, text_width, widest_word, wrapped_lines

# One colour per seat, distinct from each other and readable on the dark background.
SEAT_COLOURS = [theme.hex_rgba(code) for code in theme.SEAT_HEX]


@dataclass(frozen=True)
class LegendEntry:
    """A seat's words in the chart's legend as drawn: its lines (one, or its words wrapped
    between them), the left of its text and the top of its first line, its font."""

    seat: int
    lines: tuple[str, ...]
    x: float
    top: float
    font: float


def marked_rounds(
    seat: int, seats: int, rounds: int, width: float, marker: float, span: int = 0
) -> range:
    """The rounds whose point carries ``seat``'s number: every few rounds, the seats in
    turn, so that two markers are never closer than a marker and a bit. ``span``: the
    rounds the width stands for, when more than are drawn yet (a review under way): the
    markers' spacing is measured on it, else they would pile up."""
    apart = max(1, math.ceil(marker * 1.2 * max(rounds, span) / max(width, 1.0)))
    return range(seat * apart, rounds, apart * max(1, seats))


class PointsChart(Widget):
    """``rounds[i][seat]``: points at the end of round i+1; ``names`` in seat order.

    Its text is 18 px at 800x480, scaled with the window (:data:`ui.scale.SCALE`): the
    chart is read by the whole table at the end. Off screen (a PNG for the USB stick) it
    follows its own height. The legend says each seat's number and name above the plot,
    on one or two rows, or beside it, one seat a line, when the names are long; a name
    too long even so is shortened by whole words, never cut inside one.
    """

    rounds = ListProperty([])
    names = ListProperty([])
    goal = NumericProperty(BASE.winning_points)  # the game's rules' winning points (E1)

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.legend: list[LegendEntry] = []  # as last drawn
        # The seat markers on the lines as last drawn, (x, y, diameter): never on each other.
        self.markers: list[tuple[float, float, float]] = []
        trigger = Clock.create_trigger(lambda dt: self.redraw(), -1)
        self.bind(pos=trigger, size=trigger, rounds=trigger, names=trigger, goal=trigger)

    @property
    def text(self) -> float:
        """The font of the chart's words and numbers."""
        if self.get_root_window() is None:  # drawn for a file: as large as it is
            return max(18.0, float(self.height) * 0.05)
        return SCALE.font(18)

    def _label(
        self, text: str, x: float, y: float, w: float, h: float, colour: Any, size: float = 0
    ) -> None:
        draw_text(self.canvas, text, x, y, w, h, colour, size or self.text, bold=False)

    def _marker(self, seat: int, x: float, y: float, d: float) -> None:
        """The seat's number in a disc of its colour: the line's name without colour."""
        c = self.canvas
        c.add(Color(*SEAT_COLOURS[seat % len(SEAT_COLOURS)]))
        c.add(Ellipse(pos=(x - d / 2, y - d / 2), size=(d, d)))
        digit = max(SCALE.min_text, d / 1.3)  # the chart's font in a disc 1.3 times it
        draw_text(c, str(seat + 1), x - d / 2, y - d / 2, d, d, (0.08, 0.08, 0.1, 1), digit)

    def _on_line(
        self, seat: int, x: float, y: float, d: float, rings: Sequence[tuple[float, float]] = ()
    ) -> None:
        """A seat's marker on its line, unless it would cover one already there or a ring
        (``rings``, of the same size at the most): a marker on another hides both."""
        if any(
            abs(x - mx) < (d + md) / 2 and abs(y - my) < (d + md) / 2 for mx, my, md in self.markers
        ):
            return
        if any(abs(x - rx) < d and abs(y - ry) < d for rx, ry in rings):
            return
        self.markers.append((x, y, d))
        self._marker(seat, x, y, d)

    def _entries(self, text: float) -> list[tuple[int, str, float]]:
        """Each seat's number, its words (``Companion (hard) (15)``) and their width."""
        rounds = self.rounds
        return [
            (seat, said, text * 2.2 + text_width(said, text))
            for seat, name in enumerate(self.names)
            for said in [f"{name} ({rounds[-1][seat] if rounds else 0})"]
        ]

    def _legend(self, text: float, w: float) -> list[list[tuple[int, str, float]]] | None:
        """The legend's rows above the plot: one if the seats fit in ``w``, else two;
        ``None`` if even two rows are too narrow (long names, four seats): the legend
        then goes beside the plot."""
        seats = self._entries(text)
        if not seats:
            return []
        if sum(width for *_, width in seats) <= w:
            return [seats]
        half = (len(seats) + 1) // 2
        rows = [seats[:half], seats[half:]]
        if all(sum(width for *_, width in row) <= w for row in rows):
            return rows
        return None

    def redraw(self, *_: Any) -> None:
        c = self.canvas
        c.clear()
        self.markers = []
        text = self.text
        c.add(Color(*theme.PANEL))
        c.add(Rectangle(pos=self.pos, size=self.size))
        x0 = self.x + max(self.width * 0.08, text * 3.6)
        right = self.x + self.width - text * 0.8
        rows = self._legend(text, right - x0)
        if rows is None:  # beside the plot, one seat a line, at most 40% of the width
            column = min(max(width for *_, width in self._entries(text)), self.width * 0.4)
            right -= column + text
            self.legend = self._beside(right + text, text)
            rows = []
        else:
            self.legend = self._above(rows, x0, right - x0, text)
        y0 = self.y + text * 2.8
        w = right - x0
        top_room = text * (1.8 + 1.5 * len(rows)) if rows else text * 1.8
        h = self.y + self.height - top_room - y0
        self._plot(x0, y0, w, h, text)
        for entry in self.legend:
            self._marker(entry.seat, entry.x - text, entry.top - entry.font * 0.6, text * 1.3)
            for n, line in enumerate(entry.lines):
                ly = entry.top - entry.font * 1.2 * (n + 1)
                # Its own width, so it sits beside its marker (draw_text centres).
                width = text_width(line, entry.font)
                self._label(line, entry.x, ly, width, entry.font * 1.2, theme.TEXT, entry.font)
        self._label(
            self.y_words(),
            self.x,
            self.y + self.height - text * 1.6,
            x0 - self.x - 4,
            text * 1.2,
            theme.TEXT_DIM,
        )

    def _above(
        self, rows: list[list[tuple[int, str, float]]], x0: float, w: float, text: float
    ) -> list[LegendEntry]:
        """The legend's rows above the plot, spread over its width, one line a seat."""
        entries = []
        for row, seats in enumerate(rows):
            top = self.y + self.height - text * (0.4 + 1.5 * row)
            lx = x0
            spare = (w - sum(width for _, _, width in seats)) / len(seats)
            for seat, said, width in seats:
                entries.append(LegendEntry(seat, (said,), lx + text * 1.6, top, text))
                lx += width + max(0.0, spare)
        return entries

    def _beside(self, lx: float, text: float) -> list[LegendEntry]:
        """The legend beside the plot from ``lx``, a seat under the other: each seat's
        words whole, wrapped between them on more lines where the column is narrow (the
        companion's level too: ``Companion 2 (medium) (2)``), their font smaller, down
        to the floor, where they would not fit the chart's height so. Only a word too
        wide for the column even at the floor shortens its name, by whole words."""
        x = lx + text * 1.6
        room = self.x + self.width - x - text * 0.3
        top = self.y + self.height - text * 0.6
        floor = float(SCALE.min_text)
        font = max(floor, text)
        while True:
            entries = [
                LegendEntry(seat, lines, x, top, font)
                for seat, said, _ in self._entries(font)
                for lines in [self._wrapped(seat, said, font, room)]
            ]
            # Each seat's lines, then a gap: a seat a line takes 1.6 times the font.
            heights = [max(len(e.lines) * font, text) * 1.2 + text * 0.4 for e in entries]
            if sum(heights) <= top - self.y or font <= floor:
                break
            font = max(floor, float(int(font * 0.92)))
        for i, entry in enumerate(entries):
            entries[i] = LegendEntry(entry.seat, entry.lines, x, top - sum(heights[:i]), font)
        return entries

    def _wrapped(self, seat: int, said: str, font: float, room: float) -> tuple[str, ...]:
        """A seat's words on lines ``room`` wide; its name shortened by whole words only
        where a word is wider than the room."""
        if widest_word(said, font, bold=False) <= room:
            return tuple(wrapped_lines(said, font, room))
        name = self.names[seat]
        points = said[len(name) :]
        return (short_name(name, room - text_width(points, font), font) + points,)

    def y_words(self) -> str:
        """What the vertical axis counts, above it."""
        return tr("Points")

    def _plot(self, x0: float, y0: float, w: float, h: float, text: float) -> None:
        """The grid, the winning line, each seat's line with its numbers, the axes' words."""
        c = self.canvas
        rounds = self.rounds
        goal = int(self.goal)
        top = max([goal + 3, *(max(r) + 2 for r in rounds)] if rounds else [goal + 3])
        n = max(1, len(rounds))
        # The points every 5, or every 10 where the plot is too low for every 5.
        step = 5 if h * 5 / top >= text * 1.3 else 10
        for value in range(0, top + 1, step):
            y = y0 + h * value / top
            c.add(Color(1, 1, 1, 0.12 if value != goal else 0.5))
            c.add(Line(points=[x0, y, x0 + w, y], width=1))
            self._label(str(value), self.x, y - text / 2, x0 - self.x - 4, text, theme.TEXT_DIM)
        y15 = y0 + h * goal / top
        c.add(Color(*theme.ACCENT, 0.6))
        c.add(Line(points=[x0, y15, x0 + w, y15], width=1, dash_length=8, dash_offset=6))
        for seat in range(len(self.names)):
            colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
            points = [x0, y0]
            for i, r in enumerate(rounds):
                points += [x0 + w * (i + 1) / n, y0 + h * r[seat] / top]
            c.add(Color(*colour))
            c.add(Line(points=points, width=2.2))
            # A number on the line every few rounds, the seats in turn, the markers far
            # enough apart not to hide each other where the lines run together.
            for i in marked_rounds(seat, len(self.names), len(rounds), w, text * 1.3):
                self._on_line(seat, points[2 * i + 2], points[2 * i + 3], text * 1.3)
        # The rounds along the bottom: as many as fit at the chart's font.
        every = max(1, n // 10, int(n * text * 2.6 // max(w, 1.0)) + 1)
        for i in range(0, n + 1, every):
            x = x0 + w * i / n
            self._label(str(i), x - text * 1.2, y0 - text * 1.4, text * 2.4, text, theme.TEXT_DIM)
        self._label(tr("Round"), x0, self.y + 2, w, text * 1.1, theme.TEXT_DIM)

    def save_png(self, path: Path) -> Path:
        """Render into ``path`` offscreen, whatever is on screen; atomically, like exports,
        and never through a link (:func:`companion.files.write_atomic`: ``NotAFile``)."""
        self.redraw()
        # Kivy writes the picture to a name (and follows a link there): a private folder
        # of our own, then the export folder's own way of writing.
        with tempfile.TemporaryDirectory(prefix="splendor-chart-") as private:
            drawn = Path(private, "chart.png")  # Kivy picks the format by suffix
            self.export_to_png(str(drawn))
            write_atomic(path, drawn.read_bytes(), advice=EXPORT_ELSEWHERE)
        return path


class ChanceChart(PointsChart):
    """Each player's chance of winning over the game, move by move (the game review):
    ``rounds[i][seat]`` is the seat's chance (0 to 1) after move i (index 0: before the
    first move); ``moves`` the game's length, so a review under way draws as far as it got;
    ``marks`` the moves a player is told about (a costly move), a dot on its mover's line;
    ``at`` the move shown beside it, a vertical line."""

    moves = NumericProperty(1)
    marks = ListProperty([])  # (move, seat)
    at = NumericProperty(-1)

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        trigger = Clock.create_trigger(lambda dt: self.redraw(), -1)
        self.bind(moves=trigger, marks=trigger, at=trigger)

    def _entries(self, text: float) -> list[tuple[int, str, float]]:
        """Each seat's number and name: the lines say the chances (a legend with them
        too leaves four long names no room)."""
        return [
            (seat, name, text * 2.2 + text_width(name, text))
            for seat, name in enumerate(self.names)
        ]

    def y_words(self) -> str:
        """ "Chance" where it fits beside the axis' numbers, else the unit alone."""
        words = tr("Chance")
        room = max(self.width * 0.08, self.text * 3.6) - 4
        small = max(SCALE.min_text, self.text * 0.8)
        return words if text_width(words, small) <= room else "%"

    def _plot(self, x0: float, y0: float, w: float, h: float, text: float) -> None:
        c = self.canvas
        rows = self.rounds
        n = max(1, int(self.moves))
        # A line every 25%, or every 50% where the plot is too low for them all.
        step = 25 if h / 4 >= text * 1.3 else 50
        for value in range(0, 101, step):
            y = y0 + h * value / 100
            c.add(Color(1, 1, 1, 0.5 if value == 50 else 0.12))
            c.add(Line(points=[x0, y, x0 + w, y], width=1))
            said = percent(value / 100)
            self._label(said, self.x, y - text / 2, x0 - self.x - 4, text, theme.TEXT_DIM)
        if 0 <= self.at <= n:
            x = x0 + w * self.at / n
            c.add(Color(*theme.ACCENT, 0.8))
            c.add(Line(points=[x, y0, x, y0 + h], width=1.5, dash_length=6, dash_offset=4))
        for seat in range(len(self.names)):
            colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
            points: list[float] = []
            for i, r in enumerate(rows):
                points += [x0 + w * i / n, y0 + h * r[seat]]
            c.add(Color(*colour))
            if len(points) >= 4:
                c.add(Line(points=points, width=2.2))
        # The costly moves: a ring of the mover's colour where their line dropped.
        rings = []
        for move, seat in self.marks:
            if move < len(rows):
                x, y = x0 + w * move / n, y0 + h * rows[move][seat]
                d = text * 1.1
                c.add(Color(*SEAT_COLOURS[seat % len(SEAT_COLOURS)]))
                c.add(Line(circle=(x, y, d / 2), width=2))
                rings.append((x, y))
        # The seats' numbers on their lines, spaced for the whole game (drawn so far or
        # not), none over a ring.
        for seat in range(len(self.names)):
            points = [v for i, r in enumerate(rows) for v in (x0 + w * i / n, y0 + h * r[seat])]
            for i in marked_rounds(seat, len(self.names), len(rows), w, text * 1.3, n + 1):
                if i > 0:
                    self._on_line(seat, points[2 * i], points[2 * i + 1], text * 1.3, rings)
        # The moves along the bottom, as many as fit at the chart's font, at round steps.
        least = max(1, n // 10, int(n * text * 2.6 // max(w, 1.0)) + 1)
        every = next((s for s in (1, 2, 5, 10, 20, 25, 50, 100) if s >= least), least)
        for i in range(0, n + 1, every):
            x = x0 + w * i / n
            self._label(str(i), x - text * 1.2, y0 - text * 1.4, text * 2.4, text, theme.TEXT_DIM)
        self._label(tr("Move"), x0, self.y + 2, w, text * 1.1, theme.TEXT_DIM)
