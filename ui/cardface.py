"""A card drawn small but legible: for the setup's places and pickers, and the move log.

A wide, short picture (the setup picker shows up to 8 cards a row, the log one a line): the
points and the bonus gem on the left, the cost as numbered gems on the right. Every gem has
the table's shape for its colour, and a bonus gem its letter too (W U G R K, the letters
of the game record), so that colour is never the only cue, and no id is drawn:
players know a card by what it shows.
"""

from __future__ import annotations

from typing import Any

from kivy.graphics import Color, Line, Rectangle, RoundedRectangle
from kivy.properties import NumericProperty, ObjectProperty

from companion.cards import Card, Noble
from companion.tokens import GEMS, Colour

from . import theme
from .widgets import Tappable, draw_text
from .widgets import draw_gem as table_gem

SMALLEST_TEXT = 14.0  # px: nothing a player reads is drawn smaller (issue 9)
DARK = (0.12, 0.12, 0.12, 1.0)


def draw_gem(canvas: Any, colour: Colour, x: float, y: float, d: float, text: str = "") -> None:
    """A gem of ``colour`` (size ``d``) in the table's shape for that colour, with ``text``
    (a count) on it, or else its letter: the shape, and the letter where there is room,
    tell the colour without it."""
    if text:
        table_gem(
            canvas, colour, x, y, d, text, digit=max(0.6, (SMALLEST_TEXT + 0.5) / max(d, 1.0))
        )
        return
    table_gem(canvas, colour, x, y, d)
    ink = theme.TOKEN_TEXT[colour]
    draw_text(canvas, colour.letter, x, y, d, d, ink, max(SMALLEST_TEXT, d * 0.56))


def draw_card(canvas: Any, card: Card, x: float, y: float, w: float, h: float) -> None:
    """``card`` in the box: points and bonus gem on the left, the cost on the right."""
    w = min(w, h * 2.2)  # never a long strip: the picture keeps a card's look
    r = min(w, h) * 0.1
    canvas.add(Color(*theme.CARD_BODY))
    canvas.add(RoundedRectangle(pos=(x, y), size=(w, h), radius=[r]))
    fill = theme.TOKEN_FILL[card.bonus]
    lw = min(w * 0.36, h * 0.52)
    canvas.add(Color(*(0.55 + 0.45 * v for v in fill[:3]), 1))  # a light tint of the bonus
    canvas.add(RoundedRectangle(pos=(x, y), size=(lw, h), radius=[r, 0, 0, r]))
    canvas.add(Color(*theme.CARD_BACK[card.level - 1]))
    canvas.add(Rectangle(pos=(x + lw, y), size=(w - lw - r, h * 0.07)))
    canvas.add(Color(0.5, 0.5, 0.5, 1))
    canvas.add(Line(rounded_rectangle=(x, y, w, h, r), width=1))
    gem = lw * 0.8
    if card.points:
        draw_text(canvas, str(card.points), x, y + h * 0.5, lw, h * 0.5, DARK, h * 0.4)
        draw_gem(canvas, card.bonus, x + (lw - gem) / 2, y + h * 0.06, gem)
    else:
        draw_gem(canvas, card.bonus, x + (lw - gem) / 2, y + (h - gem) / 2, gem)
    costs = [(c, n) for c, n in zip(GEMS, card.cost, strict=True) if n]
    area_w, area_h = w - lw - w * 0.04, h * 0.88
    # As many columns as make the gems largest: the cost is what a player reads.
    cols = max(
        range(1, len(costs) + 1),
        key=lambda k: min(area_h / -(-len(costs) // k), area_w / k),
    )
    rows = -(-len(costs) // cols)
    d = min(area_h / rows, area_w / cols)
    left = x + lw + (area_w - cols * d) / 2 + w * 0.02
    top = y + h * 0.07 + (area_h + rows * d) / 2
    for i, (colour, n) in enumerate(costs):
        draw_gem(canvas, colour, left + (i % cols) * d, top - (i // cols + 1) * d, d * 0.95, str(n))


def draw_noble(canvas: Any, noble: Noble, x: float, y: float, w: float, h: float) -> None:
    """A noble: its points and the bonuses it asks for, as numbered square gems."""
    canvas.add(Color(*theme.hex_rgba("#e9dcc0")))
    canvas.add(RoundedRectangle(pos=(x, y), size=(w, h), radius=[6]))
    needs = [(c, n) for c, n in zip(GEMS, noble.requires, strict=True) if n]
    d = min(h * 0.9 / len(needs), w * 0.45)
    for i, (colour, n) in enumerate(needs):
        draw_gem(canvas, colour, x + w * 0.06, y + h - (i + 1) * d - h * 0.04, d * 0.92, str(n))
    draw_text(
        canvas, str(noble.points), x + w * 0.5, y + h * 0.5, w * 0.45, h * 0.45, DARK, h * 0.3
    )


class CardFace(Tappable):
    """A card (``card``), or an empty place of ``level`` to fill (a dashed outline)."""

    card = ObjectProperty(None, allownone=True)
    level = NumericProperty(0)
    deck = NumericProperty(0)  # a card of this level seen from the back (a blind reserve)

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.bind(card=self.redraw_soon, level=self.redraw_soon, deck=self.redraw_soon)

    def redraw(self, *_: Any) -> None:
        c = self.canvas
        c.clear()
        x, y, w, h = self.x, self.y, self.width, self.height
        if self.deck:
            w = min(w, h * 2.2)
            c.add(Color(*theme.CARD_BACK[self.deck - 1]))
            c.add(RoundedRectangle(pos=(x, y), size=(w, h), radius=[8]))
            draw_text(c, "I" * self.deck, x, y, w, h, theme.TEXT, max(SMALLEST_TEXT, h * 0.4))
            return
        if self.card is None:
            c.add(Color(*(theme.ACCENT if self.selected else (1, 1, 1, 0.35))))
            c.add(
                Line(
                    rounded_rectangle=(x + 2, y + 2, w - 4, h - 4, 8),
                    width=2 if self.selected else 1,
                    dash_offset=4,
                    dash_length=6,
                )
            )
            draw_text(c, "+", x, y, w, h, theme.TEXT_DIM, max(SMALLEST_TEXT, h * 0.4))
            return
        draw_card(c, self.card, x + (w - min(w, h * 2.2)) / 2, y, w, h)
        if self.dimmed:
            c.add(Color(0, 0, 0, 0.55))
            c.add(RoundedRectangle(pos=(x, y), size=(w, h), radius=[8]))


class NobleFace(Tappable):
    """A noble tile, or an empty place for one (a dashed outline)."""

    noble = ObjectProperty(None, allownone=True)

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.bind(noble=self.redraw_soon)

    def redraw(self, *_: Any) -> None:
        c = self.canvas
        c.clear()
        x, y, w, h = self.x, self.y, self.width, self.height
        if self.noble is None:
            c.add(Color(1, 1, 1, 0.35))
            c.add(Line(rounded_rectangle=(x + 2, y + 2, w - 4, h - 4, 8), width=1, dash_length=6))
            draw_text(c, "+", x, y, w, h, theme.TEXT_DIM, max(SMALLEST_TEXT, h * 0.4))
            return
        side = min(w, h * 1.25)
        draw_noble(c, self.noble, x + (w - side) / 2, y, side, h)
