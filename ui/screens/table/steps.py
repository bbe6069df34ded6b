"""A turn after its action: ask for what is due (the reveal, the tokens to give back, the
noble), in the rules' order, then play it; a refused answer is asked again with why."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from companion.engine.cards import Card, Noble
from companion.engine.game import Game
from companion.engine.moves import Move
from companion.engine.tokens import Tokens
from companion.errors import IllegalMove, Refused
from companion.journal.session import Session
from companion.journal.store import StoreError
from companion.journal.table import Declared, Step, Turn
from companion.records.movelog import tell
from companion.records.timeline import last_step

from ...dialogs import CardPicker, Dialog, NoblePicker, ReturnPicker
from ...i18n import tr
from .words import reason

if TYPE_CHECKING:
    from ...application import CompanionApp


class TurnSteps:
    """The table screen's turn flow (mixed into :class:`TableScreen`)."""

    app: CompanionApp
    session: Session | None
    turn: Turn | None
    dialog: Dialog | None

    @property
    def game(self) -> Game:
        assert self.session is not None
        return self.session.game

    def refresh(self, message: str = "", error: bool = False) -> None:
        raise NotImplementedError

    def refuse(self, err: IllegalMove | Refused | StoreError) -> None:
        raise NotImplementedError

    def _open(self, dialog: Dialog) -> None:
        raise NotImplementedError

    def _playing(self) -> bool:
        raise NotImplementedError

    def buy_dialog(self, card: Card, face_up: bool) -> None:
        raise NotImplementedError

    def start(self, move: Move) -> None:
        assert self.turn is not None
        try:
            self.turn.start(move)
        except IllegalMove as err:
            self.refuse(err)
            return
        self.advance()

    def advance(self) -> None:
        """Ask for what is due next, or play the move once it is whole."""
        turn = self.turn
        assert turn is not None and turn.due is not None
        game = self.game
        name = game.names[game.to_act]
        step = turn.step
        if step != Step.CONFIRM:
            self.refresh()  # the bank as the action left it, behind the question
        if step == Step.REVEAL:
            level = turn.due.reveal
            assert level is not None
            self._open(
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
            self._open(
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
            self._open(
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
        assert self.turn is not None
        self._answer(partial(self.turn.declare_reveal, card.id))

    def give_back(self, tokens: Tokens) -> None:
        assert self.turn is not None
        self._answer(partial(self.turn.give_back, tokens))

    def choose_noble(self, noble: Noble) -> None:
        assert self.turn is not None
        self._answer(partial(self.turn.choose_noble, noble.id))

    def _answer(self, declare: Callable[[], None]) -> None:
        """One answer to what the turn asked; a refused one is asked again, with why."""
        try:
            declare()
        except (IllegalMove, Refused) as err:
            self.refuse(err)
            self.advance()
            if self.dialog is not None:  # the question again, with the reason on it
                self.dialog.message.text = reason(err)
            return
        self.advance()

    def cancel_turn(self) -> None:
        assert self.turn is not None
        self.turn.cancel()
        self.refresh(tr("Cancelled: nothing changed."))

    def commit(self) -> None:
        assert self.turn is not None and self.session is not None
        try:
            self.turn.commit()
        except (IllegalMove, StoreError, Refused) as err:
            self.turn.cancel()
            self.refuse(err)
            return
        self.app.feedback(True)
        if self.game.over:
            self.app.show_end(self.session)
            return
        # The move as the log says it; whose turn it is next is said once, on the take bar.
        self.refresh(tell(last_step(self.game)))

    # ------------------------------------------------------------------ scans, undo

    def declare_card(self, card_id: str) -> None:
        """A scanned card: the reveal that is due, or the card a player buys or reserves."""
        if not self._playing():
            return
        assert self.turn is not None
        if self.dialog is not None and not isinstance(self.dialog, CardPicker):
            self.dialog.dismiss()
        try:
            result = self.turn.declare_card(card_id)
        except (IllegalMove, Refused) as err:
            self.refuse(err)
            return
        if self.dialog is not None:
            self.dialog.dismiss()
        if result == Declared.CHOOSE:
            card = next(c for row in self.game.market for c in row if c and c.id == card_id)
            self.buy_dialog(card, face_up=True)
            return
        self.advance()
