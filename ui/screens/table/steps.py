"""A turn after its action: ask for what is due (the reveal, the tokens to give back, the
noble), in the rules' order, then play it; a refused answer is asked again with why."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from companion.engine.cards import Card, Noble
from companion.engine.moves import Move
from companion.engine.tokens import Tokens
from companion.errors import IllegalMove, Refused
from companion.journal.declaring import Declared, Step
from companion.journal.store import StoreError

from ...dialogs import CardPicker, NoblePicker, ReturnPicker
from ...i18n import tr
from .parts import Table
from .words import error_words


class TurnSteps:
    """The table's turn flow: a move started, the questions it raises, then played.

    ``choose``: a scanned card of the market to buy or reserve (its dialog opens);
    ``played``: the move is in the journal (the screen says it, or ends the game).
    """

    def __init__(
        self, table: Table, choose: Callable[[Card], None], played: Callable[[], None]
    ) -> None:
        self.table = table
        self.choose = choose
        self.played = played

    def start(self, move: Move) -> None:
        turn = self.table.turn
        assert turn is not None
        try:
            turn.start(move)
        except IllegalMove as err:
            self.table.refuse(err)
            return
        self.advance()

    def advance(self) -> None:
        """Ask for what is due next, or play the move once it is whole."""
        table, turn = self.table, self.table.turn
        assert turn is not None and turn.due is not None
        game = table.game
        name = game.names[game.to_act]
        step = turn.step
        if step != Step.CONFIRM:
            table.refresh()  # the bank as the action left it, behind the question
        if step == Step.REVEAL:
            level = turn.due.reveal
            assert level is not None
            table.open_dialog(
                CardPicker(
                    tr("Level {level}: which card was turned face up? (or scan it)").format(
                        level=level
                    ),
                    game.unseen(level),
                    self.reveal,
                    on_cancel=self.cancel_turn,
                )
            )
        elif step == Step.RETURN:
            table.open_dialog(
                ReturnPicker(
                    tr("{name} holds {n} tokens: give back {k}").format(
                        name=name, n=turn.due.hand.total, k=turn.due.returns
                    ),
                    turn.due.hand,
                    turn.due.returns,
                    self.give_back,
                    on_cancel=self.cancel_turn,
                )
            )
        elif step == Step.NOBLE:
            table.open_dialog(
                NoblePicker(
                    tr("Which noble visits {name}?").format(name=name),
                    turn.due.nobles,
                    self.choose_noble,
                    on_cancel=self.cancel_turn,
                )
            )
        elif step == Step.CONFIRM:
            self.commit()

    def reveal(self, card: Card) -> None:
        turn = self.table.turn
        assert turn is not None
        self._answer(partial(turn.declare_reveal, card.id))

    def give_back(self, tokens: Tokens) -> None:
        turn = self.table.turn
        assert turn is not None
        self._answer(partial(turn.give_back, tokens))

    def choose_noble(self, noble: Noble) -> None:
        turn = self.table.turn
        assert turn is not None
        self._answer(partial(turn.choose_noble, noble.id))

    def _answer(self, declare: Callable[[], None]) -> None:
        """One answer to what the turn asked; a refused one is asked again, with why."""
        try:
            declare()
        except (IllegalMove, Refused) as err:
            self.table.refuse(err)
            self.advance()
            dialog = self.table.dialog
            if dialog is not None:  # the question again, with the reason on it
                dialog.message.text = error_words(err)
            return
        self.advance()

    def cancel_turn(self) -> None:
        turn = self.table.turn
        assert turn is not None
        turn.cancel()
        self.table.refresh(tr("Cancelled: nothing changed."))

    def commit(self) -> None:
        turn = self.table.turn
        assert turn is not None
        try:
            turn.commit()
        except (IllegalMove, StoreError, Refused) as err:
            turn.cancel()
            self.table.refuse(err)
            return
        self.played()

    # ------------------------------------------------------------------ scans

    def declare_card(self, card_id: str) -> None:
        """A scanned card: the reveal that is due, or the card a player buys or reserves."""
        table, turn = self.table, self.table.turn
        if not table.playing or turn is None:
            return
        if table.dialog is not None and not isinstance(table.dialog, CardPicker):
            table.dialog.dismiss()
        try:
            result = turn.declare_card(card_id)
        except (IllegalMove, Refused) as err:
            table.refuse(err)
            return
        if table.dialog is not None:
            table.dialog.dismiss()
        if result == Declared.CHOOSE:
            card = next(c for row in table.game.market for c in row if c and c.id == card_id)
            self.choose(card)
            return
        self.advance()
