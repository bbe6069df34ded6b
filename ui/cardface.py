"""A card drawn small but legible: for the setup's places and pickers, and the move log.

A wide, short picture (the setup picker shows up to 8 cards a row, the log one a line): the
points and the bonus gem on the left, the cost as numbered gems on the right. Every gem has
the table's shape for its colour, and a bonus gem its letter too (W U G R K, the letters
of the game record), so that colour is never the only cue, and no id is drawn:
players know a card by what it shows.
"""

from __future__ import annotations

from typing import Any

from kivy.graphics import Color, Ellipse, Line, RoundedRectangle
from kivy.properties import NumericProperty, ObjectProperty

from companion.engine.cards import Card
from companion.engine.tokens import GEMS

from . import theme
from .scale import SCALE
from .widgets.drawing import (
    ROMAN,
    SMALLEST_TEXT,
    draw_back,
    draw_body,
    draw_gem,
    draw_noble,
    draw_place,
    legible_digit,
)
from .widgets.pieces import NobleView, Tappable, TokenButton
from .widgets.text import draw_text

CARD_RATIO = 1.4  # a card's height over its width, as on the table
DARK = (0.12, 0.12, 0.12, 1.0)


def _cost_grid(area_w: float, area_h: float, n: int) -> tuple[int, int, float]:
    """Columns, rows and gem size for ``n`` cost gems: as many columns as make the gems
    largest, the cost being what a player reads."""
    cols = max(range(1, n + 1), key=lambda k: min(area_h / -(-n // k), area_w / k))
    rows = -(-n // cols)
    return cols, rows, min(area_h / rows, area_w / cols)


def cost_digit(card: Card, w: float, h: float, floored: bool = True) -> float:
    """The font size :func:`draw_card` gives ``card``'s cost in a ``w`` x ``h`` box (one
    place says how a card is laid out: the pickers ask it whether a size is legible);
    ``floored=False``: the size its gems leave it, before the drawing's smallest text."""
    w = min(w, h * 2.2)
    lw = min(w * 0.36, h * 0.52)
    n = sum(1 for v in card.cost if v)
    _, _, d = _cost_grid(w - lw - w * 0.04, h * 0.88, n)
    raw = 0.6 * d * 0.95
    return max(raw, SMALLEST_TEXT + 0.5) if floored else raw


def draw_card(canvas: Any, card: Card, x: float, y: float, w: float, h: float) -> None:
    """``card`` in the box: points and bonus gem on the left, the cost on the right."""
    w = min(w, h * 2.2)  # never a long strip: the picture keeps a card's look
    r = min(w, h) * 0.1
    draw_body(canvas, card, x, y, w, h, r)
    fill = theme.TOKEN_FILL[card.bonus]
    lw = min(w * 0.36, h * 0.52)
    canvas.add(Color(*(0.55 + 0.45 * v for v in fill[:3]), 1))  # a light tint of the bonus
    canvas.add(RoundedRectangle(pos=(x + 1, y + 1), size=(lw - 1, h - 2), radius=[r, 0, 0, r]))
    gem = lw * 0.8
    if card.points:
        draw_text(canvas, str(card.points), x, y + h * 0.5, lw, h * 0.5, DARK, h * 0.4)
        draw_gem(canvas, card.bonus, x + (lw - gem) / 2, y + h * 0.06, gem, letter=True)
    else:
        draw_gem(canvas, card.bonus, x + (lw - gem) / 2, y + (h - gem) / 2, gem, letter=True)
    costs = [(c, n) for c, n in zip(GEMS, card.cost, strict=True) if n]
    area_w, area_h = w - lw - w * 0.04, h * 0.88
    cols, rows, d = _cost_grid(area_w, area_h, len(costs))
    left = x + lw + (area_w - cols * d) / 2 + w * 0.02
    top = y + h * 0.07 + (area_h + rows * d) / 2
    for i, (colour, n) in enumerate(costs):
        g = d * 0.95
        px, py = left + (i % cols) * d, top - (i // cols + 1) * d
        draw_gem(canvas, colour, px, py, g, str(n), digit=legible_digit(g))


class CardFace(Tappable):
    """A card (``card``), or an empty place of ``level`` to fill (a dashed outline)."""

    card = ObjectProperty(None, allownone=True)
    level = NumericProperty(0)
    deck = NumericProperty(0)  # a card of this level seen from the back (a blind reserve)

    redrawn_by = (*Tappable.redrawn_by, "card", "level", "deck")

    def redraw(self, *_: Any) -> None:
        c = self.canvas
        c.clear()
        x, y, w, h = self.x, self.y, self.width, self.height
        if self.deck:
            w = min(w, h * 2.2)
            draw_back(c, self.deck, x, y, w, h, 8)
            draw_text(c, ROMAN[self.deck], x, y, w, h, theme.TEXT, max(SMALLEST_TEXT, h * 0.4))
            return
        if self.card is None:
            draw_place(c, x, y, w, h, 8, "+", chosen=self.selected)
            return
        draw_card(c, self.card, x + (w - min(w, h * 2.2)) / 2, y, w, h)
        if self.dimmed:
            c.add(Color(0, 0, 0, 0.55))
            c.add(RoundedRectangle(pos=(x, y), size=(w, h), radius=[8]))


class NobleFace(NobleView):
    """The table's noble tile, kept a tile's shape in a wide place; an empty place for one
    is a dashed outline with a +."""

    def redraw(self, *_: Any) -> None:
        c = self.canvas
        c.clear()
        x, y, w, h = self.x, self.y, self.width, self.height
        if self.noble is None:
            draw_place(c, x, y, w, h, 8, "+", chosen=self.selected)
            return
        side = min(w, h * 1.25)
        draw_noble(c, self.noble, x + (w - side) / 2, y, side, h)


class ColourCard(TokenButton):
    """A bonus colour to choose in a picker: a card of that colour (its band, its gem's
    shape and letter) and, as a badge on its corner, how many of its cards can be chosen.
    Drawn a card's shape whatever the box; a colour with no card left is faded."""

    redrawn_by = (*TokenButton.redrawn_by, "disabled")

    def redraw(self, *_: Any) -> None:
        c = self.canvas
        c.clear()
        h = min(self.height, self.width * CARD_RATIO) * 0.92
        w = h / CARD_RATIO
        x, y = self.center_x - w / 2, self.center_y - h / 2
        r = w * 0.1
        alpha = 0.35 if self.dimmed or self.disabled else 1.0
        c.add(Color(*theme.CARD_BODY[:3], alpha))
        c.add(RoundedRectangle(pos=(x, y), size=(w, h), radius=[r]))
        band = h * 0.3
        c.add(Color(*theme.BAND[self.colour][:3], alpha))
        c.add(RoundedRectangle(pos=(x, y + h - band), size=(w, band), radius=[r, r, 0, 0]))
        gem = min(w * 0.7, h * 0.5)
        gx, gy = x + (w - gem) / 2, y + (h - band - gem) / 2
        draw_gem(c, self.colour, gx, gy, gem, alpha=alpha)
        ink = theme.TOKEN_TEXT[self.colour]
        letter = max(SCALE.min_text, gem * 0.5)
        draw_text(c, self.colour.letter, gx, gy, gem, gem, (*ink[:3], alpha), letter)
        # The count, on a badge over the card's top corner: what is left of this colour.
        # Its digit 18 px at 800x480 at the least, as the costs: a count read from a chair.
        badge = max(SCALE.font(18) / 0.58, min(w * 0.55, h * 0.36))
        bx = min(x + w - badge * 0.7, self.right - badge)
        by = min(y + h - badge * 0.7, self.top - badge)
        c.add(Color(*theme.ACCENT[:3], alpha))
        c.add(Ellipse(pos=(bx, by), size=(badge, badge)))
        digit = badge * 0.58
        draw_text(c, str(self.count), bx, by, badge, badge, theme.BANNER_TEXT, digit)
        if self.selected:  # the colour shown: framed, and its cards below
            c.add(Color(*theme.ACCENT))
            c.add(Line(rounded_rectangle=(x - 3, y - 3, w + 6, h + 6, r), width=2.5))
