"""The pieces of the table, drawn by the app itself: cards, nobles, tokens, panels.

No artwork: a card is its colour, points, bonus and cost, large enough to read at arm's
length on the 800x480 screen.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Ellipse, Line, Rectangle, RoundedRectangle
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, ObjectProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from companion.cards import Card, Noble
from companion.game import Hidden, Seat
from companion.i18n import localise
from companion.tokens import GEMS, Colour, Tokens

from . import theme


@lru_cache(maxsize=2048)
def _texture(text: str, size: int, bold: bool, colour: tuple[float, ...]) -> Any:
    label = CoreLabel(text=text, font_size=size, bold=bold, color=colour)
    label.refresh()
    return label.texture


def draw_text(
    canvas: Any,
    text: str,
    x: float,
    y: float,
    w: float,
    h: float,
    colour: Any,
    size: float,
    bold: bool = True,
) -> None:
    """Text centred in a box, drawn straight on a canvas: no widget, textures cached.

    The table redraws often; a Label widget per number would cost more than the drawing.
    """
    if not text:
        return
    texture = _texture(text, max(8, int(size)), bold, tuple(colour))
    tw, th = texture.size
    if tw > w > 0:  # too wide: shrink to fit rather than spill over
        th, tw = th * w / tw, w
    canvas.add(Color(1, 1, 1, 1))
    canvas.add(Rectangle(texture=texture, pos=(x + (w - tw) / 2, y + (h - th) / 2), size=(tw, th)))


def text_label(text: str = "", scale: float = 0.5, **kw: Any) -> Label:
    """A label whose font follows its height, so layouts scale from 800x480 up."""
    label = Label(text=text, **kw)
    label.bind(height=lambda w, h: setattr(w, "font_size", max(10.0, h * scale)))
    label.font_size = max(10.0, label.height * scale)
    label.bind(
        size=lambda w, s: setattr(w, "text_size", (s[0], None)) if w.halign != "center" else None
    )
    return label


class Tappable(ButtonBehavior, Widget):
    """A widget that draws itself on its canvas and can be tapped."""

    highlight = BooleanProperty(False)
    selected = BooleanProperty(False)
    dimmed = BooleanProperty(False)

    def __init__(self, **kw: Any) -> None:
        # Several properties often change in one frame: draw once, at the end of it.
        self.redraw_soon = Clock.create_trigger(lambda dt: self.redraw(), -1)
        super().__init__(**kw)
        self.bind(
            pos=self.redraw_soon,
            size=self.redraw_soon,
            highlight=self.redraw_soon,
            selected=self.redraw_soon,
            dimmed=self.redraw_soon,
        )

    def redraw(self, *_: Any) -> None:
        raise NotImplementedError


def _pip(canvas: Any, colour: Colour, x: float, y: float, d: float, round_: bool = True) -> None:
    canvas.add(Color(*theme.TOKEN_FILL[colour]))
    if round_:
        canvas.add(Ellipse(pos=(x, y), size=(d, d)))
    else:
        canvas.add(RoundedRectangle(pos=(x, y), size=(d, d), radius=[d * 0.18]))
    canvas.add(Color(*theme.TOKEN_RING[colour]))
    if round_:
        canvas.add(Line(circle=(x + d / 2, y + d / 2, d / 2), width=1))
    else:
        canvas.add(Line(rounded_rectangle=(x, y, d, d, d * 0.18), width=1))


class CardView(Tappable):
    """A development card, a blind-reserved card (``Hidden``), a deck, or an empty slot."""

    card = ObjectProperty(None, allownone=True)
    deck_level = NumericProperty(0)  # a deck: its level
    deck_count = NumericProperty(0)

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.bind(card=self.redraw_soon, deck_count=self.redraw_soon, deck_level=self.redraw_soon)

    def _text(
        self,
        text: str,
        x: float,
        y: float,
        w: float,
        h: float,
        colour: Any,
        bold: bool = True,
        size: float = 0.8,
    ) -> None:
        draw_text(self.canvas, text, x, y, w, h, colour, max(9.0, h * size), bold)

    def redraw(self, *_: Any) -> None:
        c = self.canvas
        c.clear()
        x, y, w, h = self.x, self.y, self.width, self.height
        r = min(w, h) * 0.08
        card = self.card
        if self.deck_level:
            c.add(
                Color(*theme.CARD_BACK[self.deck_level - 1][:3], 0.35 if not self.deck_count else 1)
            )
            c.add(RoundedRectangle(pos=(x, y), size=(w, h), radius=[r]))
            c.add(Color(1, 1, 1, 0.6))
            c.add(Line(rounded_rectangle=(x + 3, y + 3, w - 6, h - 6, r), width=1))
            self._text("I" * self.deck_level, x, y + h * 0.55, w, h * 0.3, theme.TEXT)
            self._text(str(self.deck_count), x, y + h * 0.15, w, h * 0.28, theme.TEXT)
        elif card is None:
            c.add(Color(1, 1, 1, 0.25))
            c.add(
                Line(
                    rounded_rectangle=(x + 2, y + 2, w - 4, h - 4, r),
                    width=1,
                    dash_offset=4,
                    dash_length=6,
                )
            )
        elif isinstance(card, Hidden):
            c.add(Color(*theme.CARD_BACK[card.level - 1]))
            c.add(RoundedRectangle(pos=(x, y), size=(w, h), radius=[r]))
            self._text("?", x, y + h * 0.25, w, h * 0.5, theme.TEXT)
            self._text("I" * card.level, x, y + h * 0.72, w, h * 0.2, theme.TEXT)
        else:
            self._draw_card(card, x, y, w, h, r)
        if self.highlight or self.selected:
            c.add(Color(*(theme.ACCENT if self.selected else theme.HINT)))
            c.add(Line(rounded_rectangle=(x + 1, y + 1, w - 2, h - 2, r), width=2.5))
        if self.dimmed:
            c.add(Color(0, 0, 0, 0.55))
            c.add(RoundedRectangle(pos=(x, y), size=(w, h), radius=[r]))

    def _draw_card(self, card: Card, x: float, y: float, w: float, h: float, r: float) -> None:
        c = self.canvas
        c.add(Color(*theme.CARD_BODY))
        c.add(RoundedRectangle(pos=(x, y), size=(w, h), radius=[r]))
        band = h * 0.3
        fill = theme.TOKEN_FILL[card.bonus]
        c.add(Color(*(0.55 + 0.45 * v for v in fill[:3]), 1))  # a light tint of the bonus
        c.add(RoundedRectangle(pos=(x, y + h - band), size=(w, band), radius=[r, r, 0, 0]))
        c.add(Color(*theme.CARD_BACK[card.level - 1]))
        c.add(Rectangle(pos=(x, y), size=(w, h * 0.04)))
        c.add(Color(0.5, 0.5, 0.5, 1))
        c.add(Line(rounded_rectangle=(x, y, w, h, r), width=1))
        small = w < 50  # a card in a player's reserve: colour, points and id only
        if card.points:
            self._text(
                str(card.points),
                x + w * 0.03,
                y + h - band,
                band,
                band,
                (0.12, 0.12, 0.12, 1),
                size=0.85,
            )
        gem = band * 0.72
        gx, gy = x + w - gem - w * 0.06, y + h - band + (band - gem) / 2
        _pip(c, card.bonus, gx, gy, gem)
        if small:
            self._labels_small(card.id, x, y + h * 0.1, w, h * 0.3)
            return
        costs = [(col, n) for col, n in zip(GEMS, card.cost, strict=True) if n]
        # Two columns of large pips: the cost is what players read from across the table.
        d = min((h - band) * 0.42, w * 0.4)
        for i, (colour, n) in enumerate(costs):
            px = x + w * 0.06 + (i % 2) * d * 1.1
            py = y + h * 0.07 + (i // 2) * d * 1.08
            _pip(c, colour, px, py, d)
            self._text(str(n), px, py, d, d, theme.TOKEN_TEXT[colour], size=0.72)
        self._text(
            card.id,
            x + band * 0.8,
            y + h - band * 0.62,
            w - band * 1.9,
            band * 0.3,
            (0.35, 0.35, 0.35, 1),
            bold=False,
        )

    def _labels_small(self, text: str, x: float, y: float, w: float, h: float) -> None:
        draw_text(self.canvas, text, x, y, w, h, (0.2, 0.2, 0.2, 1), max(8.0, w * 0.34))


class NobleView(Tappable):
    noble = ObjectProperty(None, allownone=True)

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.bind(noble=self.redraw_soon)

    def redraw(self, *_: Any) -> None:
        c = self.canvas
        c.clear()
        x, y, w, h = self.x, self.y, self.width, self.height
        noble: Noble | None = self.noble
        if noble is None:
            c.add(Color(1, 1, 1, 0.25))
            c.add(Line(rounded_rectangle=(x + 2, y + 2, w - 4, h - 4, 6), width=1))
            return
        c.add(Color(*theme.hex_rgba("#e9dcc0")))
        c.add(RoundedRectangle(pos=(x, y), size=(w, h), radius=[6]))
        c.add(Color(*theme.hex_rgba("#8a7650")))
        c.add(Line(rounded_rectangle=(x, y, w, h, 6), width=1.2))
        needs = [(col, n) for col, n in zip(GEMS, noble.requires, strict=True) if n]
        d = min(h / (len(needs) + 0.6), w * 0.34)
        for i, (colour, n) in enumerate(needs):
            px, py = x + w * 0.08, y + h * 0.06 + i * d * 1.05
            _pip(c, colour, px, py, d * 0.95, False)
            draw_text(c, str(n), px, py, d * 0.95, d * 0.95, theme.TOKEN_TEXT[colour], d * 0.65)
        draw_text(
            c,
            str(noble.points),
            x + w * 0.5,
            y + h * 0.55,
            w * 0.45,
            h * 0.4,
            (0.2, 0.16, 0.1, 1),
            h * 0.32,
        )
        if self.highlight or self.selected:
            c.add(Color(*(theme.ACCENT if self.selected else theme.HINT)))
            c.add(Line(rounded_rectangle=(x + 1, y + 1, w - 2, h - 2, 6), width=2.5))


class TokenButton(Tappable):
    """A bank pile: its colour and how many are left; ``chosen`` tokens of a take so far."""

    colour = ObjectProperty(Colour.WHITE)
    count = NumericProperty(0)
    chosen = NumericProperty(0)

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.bind(colour=self.redraw_soon, count=self.redraw_soon, chosen=self.redraw_soon)

    def redraw(self, *_: Any) -> None:
        c = self.canvas
        c.clear()
        d = min(self.width, self.height) * 0.92
        x = self.center_x - d / 2
        y = self.center_y - d / 2
        _pip(c, self.colour, x, y, d)
        draw_text(c, str(self.count), x, y, d, d, theme.TOKEN_TEXT[self.colour], d * 0.42)
        if self.chosen:
            b = d * 0.42
            c.add(Color(*theme.ACCENT))
            c.add(Ellipse(pos=(x + d - b * 0.8, y + d - b * 0.8), size=(b, b)))
            draw_text(
                c,
                f"+{self.chosen}",
                x + d - b * 0.8,
                y + d - b * 0.8,
                b,
                b,
                (0.1, 0.1, 0.1, 1),
                b * 0.5,
            )
        if self.dimmed:
            c.add(Color(*theme.BACKGROUND[:3], 0.6))
            c.add(Ellipse(pos=(x, y), size=(d, d)))


class Counts(Widget):
    """A row of small colour pips with counts: a hand of tokens or a set of bonuses."""

    values = ListProperty([0] * 6)
    square = BooleanProperty(False)

    def __init__(self, **kw: Any) -> None:
        self.redraw_soon = Clock.create_trigger(lambda dt: self.redraw(), -1)
        super().__init__(**kw)
        self.bind(pos=self.redraw_soon, size=self.redraw_soon, values=self.redraw_soon)

    def redraw(self, *_: Any) -> None:
        c = self.canvas
        c.clear()
        n = len(self.values)
        d = min(self.height, self.width / n * 0.9)
        gap = (self.width - n * d) / max(1, n)
        for i, value in enumerate(self.values):
            colour = Colour(i)
            px = self.x + i * (d + gap)
            py = self.center_y - d / 2
            if value:
                _pip(c, colour, px, py, d, not self.square)
            else:
                c.add(Color(1, 1, 1, 0.12))
                c.add(
                    Ellipse(pos=(px, py), size=(d, d))
                    if not self.square
                    else RoundedRectangle(pos=(px, py), size=(d, d), radius=[d * 0.18])
                )
            if value:
                draw_text(c, str(value), px, py, d, d, theme.TOKEN_TEXT[colour], d * 0.62)


class PlayerPanel(ButtonBehavior, BoxLayout):
    """One player: name, points, tokens, bonuses, nobles, and the reserved cards to tap."""

    active = BooleanProperty(False)

    def __init__(self, on_reserved: Callable[[int, Card | Hidden], None], **kw: Any) -> None:
        super().__init__(orientation="horizontal", padding=4, spacing=4, **kw)
        self.on_reserved = on_reserved
        self.seat_index = 0
        left = BoxLayout(orientation="vertical", size_hint_x=0.7, spacing=2)
        top = BoxLayout(size_hint_y=0.36)
        self.name_label = text_label(
            scale=0.62,
            halign="left",
            valign="middle",
            bold=True,
            shorten=True,
            shorten_from="right",
        )
        self.points_label = text_label(
            scale=0.72,
            size_hint_x=0.42,
            halign="right",
            valign="middle",
            bold=True,
            color=theme.ACCENT,
        )
        self.nobles_label = text_label(
            scale=0.5,
            size_hint_x=0.5,
            halign="right",
            valign="middle",
            color=theme.hex_rgba("#e9dcc0"),
        )
        top.add_widget(self.name_label)
        top.add_widget(self.nobles_label)
        top.add_widget(self.points_label)
        self.tokens = Counts(size_hint_y=0.32)
        self.bonuses = Counts(size_hint_y=0.32, square=True)
        left.add_widget(top)
        left.add_widget(self.tokens)
        left.add_widget(self.bonuses)
        self.reserved = BoxLayout(size_hint_x=0.3, spacing=2)
        self.add_widget(left)
        self.add_widget(self.reserved)
        self.bind(pos=self._bg, size=self._bg, active=self._bg)

    def _bg(self, *_: Any) -> None:
        self.canvas.before.clear()
        with self.canvas.before:
            Color(*(theme.PANEL_ACTIVE if self.active else theme.PANEL))
            RoundedRectangle(pos=self.pos, size=self.size, radius=[8])
            if self.active:
                Color(*theme.ACCENT)
                Line(
                    rounded_rectangle=(self.x + 1, self.y + 1, self.width - 2, self.height - 2, 8),
                    width=2,
                )

    def show(self, seat: Seat, active: bool, affordable: set[str]) -> None:
        self.seat_index = seat.seat
        self.active = active
        self.name_label.text = seat.name
        self.nobles_label.text = " ".join(n.id for n in seat.nobles)
        self.points_label.text = str(seat.points)
        self.tokens.values = list(seat.tokens)
        self.bonuses.values = list(seat.bonuses)
        self.reserved.clear_widgets()
        for item in seat.reserved:
            view = CardView(card=item, highlight=isinstance(item, Card) and item.id in affordable)
            view.bind(on_release=lambda v, it=item: self.on_reserved(self.seat_index, it))
            self.reserved.add_widget(view)
        for _ in range(3 - len(seat.reserved)):
            self.reserved.add_widget(Widget())


def big_button(text: str, on_press: Callable[[], object], **kw: Any) -> Button:
    button = Button(text=text, bold=True, halign="center", valign="middle", **kw)
    button.bind(size=lambda b, s: setattr(b, "text_size", (s[0] * 0.94, None)))
    button.bind(height=lambda b, h: setattr(b, "font_size", max(12.0, min(h * 0.38, 26))))
    button.bind(on_release=lambda *_: on_press())
    return button


def then(*actions: Callable[[], object]) -> Callable[[], None]:
    """One button, several things in order (close the dialog, then act)."""

    def run() -> None:
        for action in actions:
            action()

    return run


def tokens_text(tokens: Tokens) -> str:
    """``2 red, 1 gold`` in the current language."""
    return localise(tokens) or "0"
