"""A player's tableau as it stood, read-only: name, points, tokens, bonuses, nobles and
reserved cards. For looking back over a game; the table during play has its own panels,
which can be tapped into moves.
"""

from __future__ import annotations

from typing import Any

from kivy.clock import Clock
from kivy.graphics import Color, Ellipse, Line, RoundedRectangle
from kivy.properties import BooleanProperty, ListProperty
from kivy.uix.anchorlayout import AnchorLayout
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from companion.game import Seat
from companion.tokens import Colour

from .. import theme
from ..i18n import tr
from ..widgets import CardView, draw_text
from .listing import draw_panel, font

RESERVE = 3  # a player holds at most three reserved cards


class Gems(Widget):
    """A row of counts, one per colour in the rules' order, each on its colour's token
    (round) or card (square); the number is always written, colour is not the only sign."""

    values = ListProperty([0] * 6)
    square = BooleanProperty(False)

    def __init__(self, **kw: Any) -> None:
        self.redraw_soon = Clock.create_trigger(lambda dt: self.redraw(), -1)
        super().__init__(**kw)
        self.bind(pos=self.redraw_soon, size=self.redraw_soon, values=self.redraw_soon)

    def redraw(self, *_: Any) -> None:
        c = self.canvas
        c.clear()
        n = max(1, len(self.values))
        d = min(self.height, self.width / n * 0.9)
        gap = (self.width - n * d) / n
        for i, value in enumerate(self.values):
            colour = Colour(i)
            if self.square and colour == Colour.GOLD:
                continue  # no card has a gold bonus: the column stays bare, aligned
            x, y = self.x + i * (d + gap), self.center_y - d / 2
            shape = (
                RoundedRectangle(pos=(x, y), size=(d, d), radius=[d * 0.18])
                if self.square
                else Ellipse(pos=(x, y), size=(d, d))
            )
            if not value:
                c.add(Color(1, 1, 1, 0.12))
                c.add(shape)
                continue
            c.add(Color(*theme.TOKEN_FILL[colour]))
            c.add(shape)
            c.add(Color(*theme.TOKEN_RING[colour]))
            if self.square:
                c.add(Line(rounded_rectangle=(x, y, d, d, d * 0.18), width=1))
            else:
                c.add(Line(circle=(x + d / 2, y + d / 2, d / 2), width=1))
            draw_text(c, str(value), x, y, d, d, theme.TOKEN_TEXT[colour], max(14.0, d * 0.62))


CARD_RATIO = 1.4  # a card's height over its width, as on the table


def card_slot(view: CardView) -> AnchorLayout:
    """``view`` in its slot at a card's proportions, however tall the panel is."""
    slot = AnchorLayout(anchor_x="center", anchor_y="center")
    view.size_hint = (None, None)

    def fit(*_: Any) -> None:
        width = min(slot.width, slot.height / CARD_RATIO)
        view.size = (width, width * CARD_RATIO)

    slot.bind(size=fit)
    slot.add_widget(view)
    return slot


class SeatView(BoxLayout):
    """One player at one moment; ``active``: the player who made the move shown (framed,
    and named in the line below the table)."""

    active = BooleanProperty(False)

    def __init__(self, **kw: Any) -> None:
        super().__init__(padding=4, spacing=4, **kw)
        left = BoxLayout(orientation="vertical", spacing=2)
        top = BoxLayout(size_hint_y=0.4, spacing=4)
        size = font()
        self.name_label = Label(font_size=size * 1.1, bold=True, halign="left", valign="middle")
        self.nobles_label = Label(font_size=size, halign="right", valign="middle")
        self.points_label = Label(
            font_size=size * 1.3, bold=True, color=theme.ACCENT, size_hint_x=0.3
        )
        for label in (self.name_label, self.nobles_label):
            label.bind(size=lambda w, s: setattr(w, "text_size", s))
            label.shorten = True
            top.add_widget(label)
        top.add_widget(self.points_label)
        self.tokens = Gems(size_hint_y=0.3)
        self.bonuses = Gems(size_hint_y=0.3, square=True)
        for part in (top, self.tokens, self.bonuses):
            left.add_widget(part)
        self.reserved = BoxLayout(size_hint_x=0.42, spacing=3)
        self.add_widget(left)
        self.add_widget(self.reserved)
        self.bind(pos=self._back, size=self._back, active=self._back)

    def _back(self, *_: Any) -> None:
        draw_panel(self, self.active)

    def show(self, seat: Seat, active: bool) -> None:
        self.active = active
        self.name_label.text = seat.name
        self.points_label.text = str(seat.points)
        self.nobles_label.text = tr("Nobles: {n}").format(n=len(seat.nobles)) if seat.nobles else ""
        self.tokens.values = list(seat.tokens)
        self.bonuses.values = [*seat.bonuses, 0]  # no gold card: the slot stays empty
        self.reserved.clear_widgets()
        for card in seat.reserved:
            self.reserved.add_widget(card_slot(CardView(card=card)))
        for _ in range(RESERVE - len(seat.reserved)):
            self.reserved.add_widget(Widget())
