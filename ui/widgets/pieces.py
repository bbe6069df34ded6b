"""The pieces of the game as widgets, drawn on their canvas and tapped: a card (or a
deck, or an empty slot), a noble, a bank pile, and a row of counted gems."""

from __future__ import annotations

from typing import Any

from kivy.clock import Clock
from kivy.graphics import Color, Ellipse, Line, RoundedRectangle
from kivy.properties import (
    BooleanProperty,
    ListProperty,
    NumericProperty,
    ObjectProperty,
    StringProperty,
)
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.widget import Widget

from companion.engine.cards import Card, Noble
from companion.engine.game import Hidden
from companion.engine.tokens import GEMS, Colour

from .. import theme
from .drawing import ROMAN, draw_back, draw_body, draw_bonus, draw_gem, draw_noble, draw_place
from .text import draw_text


class Tappable(ButtonBehavior, Widget):
    """A widget that draws itself on its canvas and can be tapped."""

    highlight = BooleanProperty(False)
    selected = BooleanProperty(False)
    dimmed = BooleanProperty(False)

    # The properties whose change draws the widget again: a subclass adds its own.
    redrawn_by: tuple[str, ...] = ("pos", "size", "highlight", "selected", "dimmed")

    def __init__(self, **kw: Any) -> None:
        # Several properties often change in one frame: draw once, at the end of it.
        self.redraw_soon = Clock.create_trigger(lambda dt: self.redraw(), -1)
        super().__init__(**kw)
        self.bind(**dict.fromkeys(self.redrawn_by, self.redraw_soon))

    def redraw(self, *_: Any) -> None:
        raise NotImplementedError


class CardView(Tappable):
    """A development card, a blind-reserved card (``Hidden``), a deck, or an empty slot.

    Drawn as the physical card reads: points, bonus gem, cost. Small (a card in a player's
    reserve) it shows its bonus and points only; a tap opens it in full.
    """

    card = ObjectProperty(None, allownone=True)
    deck_level = NumericProperty(0)  # a deck: its level
    deck_count = NumericProperty(0)
    small = BooleanProperty(False)  # a reserve slot: bonus, points and level only

    redrawn_by = (*Tappable.redrawn_by, "card", "deck_count", "deck_level", "small")

    def _text(self, text: str, x: float, y: float, w: float, h: float, colour: Any) -> None:
        draw_text(self.canvas, text, x, y, w, h, colour, h)

    def redraw(self, *_: Any) -> None:
        c = self.canvas
        c.clear()
        x, y, w, h = self.x, self.y, self.width, self.height
        r = min(w, h) * 0.08
        card = self.card
        if self.deck_level:
            draw_back(c, self.deck_level, x, y, w, h, r, alpha=1 if self.deck_count else 0.35)
            self._text(ROMAN[self.deck_level], x, y + h * 0.52, w, h * 0.3, theme.TEXT)
            self._text(str(self.deck_count), x, y + h * 0.14, w, h * 0.28, theme.TEXT)
        elif card is None:
            draw_place(c, x, y, w, h, r)
        elif isinstance(card, Hidden):
            draw_back(c, card.level, x, y, w, h, r)
            if self.small or h < 60:  # a reserve slot: the level and a question mark
                self._text(ROMAN[card.level] + " ?", x, y + h * 0.2, w, h * 0.6, theme.TEXT)
            else:
                self._text("?", x, y + h * 0.25, w, h * 0.45, theme.TEXT)
                self._text(ROMAN[card.level], x, y + h * 0.72, w, h * 0.2, theme.TEXT)
        elif self.small or h < 60:
            self._draw_small(card, x, y, w, h, r)
        else:
            self._draw_card(card, x, y, w, h, r)
        if self.highlight or self.selected:
            c.add(Color(*(theme.ACCENT if self.selected else theme.HINT)))
            c.add(Line(rounded_rectangle=(x + 1, y + 1, w - 2, h - 2, r), width=2.5))
        if self.dimmed:
            c.add(Color(0, 0, 0, 0.55))
            c.add(RoundedRectangle(pos=(x, y), size=(w, h), radius=[r]))

    def _band(self, card: Card, x: float, y: float, w: float, band: float, r: float) -> None:
        """The card's top: a tint of its bonus (a white bonus: a grey band, so it shows)."""
        c = self.canvas
        c.add(Color(*theme.BAND[card.bonus]))
        c.add(RoundedRectangle(pos=(x, y), size=(w, band), radius=[r, r, 0, 0]))

    def _draw_small(self, card: Card, x: float, y: float, w: float, h: float, r: float) -> None:
        """A reserve slot: the bonus gem and the points on top, the level below."""
        draw_body(self.canvas, card, x, y, w, h, r)
        self._band(card, x, y + h * 0.5, w, h * 0.5, r)
        c = self.canvas
        gem = min(h * 0.46, w * 0.44)
        draw_gem(c, card.bonus, x + w - gem - w * 0.06, y + h * 0.52, gem)
        if card.points:
            draw_text(
                c, str(card.points), x, y + h * 0.5, w * 0.5, h * 0.5, theme.CARD_INK, h * 0.4
            )
        level = ROMAN[card.level]
        draw_text(c, level, x, y + h * 0.04, w, h * 0.44, theme.CARD_BACK[card.level - 1], h * 0.36)

    def _draw_card(self, card: Card, x: float, y: float, w: float, h: float, r: float) -> None:
        draw_body(self.canvas, card, x, y, w, h, r)
        band = h * 0.3
        self._band(card, x, y + h - band, w, band, r)
        if card.points:
            self._text(
                str(card.points), x + w * 0.04, y + h - band, band, band * 0.9, theme.CARD_INK
            )
        gem = band * 0.8
        draw_gem(
            self.canvas, card.bonus, x + w - gem - w * 0.06, y + h - band + (band - gem) / 2, gem
        )
        costs = [(col, n) for col, n in zip(GEMS, card.cost, strict=True) if n]
        # Two columns of large gems: the cost is what players read from across the table.
        d = min((h - band) * 0.42, w * 0.42)
        for i, (colour, n) in enumerate(costs):
            px = x + w * 0.05 + (i % 2) * d * 1.08
            py = y + h * 0.06 + (i // 2) * d * 1.06
            draw_gem(self.canvas, colour, px, py, d, str(n))


class NobleView(Tappable):
    """A noble tile: its points, and the bonuses it asks for (up to a 2x2 grid of gems)."""

    noble = ObjectProperty(None, allownone=True)

    redrawn_by = (*Tappable.redrawn_by, "noble")

    def redraw(self, *_: Any) -> None:
        c = self.canvas
        c.clear()
        x, y, w, h = self.x, self.y, self.width, self.height
        noble: Noble | None = self.noble
        if noble is None:
            c.add(Color(1, 1, 1, 0.25))
            c.add(Line(rounded_rectangle=(x + 2, y + 2, w - 4, h - 4, 6), width=1))
            return
        draw_noble(c, noble, x, y, w, h)
        if self.highlight or self.selected:
            c.add(Color(*(theme.ACCENT if self.selected else theme.HINT)))
            c.add(Line(rounded_rectangle=(x + 1, y + 1, w - 2, h - 2, 6), width=2.5))


class TokenButton(Tappable):
    """A bank pile: its colour and how many are left; ``chosen`` tokens of a take so far.

    ``sign`` marks the chosen tokens: ``+`` taken, ``-`` given back. ``blank`` shows no
    count (a bank audit, before the pile is counted). ``locked``: a pile that cannot be
    tapped (gold: it comes only with a reserve), drawn with a lock-like bar across.
    """

    colour = ObjectProperty(Colour.WHITE)
    count = NumericProperty(0)
    chosen = NumericProperty(0)
    sign = StringProperty("+")
    blank = BooleanProperty(False)
    locked = BooleanProperty(False)

    redrawn_by = (*Tappable.redrawn_by, "colour", "count", "chosen", "sign", "blank", "locked")

    def redraw(self, *_: Any) -> None:
        c = self.canvas
        c.clear()
        d = min(self.width, self.height) * 0.94
        x = self.center_x - d / 2
        y = self.center_y - d / 2
        alpha = 0.3 if self.dimmed else 0.55 if self.locked else 1.0
        draw_gem(c, self.colour, x, y, d, "?" if self.blank else str(self.count), alpha=alpha)
        if self.locked:  # not takable: a no-entry sign on the pile's corner
            b = max(d * 0.42, 22.0)
            bx, by = x + d - b * 0.8, y - b * 0.1
            c.add(Color(*theme.PANEL))
            c.add(Ellipse(pos=(bx, by), size=(b, b), segments=24))
            c.add(Color(*theme.ERROR))
            c.add(Line(circle=(bx + b / 2, by + b / 2, b / 2 - 1, 0, 360, 24), width=1.5))
            c.add(Line(points=[bx + b * 0.25, by + b / 2, bx + b * 0.75, by + b / 2], width=2))
        if self.selected:  # the colour being shown (a picker's tab)
            c.add(Color(*theme.ACCENT))
            c.add(
                Line(
                    rounded_rectangle=(self.x + 1, self.y + 1, self.width - 2, self.height - 2, 8),
                    width=2,
                )
            )
        if self.chosen:
            b = max(d * 0.5, 30.0)
            bx, by = x + d - b * 0.75, y + d - b * 0.75
            c.add(Color(*(theme.ACCENT if self.sign == "+" else theme.ERROR)))
            c.add(Ellipse(pos=(bx, by), size=(b, b)))
            draw_text(c, f"{self.sign}{self.chosen}", bx, by, b, b, (0.1, 0.1, 0.1, 1), b * 0.55)


class GemRow(Widget):
    """Counts as gems, each with its count (a payment, a move's tokens, a player's tokens
    or bonuses): shapes, not words.

    Packed (the default): the colours counted only, left to right, ``spacing`` apart, each
    as tall as the row, or as the width allows, within ``least`` and ``most`` (0: no
    bound). ``spread``: one place per colour across the width in the rules' order, an
    empty one faint, so the columns of several rows line up; ``bonuses``: each count on a
    card's square, as a player's bonuses are drawn (no card has a gold bonus: its place
    stays bare). ``digit``: a count's share of its gem.
    """

    values = ListProperty([0] * 6)
    spread = BooleanProperty(False)
    bonuses = BooleanProperty(False)
    spacing = NumericProperty(0.0)
    least = NumericProperty(0.0)
    most = NumericProperty(0.0)
    digit = NumericProperty(0.6)

    def __init__(self, **kw: Any) -> None:
        self.redraw_soon = Clock.create_trigger(lambda dt: self.redraw(), -1)
        super().__init__(**kw)
        self.bind(pos=self.redraw_soon, size=self.redraw_soon, values=self.redraw_soon)
        self.bind(spread=self.redraw_soon, bonuses=self.redraw_soon)

    @property
    def counted(self) -> list[tuple[Colour, int]]:
        """The colours with a count, in the rules' order."""
        return [(colour, n) for colour, n in zip(Colour, self.values, strict=False) if n]

    def gem(self, height: float) -> float:
        """A packed gem's size in a row ``height`` tall (the width aside)."""
        return min(height, float(self.most)) if self.most else height

    def wanted(self, height: float) -> float:
        """The width the packed row takes at ``height``."""
        return len(self.counted) * (self.gem(height) + float(self.spacing))

    def redraw(self, *_: Any) -> None:
        self.canvas.clear()
        if self.spread:
            self._spread()
            return
        counted = self.counted
        room = self.width / max(1, len(counted)) - self.spacing
        d = max(self.least, min(self.gem(self.height), room))
        for i, (colour, n) in enumerate(counted):
            x = self.x + i * (d + self.spacing)
            y = self.y + (self.height - d) / 2
            draw_gem(self.canvas, colour, x, y, d, str(n), digit=self.digit)

    def _spread(self) -> None:
        c = self.canvas
        n = max(1, len(self.values))
        d = min(self.height, self.width / n * 0.9)
        gap = (self.width - n * d) / n
        for colour, value in zip(Colour, self.values, strict=False):
            x, y = self.x + colour * (d + gap), self.center_y - d / 2
            if self.bonuses:
                if colour != Colour.GOLD:
                    draw_bonus(c, colour, x, y, d, value)
            elif value:
                draw_gem(c, colour, x, y, d, str(value), digit=0.62)
            else:
                c.add(Color(1, 1, 1, 0.12))
                c.add(Ellipse(pos=(x, y), size=(d, d)))
