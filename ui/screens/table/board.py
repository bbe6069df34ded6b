"""The board: the nobles on the table, and per level its deck and face-up cards."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from companion.engine.cards import LEVELS, Card
from companion.engine.game import Game
from companion.engine.setup import MARKET_SLOTS, MAX_PLAYERS

from ...scale import SCALE
from ...widgets import CardView, NobleView


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
        market = BoxLayout(orientation="vertical", spacing=5)
        for level in reversed(LEVELS):
            row = BoxLayout(spacing=5)
            deck = CardView(deck_level=level)
            deck.bind(on_release=lambda v, lv=level: on_deck(lv))
            row.add_widget(deck)
            views = []
            for _ in range(MARKET_SLOTS):
                view = CardView()
                view.bind(on_release=lambda v: on_card(v.card))
                views.append(view)
                row.add_widget(view)
            self.decks.insert(0, deck)
            self.rows.insert(0, views)
            market.add_widget(row)
        self.add_widget(market)

    def show(self, game: Game, highlight: set[str]) -> None:
        self.nobles.clear_widgets()
        count = MAX_PLAYERS + 1  # always five places: a tile keeps its shape
        for noble in game.nobles:
            self.nobles.add_widget(NobleView(noble=noble))
        for _ in range(max(0, count - len(game.nobles))):
            self.nobles.add_widget(Widget())
        for level, (views, deck) in enumerate(zip(self.rows, self.decks, strict=True), start=1):
            deck.deck_count = game.deck_size(level)
            for view, card in zip(views, game.market[level - 1], strict=True):
                view.card = card
                view.highlight = card is not None and card.id in highlight
