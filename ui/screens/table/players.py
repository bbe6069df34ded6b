"""The players' column: the player to act in full, the others compact, a tap opens any.

In full a panel shows the name, the points, the reserved cards (tap one to buy it), and a
column per colour: the tokens held over the bonuses owned, with the token total against
the limit of 10. Compact, it shows the name, the token total and the points.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.clock import Clock
from kivy.core.window import Window
from kivy.graphics import Color, Line, RoundedRectangle
from kivy.properties import BooleanProperty, ListProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from companion.cards import Card
from companion.game import Hidden, Seat
from companion.setup import TOKEN_LIMIT
from companion.tokens import Colour

from ... import theme
from ...dialogs import Dialog
from ...i18n import tr
from ...widgets import CardView, NobleView, draw_gem, draw_text, text_label

RESERVE_SLOTS = 3


class Holdings(Widget):
    """Per colour, the tokens held (bare gems) over the bonuses owned (gems on a card),
    then the token total against the limit: ``7/10``, in warning colours near the limit."""

    tokens = ListProperty([0] * 6)
    bonuses = ListProperty([0] * 5)

    def __init__(self, **kw: Any) -> None:
        self.redraw_soon = Clock.create_trigger(lambda dt: self.redraw(), -1)
        super().__init__(**kw)
        self.bind(pos=self.redraw_soon, size=self.redraw_soon)
        self.bind(tokens=self.redraw_soon, bonuses=self.redraw_soon)

    def redraw(self, *_: Any) -> None:
        c = self.canvas
        c.clear()
        x, y, w, h = self.x, self.y, self.width, self.height
        total_w = w * 0.2
        cw = (w - total_w) / 6
        d = min(cw * 0.92, h / 2 * 0.96)
        for colour in Colour:
            px = x + colour * cw + (cw - d) / 2
            top = y + h / 2 + (h / 2 - d) / 2
            held = self.tokens[colour]
            if held:
                draw_gem(c, colour, px, top, d, str(held), digit=0.62)
            else:
                c.add(Color(1, 1, 1, 0.1))
                c.add(RoundedRectangle(pos=(px + d * 0.3, top + d * 0.3), size=(d * 0.4, d * 0.4)))
            if colour == Colour.GOLD:
                continue
            low = y + (h / 2 - d) / 2
            owned = self.bonuses[colour]
            c.add(Color(*(theme.CARD_BODY if owned else (1, 1, 1, 0.08))))
            c.add(RoundedRectangle(pos=(px, low), size=(d, d), radius=[d * 0.12]))
            if owned:
                g = d * 0.92
                draw_gem(c, colour, px + (d - g) / 2, low + (d - g) / 2, g, str(owned), digit=0.68)
        total = sum(self.tokens)
        ink = theme.ERROR if total >= TOKEN_LIMIT else theme.ACCENT if total >= 8 else theme.TEXT
        tx = x + w - total_w
        draw_text(c, f"{total}/{TOKEN_LIMIT}", tx, y + h / 2, total_w, h / 2, ink, h * 0.32)
        draw_text(c, tr("tokens"), tx, y, total_w, h / 2, theme.TEXT_DIM, h * 0.24, bold=False)


class PlayerPanel(ButtonBehavior, BoxLayout):
    """One player. ``full``: everything; otherwise one line (tap it to see everything)."""

    active = BooleanProperty(False)
    full = BooleanProperty(True)

    def __init__(
        self,
        on_reserved: Callable[[int, Card | Hidden], None],
        on_open: Callable[[int], None],
        **kw: Any,
    ) -> None:
        super().__init__(orientation="vertical", padding=4, spacing=2, **kw)
        self.on_reserved = on_reserved
        self.seat_index = 0
        self.bind(on_release=lambda *_: on_open(self.seat_index))
        self.top_row = BoxLayout(spacing=4)
        # Fonts follow the window, not the panel: a compact panel with room to spare must
        # not grow its words over each other.
        self.name_label = Label(halign="left", valign="middle", bold=True, shorten=True)
        self.summary = Label(size_hint_x=0.8, halign="right", valign="middle")
        self.points_label = Label(
            size_hint_x=None, halign="center", valign="middle", bold=True, color=theme.ACCENT
        )
        for label in (self.name_label, self.summary):
            label.bind(size=lambda w, size: setattr(w, "text_size", size))
        self.reserved = BoxLayout(spacing=4, size_hint_x=None)
        self.holdings = Holdings(size_hint_y=0.58)
        # The reserve's slots are square, as tall as the top line: a finger-sized target.
        self.top_row.bind(
            height=lambda row, h: setattr(
                self.reserved, "width", RESERVE_SLOTS * h + (RESERVE_SLOTS - 1) * 4
            )
        )
        self.bind(pos=self._bg, size=self._bg, active=self._bg, full=self._arrange)
        self._arrange()

    def _arrange(self, *_: Any) -> None:
        """Full: name, points, reserve on top, holdings below. Compact: one line."""
        self.clear_widgets()
        self.top_row.clear_widgets()
        self.top_row.add_widget(self.name_label)
        if self.full:
            self.top_row.add_widget(self.points_label)
            self.top_row.add_widget(self.reserved)
            self.top_row.size_hint_y = 0.42
            self.add_widget(self.top_row)
            self.add_widget(self.holdings)
        else:
            self.top_row.add_widget(self.summary)
            self.top_row.add_widget(self.points_label)
            self.top_row.size_hint_y = 1
            self.add_widget(self.top_row)
        self._bg()

    def _bg(self, *_: Any) -> None:
        unit = Window.height / 480  # 1 on the 7-inch screen
        self.name_label.font_size = 21 * unit
        self.summary.font_size = 18 * unit
        self.points_label.font_size = 30 * unit
        self.points_label.width = 52 * unit
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
        self.points_label.text = str(seat.points)
        self.summary.text = tr("{n}/{limit} tokens").format(n=seat.tokens.total, limit=TOKEN_LIMIT)
        self.summary.color = theme.ERROR if seat.tokens.total >= TOKEN_LIMIT else theme.TEXT
        self.holdings.tokens = list(seat.tokens)
        self.holdings.bonuses = list(seat.bonuses)
        self.reserved.clear_widgets()
        for item in seat.reserved:
            view = CardView(
                card=item, small=True, highlight=isinstance(item, Card) and item.id in affordable
            )
            view.bind(on_release=lambda v, it=item: self.on_reserved(self.seat_index, it))
            self.reserved.add_widget(view)
        for _ in range(RESERVE_SLOTS - len(seat.reserved)):
            self.reserved.add_widget(Widget())


class PlayersColumn(BoxLayout):
    """The panels, top to bottom in play order: with 2 players both in full; with more,
    the player to act in full and the others compact."""

    def __init__(
        self,
        on_reserved: Callable[[int, Card | Hidden], None],
        on_open: Callable[[int], None],
        **kw: Any,
    ) -> None:
        super().__init__(orientation="vertical", spacing=4, **kw)
        self.on_reserved = on_reserved
        self.on_open = on_open

    @property
    def panels(self) -> list[PlayerPanel]:
        return list(reversed(self.children))

    def show(
        self,
        seats: tuple[Seat, ...],
        to_act: int | None,
        affordable: set[str],
        compact: bool = False,
    ) -> None:
        """``compact``: every panel one line, equal shares (the companion's panel is docked)."""
        if len(self.children) != len(seats):
            self.clear_widgets()
            for _ in seats:
                self.add_widget(PlayerPanel(on_reserved=self.on_reserved, on_open=self.on_open))
        n = len(seats)
        for seat, panel in zip(seats, self.panels, strict=True):
            active = seat.seat == to_act
            panel.full = not compact and (n == 2 or active)
            share = 0.46 if active else 0.54 / (n - 1)
            even = compact or n == 2 or to_act is None
            panel.size_hint_y = 1 / n if even else share
            panel.show(seat, active, affordable if active else set())


class PlayerDialog(Dialog):
    """Everything about one player, large: tokens, bonuses, reserved cards, nobles."""

    def __init__(self, seat: Seat) -> None:
        super().__init__(tr("{name}, points: {points}").format(name=seat.name, points=seat.points))
        holdings = Holdings(size_hint_y=0.45)
        holdings.tokens = list(seat.tokens)
        holdings.bonuses = list(seat.bonuses)
        self.body.add_widget(holdings)
        row = BoxLayout(spacing=8, size_hint_y=0.55)
        for item in seat.reserved:
            row.add_widget(CardView(card=item, size_hint_x=0.15))
        for noble in seat.nobles:
            row.add_widget(NobleView(noble=noble, size_hint_x=0.2))
        used = 0.15 * len(seat.reserved) + 0.2 * len(seat.nobles)
        if not used:
            row.add_widget(text_label(tr("No reserved card, no noble."), scale=0.15))
        else:
            row.add_widget(Widget(size_hint_x=max(0.01, 1 - used)))
        self.body.add_widget(row)
        self.button(tr("Close"), self.dismiss)
