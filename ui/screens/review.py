"""A finished game looked back over: the table as it stood after each move, read-only.

The engine rebuilds every position: the screen keeps one :class:`Game`, pushes the
record's next move to step forward and undoes it to step back (the engine restores the
exact previous state), so what is shown is what ``replay`` gives at that move. The pieces
are the table's own widgets; nothing here can be tapped into a move.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen
from kivy.uix.slider import Slider
from kivy.uix.widget import Widget

from companion.cards import CARDS, NOBLES, Card
from companion.game import Game
from companion.i18n import localise
from companion.moves import Buy, Move, Reserve, Take
from companion.record import Record, replay
from companion.tokens import Colour, Tokens

from .. import theme
from ..i18n import tr
from ..widgets import CardView, NobleView, TokenButton, big_button
from .listing import cell, line_height
from .tableau import SeatView

if TYPE_CHECKING:
    from ..application import CompanionApp


def card_words(card: Card) -> str:
    """``a blue level-1 card``: what players call a card (its id is the app's, not theirs)."""
    return tr("a {colour} level-{level} card").format(colour=tr(card.bonus.key), level=card.level)


def told(move: Move, name: str) -> str:
    """What a move did, in words, for the line under the table."""
    if isinstance(move, Take):
        text = tr("{name} takes {tokens}").format(name=name, tokens=localise(move.gems))
    elif isinstance(move, Reserve):
        # A card reserved from a deck stays face down, as it did at the table.
        what = (
            card_words(CARDS[move.card])
            if move.deck is None and move.card is not None
            else tr("a level {n} card").format(n=move.deck)
        )
        text = tr("{name} reserves {card}").format(name=name, card=what)
    elif isinstance(move, Buy):
        text = tr("{name} buys {card}").format(name=name, card=card_words(CARDS[move.card]))
    else:
        text = tr("{name} passes").format(name=name)
    if move.returned is not None and any(move.returned):
        text += ", " + tr("gives back {tokens}").format(tokens=localise(move.returned))
    if move.noble:
        asks = localise(Tokens._make([*NOBLES[move.noble].requires, 0]))
        text += ", " + tr("visited by {noble}").format(
            noble=tr("the noble asking for {bonuses}").format(bonuses=asks)
        )
    return text


class ReviewScreen(Screen):
    def __init__(self, app: CompanionApp, **kw: Any) -> None:
        super().__init__(name="review", **kw)
        self.app = app
        self.record: Record | None = None
        self.game: Game | None = None
        self.moves: list[Move] = []
        self.back_to = "end"
        self._build()

    # ------------------------------------------------------------------ layout

    def _build(self) -> None:
        root = BoxLayout(orientation="vertical", padding=6, spacing=4)
        table = BoxLayout(spacing=6)
        left = BoxLayout(orientation="vertical", size_hint_x=0.6, spacing=4)
        self.nobles = BoxLayout(size_hint_y=0.6, spacing=6, padding=[4, 0])  # a card row is 1
        left.add_widget(self.nobles)
        self.rows: list[list[CardView]] = []
        self.decks: list[CardView] = []
        for level in (3, 2, 1):
            row = BoxLayout(spacing=5)
            deck = CardView(deck_level=level)
            row.add_widget(deck)
            views = [CardView() for _ in range(4)]
            for view in views:
                row.add_widget(view)
            self.decks.insert(0, deck)
            self.rows.insert(0, views)
            left.add_widget(row)
        right = BoxLayout(orientation="vertical", size_hint_x=0.4, spacing=4)
        bank_row = BoxLayout(size_hint_y=0.15, spacing=2)
        self.bank = [TokenButton(colour=colour) for colour in Colour]
        for token in self.bank:
            bank_row.add_widget(token)
        right.add_widget(bank_row)
        self.players = BoxLayout(orientation="vertical", spacing=4)
        right.add_widget(self.players)
        table.add_widget(left)
        table.add_widget(right)
        root.add_widget(table)
        self.status = cell("", 1, size_hint_y=None, height=line_height(2), color=theme.TEXT)
        root.add_widget(self.status)
        bar = BoxLayout(size_hint_y=None, height=line_height() * 1.15, spacing=6)
        self.back_button = big_button(tr("Back"), self.back, size_hint_x=0.14)
        bar.add_widget(self.back_button)
        self.first_button = big_button(tr("Start"), lambda: self.go(0), size_hint_x=0.13)
        self.previous_button = big_button(tr("Previous"), self.previous, size_hint_x=0.16)
        # A slider to travel far at once; the buttons step one move.
        self.slider = Slider(min=0, max=1, step=1, size_hint_x=0.28, cursor_size=(44, 44))
        self.slider.bind(value=lambda s, v: self.go(int(v)))
        self.next_button = big_button(tr("Next"), self.next, size_hint_x=0.16)
        self.last_button = big_button(tr("End"), lambda: self.go(len(self.moves)), size_hint_x=0.13)
        for widget in (
            self.first_button,
            self.previous_button,
            self.slider,
            self.next_button,
            self.last_button,
        ):
            bar.add_widget(widget)
        root.add_widget(bar)
        self.add_widget(root)

    # ------------------------------------------------------------------ stepping

    def show(self, record: Record, back_to: str = "end") -> None:
        """Look back over ``record`` from its setup; ``back_to``: the screen to return to."""
        self.record = record
        self.back_to = back_to
        # Only the moves the engine accepts: a record that breaks a rule stops there.
        self.moves = list(record.moves[: replay(record).moves_applied])
        self.game = Game(record.setup)
        self.players.clear_widgets()
        for _ in record.players:
            self.players.add_widget(SeatView())
        self.slider.max = max(1, len(self.moves))
        self.go(0)

    @property
    def at(self) -> int:
        """How many moves have been played in the position shown."""
        return len(self.game.moves) if self.game is not None else 0

    def go(self, target: int) -> None:
        game = self.game
        if game is None:
            return
        target = max(0, min(target, len(self.moves)))
        while len(game.moves) > target:
            game.undo()
        while len(game.moves) < target:
            game.push(self.moves[len(game.moves)])
        self.refresh()

    def next(self) -> None:
        self.go(self.at + 1)

    def previous(self) -> None:
        self.go(self.at - 1)

    def back(self) -> None:
        self.manager.current = self.back_to

    # ------------------------------------------------------------------ drawing

    def refresh(self) -> None:
        game = self.game
        if game is None:
            return
        self.nobles.clear_widgets()
        for noble in game.nobles:
            self.nobles.add_widget(NobleView(noble=noble))
        for _ in range(5 - len(game.nobles)):
            self.nobles.add_widget(Widget())
        for level, (views, deck) in enumerate(zip(self.rows, self.decks, strict=True), start=1):
            deck.deck_count = game.deck_size(level)
            for view, card in zip(views, game.market[level - 1], strict=True):
                view.card = card
        for token in self.bank:
            token.count = game.bank[token.colour]
        last = game.moves[-1] if game.moves else None
        for seat, panel in zip(game.seats, reversed(self.players.children), strict=True):
            # The player who made the move shown is framed; the line below names them too.
            panel.show(seat, last is not None and last.player == seat.seat)
        self.status.text = self._told()
        # The language may have changed in the settings since the buttons were made.
        for button, word in (
            (self.back_button, tr("Back")),
            (self.first_button, tr("Start")),
            (self.previous_button, tr("Previous")),
            (self.next_button, tr("Next")),
            (self.last_button, tr("End")),
        ):
            button.text = word
        if int(self.slider.value) != self.at:
            self.slider.value = self.at
        self.first_button.disabled = self.previous_button.disabled = self.at == 0
        self.next_button.disabled = self.last_button.disabled = self.at == len(self.moves)

    def _told(self) -> str:
        game = self.game
        assert game is not None
        total = len(self.moves)
        if not game.moves:
            where = tr("The table as set up, before move 1 of {total}.")
            return where.format(total=total)
        last = game.moves[-1]
        n = len(game.names)
        where = tr("Move {n} of {total}, round {round}").format(
            n=len(game.moves), total=total, round=(len(game.moves) - 1) // n + 1
        )
        text = where + ": " + told(last, game.names[last.player])
        if len(game.moves) == total:
            winners = game.winners()
            if winners:
                text += "\n" + tr("Game over. Won by {names}.").format(names=", ".join(winners))
            else:
                text += "\n" + tr("No winner")
        return text
