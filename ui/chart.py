"""A chart of each player's points per round, drawn by the app (and saved as a PNG).

Each line carries its seat's number at every point, in the legend too, so a line is told
apart without its colour; the axes say what they count (rounds, points).
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from kivy.clock import Clock
from kivy.graphics import Color, Ellipse, Line, Rectangle
from kivy.properties import ListProperty
from kivy.uix.widget import Widget

from companion.files import EXPORT_ELSEWHERE, write_atomic
from companion.setup import WINNING_POINTS

from . import theme
from .i18n import tr
from .widgets import draw_text, text_width

# One colour per seat, distinct from each other and readable on the dark background.
SEAT_COLOURS = [
    theme.hex_rgba("#f0b92a"),
    theme.hex_rgba("#4fa3ff"),
    theme.hex_rgba("#ff6b5e"),
    theme.hex_rgba("#5ed38a"),
]


class PointsChart(Widget):
    """``rounds[i][seat]``: points at the end of round i+1; ``names`` in seat order."""

    rounds = ListProperty([])
    names = ListProperty([])

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        trigger = Clock.create_trigger(lambda dt: self.redraw(), -1)
        self.bind(pos=trigger, size=trigger, rounds=trigger, names=trigger)

    def _label(self, text: str, x: float, y: float, w: float, h: float, colour: Any) -> None:
        draw_text(self.canvas, text, x, y, w, h, colour, max(14.0, self.height * 0.05), bold=False)

    def _marker(self, seat: int, x: float, y: float, d: float) -> None:
        """The seat's number in a disc of its colour: the line's name without colour."""
        c = self.canvas
        c.add(Color(*SEAT_COLOURS[seat % len(SEAT_COLOURS)]))
        c.add(Ellipse(pos=(x - d / 2, y - d / 2), size=(d, d)))
        draw_text(
            c, str(seat + 1), x - d / 2, y - d / 2, d, d, (0.08, 0.08, 0.1, 1), max(14.0, d * 0.8)
        )

    def _legend(self, text: float, w: float) -> list[list[tuple[int, str, float]]]:
        """The legend's rows: each seat's number, its words (``Companion (hard) (15)``) and
        the width they need; in one row if they fit in ``w``, else in two (names are long
        with the companion's level, or in four seats)."""
        rounds = self.rounds
        seats = [
            (seat, said, text * 1.6 + text_width(said, text) + text * 0.6)
            for seat, name in enumerate(self.names)
            for said in [f"{name} ({rounds[-1][seat] if rounds else 0})"]
        ]
        if len(seats) < 2 or sum(width for *_, width in seats) <= w:
            return [seats] if seats else []
        half = (len(seats) + 1) // 2
        return [seats[:half], seats[half:]]

    def redraw(self, *_: Any) -> None:
        c = self.canvas
        c.clear()
        text = max(14.0, self.height * 0.05)
        x0, y0 = self.x + max(self.width * 0.08, text * 4), self.y + text * 2.6
        w = self.x + self.width * 0.97 - x0
        legend = self._legend(text, w)
        # A second row of legend, when one is too narrow for the names, lowers the plot.
        h = self.y + self.height - text * (2.4 + 1.4 * (len(legend) - 1)) - y0
        c.add(Color(*theme.PANEL))
        c.add(Rectangle(pos=self.pos, size=self.size))
        rounds = self.rounds
        top = max([WINNING_POINTS + 3, *(max(r) + 2 for r in rounds)] if rounds else [18])
        n = max(1, len(rounds))
        step = 5
        for value in range(0, top + 1, step):
            y = y0 + h * value / top
            c.add(Color(1, 1, 1, 0.12 if value != WINNING_POINTS else 0.5))
            c.add(Line(points=[x0, y, x0 + w, y], width=1))
            self._label(str(value), self.x, y - text / 2, x0 - self.x - 4, text, theme.TEXT_DIM)
        y15 = y0 + h * WINNING_POINTS / top
        c.add(Color(*theme.ACCENT, 0.6))
        c.add(Line(points=[x0, y15, x0 + w, y15], width=1, dash_length=8, dash_offset=6))
        for seat in range(len(self.names)):
            colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
            points = [x0, y0]
            for i, r in enumerate(rounds):
                points += [x0 + w * (i + 1) / n, y0 + h * r[seat] / top]
            c.add(Color(*colour))
            c.add(Line(points=points, width=2.2))
            # A number on the line every few rounds, staggered by seat so they do not hide
            # each other where lines cross.
            every = max(1, n // 8)
            for i in range(seat % every, len(rounds), every):
                self._marker(seat, points[2 * i + 2], points[2 * i + 3], text * 1.1)
        for row, seats in enumerate(legend):
            ly = self.y + self.height - text * (1.6 + 1.4 * row)
            lx = x0
            spare = (w - sum(width for _, _, width in seats)) / len(seats)
            for seat, said, width in seats:
                self._marker(seat, lx + text * 0.6, ly + text * 0.6, text * 1.2)
                # Its own width, so it sits beside its marker (draw_text centres); shrunk
                # only where even two rows are too narrow.
                room = width - text * 2.2 + min(0.0, spare)
                self._label(said, lx + text * 1.4, ly, room, text * 1.2, theme.TEXT)
                lx += width + max(0.0, spare)
        for i in range(0, n + 1, max(1, n // 10)):
            self._label(str(i), x0 + w * i / n - 15, y0 - text * 1.3, 30, text, theme.TEXT_DIM)
        self._label(tr("Round"), x0, self.y + 2, w, text * 1.1, theme.TEXT_DIM)
        self._label(
            tr("Points"),
            self.x,
            self.y + self.height - text * 1.6,
            x0 - self.x - 4,
            text * 1.2,
            theme.TEXT_DIM,
        )

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
