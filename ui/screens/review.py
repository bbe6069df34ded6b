"""A finished game looked back over: the table as it stood after each move, read-only.

The engine rebuilds every position: the screen keeps one :class:`Game`, pushes the
record's next move to step forward and undoes it to step back (the engine restores the
exact previous state), so what is shown is what ``replay`` gives at that move. The pieces
are the table's own widgets; nothing here can be tapped into a move.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.scrollview import ScrollView
from kivy.uix.slider import Slider
from kivy.uix.widget import Widget

from companion.engine.game import Game
from companion.engine.moves import Move
from companion.engine.tokens import Colour
from companion.records.movelog import tell
from companion.records.record import Record, replay
from companion.records.timeline import Step, timeline

from ..cardface import NobleFace
from ..i18n import tr
from ..layout import Shaped, button, gap, grow_label, refit, row_height
from ..scale import SCALE
from ..widgets.pieces import CardView, TokenButton
from .tableau import SeatView, seat_height

if TYPE_CHECKING:
    from ..context import AppContext


class ReviewScreen(Shaped):
    """Landscape: the market on the left, the bank and the players on the right. Portrait
    (and the 3.5-inch screen, too low for both side by side): one column, the market,
    the bank, then the players, scrolled where it is taller than the window. The line
    telling the move and the buttons stay below in both."""

    def __init__(self, app: AppContext, **kw: Any) -> None:
        super().__init__(name="review", **kw)
        self.app = app
        self.record: Record | None = None
        self.game: Game | None = None
        self.moves: list[Move] = []
        self.steps: list[Step] = []  # the moves told, as the core tells them
        self.back_to = "end"
        self.notes: dict[int, str] = {}
        self.root_box = BoxLayout(orientation="vertical")
        self.add_widget(self.root_box)
        self._build()

    # ------------------------------------------------------------------ layout

    @property
    def stacked(self) -> bool:
        """One column: portrait, or a screen too low for the market beside the players."""
        return bool(SCALE.portrait or SCALE.small)

    def lay_out(self) -> None:
        """The window changed: arranged anew, the players' panels kept (fitted again)."""
        seats = list(reversed(self.players.children))
        self._build()
        for seat in seats:
            if seat.parent is not None:
                seat.parent.remove_widget(seat)
            seat.sizes()
            seat.height = seat_height()
            self.players.add_widget(seat)
        if self.record is not None:
            refit(self.players)
            self.refresh()

    def _build(self) -> None:
        root = self.root_box
        root.clear_widgets()
        root.padding = gap(6)
        root.spacing = gap(4)
        self.nobles = BoxLayout(spacing=gap(6))
        self.rows: list[list[CardView]] = []
        self.decks: list[CardView] = []
        market: list[BoxLayout] = []
        for level in (3, 2, 1):
            row = BoxLayout(spacing=gap(5))
            deck = CardView(deck_level=level)
            row.add_widget(deck)
            views = [CardView() for _ in range(4)]
            for view in views:
                row.add_widget(view)
            self.decks.insert(0, deck)
            self.rows.insert(0, views)
            market.append(row)
        self.bank_row = BoxLayout(size_hint_y=None, height=row_height(48), spacing=gap(2))
        self.bank = [TokenButton(colour=colour) for colour in Colour]
        for token in self.bank:
            self.bank_row.add_widget(token)
        self.players = BoxLayout(orientation="vertical", spacing=gap(4), size_hint_y=None)
        self.players.bind(minimum_height=self.players.setter("height"))
        if self.stacked:
            root.add_widget(self._column(market))
        else:
            root.add_widget(self._side_by_side(market))
        self.status = grow_label("", font=17)
        root.add_widget(self.status)
        root.add_widget(self._bar())

    def _side_by_side(self, market: list[BoxLayout]) -> BoxLayout:
        both = BoxLayout(spacing=gap(6))
        left = BoxLayout(orientation="vertical", size_hint_x=0.55, spacing=gap(4))
        self.nobles.size_hint_y = 0.7  # a card row is 1
        left.add_widget(self.nobles)
        for row in market:
            left.add_widget(row)
        right = BoxLayout(orientation="vertical", size_hint_x=0.45, spacing=gap(4))
        right.add_widget(self.bank_row)
        # The players, scrolled if four of them are taller than the room.
        scroll = ScrollView(do_scroll_x=False, bar_width=gap(4))
        scroll.add_widget(self.players)
        right.add_widget(scroll)
        both.add_widget(left)
        both.add_widget(right)
        return both

    def _column(self, market: list[BoxLayout]) -> ScrollView:
        """The market as wide as the window (cards as large as they read), the bank and the
        players below it, in one scrolled column."""
        width = SCALE.width - 2 * gap(6)
        card = (width - 4 * gap(5)) / 5
        column = BoxLayout(orientation="vertical", spacing=gap(4), size_hint_y=None)
        column.bind(minimum_height=column.setter("height"))
        self.nobles.size_hint_y = None
        self.nobles.height = card * 0.8
        column.add_widget(self.nobles)
        for row in market:
            row.size_hint_y = None
            row.height = card * 1.15
            column.add_widget(row)
        column.add_widget(self.bank_row)
        column.add_widget(self.players)
        scroll = ScrollView(do_scroll_x=False, bar_width=gap(4))
        scroll.add_widget(column)
        return scroll

    def _bar(self) -> BoxLayout:
        """Back, then the steps: the start, one back, the slider, one on, the end; in
        portrait the slider on a line of its own above the buttons, as wide as the window."""
        bar = BoxLayout(size_hint_y=None, height=row_height(50), spacing=gap(6))
        self.back_button = button(tr("Back"), self.back, size_hint_x=0.14)
        bar.add_widget(self.back_button)
        self.first_button = button(tr("Start"), lambda: self.go(0), size_hint_x=0.13)
        self.previous_button = button(tr("Previous"), self.previous, size_hint_x=0.16)
        # A slider to travel far at once; the buttons step one move.
        cursor = SCALE.target(44)
        self.slider = Slider(
            min=0,
            max=1,
            step=1,
            size_hint_x=0.28,
            cursor_size=(cursor, cursor),
            padding=cursor / 2,  # the cursor whole at either end
        )
        self.slider.bind(value=lambda s, v: self.go(int(v)))
        self.next_button = button(tr("Next"), self.next, size_hint_x=0.16)
        self.last_button = button(tr("End"), lambda: self.go(len(self.moves)), size_hint_x=0.13)
        steps = [self.first_button, self.previous_button, self.next_button, self.last_button]
        if self.record is not None:
            self.slider.max = max(1, len(self.moves))
        if not SCALE.portrait:
            steps.insert(2, self.slider)
            for widget in steps:
                bar.add_widget(widget)
            return bar
        for widget in steps:
            bar.add_widget(widget)
        both = BoxLayout(orientation="vertical", size_hint_y=None, spacing=gap(4))
        both.height = bar.height + row_height(44) + gap(4)
        self.slider.size_hint = (1, None)
        self.slider.height = row_height(44)
        both.add_widget(self.slider)
        both.add_widget(bar)
        return both

    def _seats(self) -> None:
        """A panel a player, each tall enough for all it shows."""
        assert self.record is not None
        self.players.clear_widgets()
        for _ in self.record.players:
            self.players.add_widget(SeatView(size_hint_y=None, height=seat_height()))

    # ------------------------------------------------------------------ stepping

    def show(
        self, record: Record, back_to: str = "end", notes: dict[int, str] | None = None
    ) -> None:
        """Look back over ``record`` from its setup; ``back_to``: the screen to return to;
        ``notes``: a line to add where so many moves are played (the game review's word
        on the next move)."""
        self.record = record
        self.back_to = back_to
        self.notes = dict(notes or {})
        # Only the moves the engine accepts: a record that breaks a rule stops there.
        self.moves = list(record.moves[: replay(record).moves_applied])
        self.steps = timeline(record)
        self.game = Game(record.setup)
        self._seats()
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
            self.nobles.add_widget(NobleFace(noble=noble))
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
        for shown, word in (
            (self.back_button, tr("Back")),
            (self.first_button, tr("Start")),
            (self.previous_button, tr("Previous")),
            (self.next_button, tr("Next")),
            (self.last_button, tr("End")),
        ):
            shown.text = word
        if int(self.slider.value) != self.at:
            self.slider.value = self.at
        self.first_button.disabled = self.previous_button.disabled = self.at == 0
        self.next_button.disabled = self.last_button.disabled = self.at == len(self.moves)

    def _told(self) -> str:
        game = self.game
        assert game is not None
        note = self.notes.get(len(game.moves))
        told = self._move_told()
        return told if note is None else f"{told}\n{note}"

    def _move_told(self) -> str:
        game = self.game
        assert game is not None
        total = len(self.moves)
        if not game.moves:
            where = tr("The table as set up, before move 1 of {total}.")
            return where.format(total=total)
        # The move log's wording (one place for how a move is said), not the game's ids.
        step = self.steps[len(game.moves) - 1]
        where = tr("Move {n} of {total}, round {round}").format(
            n=step.number, total=total, round=step.round
        )
        text = where + ": " + tell(step)
        if len(game.moves) == total:
            winners = game.winners()
            if winners:
                text += "\n" + tr("Game over. Won by {names}.").format(names=", ".join(winners))
            else:
                text += "\n" + tr("No winner")
        return text
