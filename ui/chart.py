"""A chart of each player's points per round, drawn by the app (and saved as a PNG)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from kivy.clock import Clock
from kivy.graphics import Color, Line, Rectangle
from kivy.properties import ListProperty
from kivy.uix.widget import Widget

from companion.setup import WINNING_POINTS

from . import theme
from .widgets import draw_text

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
        draw_text(self.canvas, text, x, y, w, h, colour, max(14.0, self.height * 0.04), bold=False)

    def redraw(self, *_: Any) -> None:
        c = self.canvas
        c.clear()
        x0, y0 = self.x + self.width * 0.08, self.y + self.height * 0.12
        w, h = self.width * 0.88, self.height * 0.72
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
            self._label(str(value), self.x, y - 8, x0 - self.x - 4, 16, theme.TEXT_DIM)
        y15 = y0 + h * WINNING_POINTS / top
        c.add(Color(*theme.ACCENT, 0.6))
        c.add(Line(points=[x0, y15, x0 + w, y15], width=1, dash_length=8, dash_offset=6))
        for seat, name in enumerate(self.names):
            colour = SEAT_COLOURS[seat % len(SEAT_COLOURS)]
            points = [x0, y0]
            for i, r in enumerate(rounds):
                points += [x0 + w * (i + 1) / n, y0 + h * r[seat] / top]
            c.add(Color(*colour))
            c.add(Line(points=points, width=2.2))
            lx = x0 + seat * w / max(1, len(self.names))
            c.add(Rectangle(pos=(lx, self.y + self.height * 0.88), size=(14, 14)))
            score = rounds[-1][seat] if rounds else 0
            self._label(
                f"{name} ({score})",
                lx + 18,
                self.y + self.height * 0.86,
                w / max(1, len(self.names)) - 22,
                18,
                theme.TEXT,
            )
        for i in range(0, n + 1, max(1, n // 10)):
            self._label(
                str(i), x0 + w * i / n - 15, self.y + 2, 30, self.height * 0.08, theme.TEXT_DIM
            )

    def save_png(self, path: Path) -> Path:
        """Render into ``path`` offscreen, whatever is on screen; atomically, like exports."""
        part = path.with_name(f".{path.stem}.part.png")  # Kivy picks the format by suffix
        self.redraw()
        try:
            self.export_to_png(str(part))
            os.replace(part, path)
        finally:
            part.unlink(missing_ok=True)
        return path
