"""The board: the nobles on the table, and per level its deck and face-up cards."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from companion.engine.cards import LEVELS, Card
from companion.engine.game import Game
from companion.engine.rules import BASE

from ...scale import SCALE
from ...widgets.pieces import CardView, NobleView


def affordable(game: Game) -> set[str]:
    """The cards the player to act can afford, the market's and their reserved ones: the
    board outlines them where the "hints" setting is on."""
    seat = game.to_act
    cards = [c for row in game.market for c in row if c is not None]
    cards += [c for c in game.seat(seat).reserved if isinstance(c, Card)]
    return {c.id for c in cards if game.can_afford(seat, c)}


class Board(BoxLayout):
    """Nobles on top, then levels 3, 2, 1 as on the table; each row its deck, then cards."""

    def __init__(
        self,
        on_card: Callable[[Card | None], None],
        on_deck: Callable[[int], None],
        **kw: Any,
    ) -> None:
        super().__init__(orientation="vertical", spacing=5, **kw)
        # A fifth of the board, and never shorter than a finger: a noble is tapped to
        # choose it when two could visit.
        self.nobles = BoxLayout(size_hint_y=None, spacing=5)
        self.bind(height=lambda b, h: setattr(b.nobles, "height", max(SCALE.min_target, h * 0.19)))
        self.add_widget(self.nobles)
        self.rows: list[list[CardView]] = []
        self.decks: list[CardView] = []
        self._boxes: list[BoxLayout] = []
        self._on_card = on_card
        market = BoxLayout(orientation="vertical", spacing=5)
        for level in reversed(LEVELS):
            row = BoxLayout(spacing=5)
            deck = CardView(deck_level=level)
            deck.bind(on_release=lambda v, lv=level: on_deck(lv))
            row.add_widget(deck)
            self.decks.insert(0, deck)
            self.rows.insert(0, [])
            self._boxes.insert(0, row)
            market.add_widget(row)
        self.add_widget(market)
        self._slots(BASE.market_slots)

    def _slots(self, n: int) -> None:
        """``n`` face-up places in each row: the game's rules' (S3)."""
        for box, views in zip(self._boxes, self.rows, strict=True):
            while len(views) > n:
                box.remove_widget(views.pop())
            while len(views) < n:
                view = CardView()
                view.bind(on_release=lambda v: self._on_card(v.card))
                views.append(view)
                box.add_widget(view)

    def show(self, game: Game, highlight: set[str]) -> None:
        if len(self.rows[0]) != game.rules.market_slots:
            self._slots(game.rules.market_slots)
        self.nobles.clear_widgets()
        # Always as many places as the most players reveal: a tile keeps its shape.
        count = game.rules.nobles_revealed(game.rules.players[-1])
        for noble in game.nobles:
            self.nobles.add_widget(NobleView(noble=noble))
        for _ in range(max(0, count - len(game.nobles))):
            self.nobles.add_widget(Widget())
        for level, (views, deck) in enumerate(zip(self.rows, self.decks, strict=True), start=1):
            deck.deck_count = game.deck_size(level)
            for view, card in zip(views, game.market[level - 1], strict=True):
                view.card = card
                view.highlight = card is not None and card.id in highlight

    def mark(self, card: str | None) -> None:
        """Outline the card ``card`` (an id) in the market: the move shown on a panel,
        to check against the real table (``None``: no card outlined)."""
        for row in self.rows:
            for view in row:
                view.selected = card is not None and view.card is not None and view.card.id == card
