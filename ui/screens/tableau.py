"""A player's tableau as it stood, read-only: name, points, tokens, bonuses, nobles and
reserved cards. For looking back over a game; the table during play has its own panels,
which can be tapped into moves.
"""

from __future__ import annotations

from typing import Any

from kivy.properties import BooleanProperty
from kivy.uix.anchorlayout import AnchorLayout
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from companion.engine.game import Seat
from companion.engine.rules import BASE

from .. import theme
from ..cardface import CARD_RATIO
from ..i18n import tr
from ..layout import LINE, NameLabel, gap
from ..scale import SCALE
from ..widgets.pieces import CardView, GemRow
from .listing import draw_panel


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


def gem_row() -> float:
    """A row of counted gems: its digits at the floor at the least."""
    return max(SCALE.px(22), float(SCALE.min_text) / 0.62 + 1)


def seat_height() -> float:
    """The least height a :class:`SeatView` shows everything in: the name's line, the
    tokens, the bonuses."""
    return SCALE.font(17) * LINE + 2 + 2 * gem_row() + 2 * gap(2) + 2 * gap(3)


class SeatView(BoxLayout):
    """One player at one moment; ``active``: the player who made the move shown (framed,
    and named in the line below the table). Points on the left, large; the name (never
    cut inside a word), the tokens and the bonuses; the reserved cards on the right."""

    active = BooleanProperty(False)

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.reserve_slots = BASE.reserve_limit  # the shown game's (A4), set by show()
        self.points_label = Label(bold=True, color=theme.ACCENT, size_hint_x=None)
        middle = BoxLayout(orientation="vertical")
        self.top_line = BoxLayout(size_hint_y=None)
        self.name_label = NameLabel(bold=True, largest=17)
        self.nobles_label = Label(halign="right", size_hint_x=None, width=0)
        self.nobles_label.bind(texture_size=lambda w, s: setattr(w, "width", s[0] + 4))
        self.top_line.add_widget(self.name_label)
        self.top_line.add_widget(self.nobles_label)
        self.tokens = GemRow(size_hint_y=None, spread=True)
        self.bonuses = GemRow(size_hint_y=None, spread=True, bonuses=True)
        for part in (self.top_line, self.tokens, self.bonuses):
            middle.add_widget(part)
        self.reserved = BoxLayout(size_hint_x=None)
        self.add_widget(self.points_label)
        self.add_widget(middle)
        self.add_widget(self.reserved)
        self.middle = middle
        self.bind(pos=self._back, size=self._back, active=self._back)
        self.sizes()

    def sizes(self) -> None:
        """Every size from the window's (again after a resize)."""
        self.padding = gap(3)
        self.spacing = gap(6)
        self.middle.spacing = gap(2)
        self.points_label.font_size = SCALE.font(26)
        self.points_label.width = SCALE.font(26) * 1.5
        self.top_line.height = SCALE.font(17) * LINE + 2
        self.nobles_label.font_size = SCALE.font(15)
        self.tokens.height = self.bonuses.height = gem_row()
        # The reserved cards abreast (3 in the base game), each a finger's width at the least.
        slots = self.reserve_slots
        self.reserved.spacing = gap(3)
        self.reserved.width = slots * SCALE.target(44) + (slots - 1) * gap(3)

    def _back(self, *_: Any) -> None:
        draw_panel(self, self.active)

    def show(self, seat: Seat, active: bool) -> None:
        if seat.rules.reserve_limit != self.reserve_slots:
            self.reserve_slots = seat.rules.reserve_limit
            self.sizes()
        self.active = active
        self.name_label.name = seat.name
        self.points_label.text = str(seat.points)
        self.nobles_label.text = tr("Nobles: {n}").format(n=len(seat.nobles)) if seat.nobles else ""
        if not seat.nobles:  # an empty text is never rendered: its width would stay
            self.nobles_label.width = 0
        self.tokens.values = list(seat.tokens)
        self.bonuses.values = [*seat.bonuses, 0]  # no gold card: the slot stays empty
        self.reserved.clear_widgets()
        for card in seat.reserved:
            self.reserved.add_widget(card_slot(CardView(card=card, small=True)))
        for _ in range(self.reserve_slots - len(seat.reserved)):
            self.reserved.add_widget(Widget())
