"""The table during play: the board on the left; the bank, the players and the buttons on
the right; a banner across the top for the final round.

Nothing here decides a rule: the turn in progress (tokens chosen, payment, steps due) is
the core's :class:`~companion.journal.declaring.Turn`, and what is refused is refused with the
engine's own reason, told in words (never in record ids).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen

from companion.ai.thinking import Thinking
from companion.coach.plan import Plan
from companion.engine.cards import Card
from companion.engine.game import Game, Hidden
from companion.engine.moves import Pass
from companion.engine.tokens import Colour, Tokens
from companion.errors import CompanionError
from companion.journal.declaring import Step, Turn
from companion.journal.session import Session
from companion.records.movelog import tell
from companion.records.timeline import last_step

from ...dialogs import Dialog
from ...widgets.pieces import CardView, TokenButton
from .bank import BankRow, TakeBar, Taking
from .banner import Banner, final_round
from .board import Board, affordable
from .buy import CardTaps
from .frame import TableFrame
from .menu import AuditDialog, table_menu
from .movelog import MoveLog
from .notice import Notice
from .players import PlayersColumn, PlayersDialog
from .seat import CompanionSeat
from .side import ActionColumn, ButtonBar
from .steps import TurnSteps
from .undo import UndoRedo
from .words import error_words

if TYPE_CHECKING:
    from ...context import AppContext


class TableScreen(Screen):
    """The parts, made here and handed what they need (:mod:`.parts`), and the turn's
    wiring: which tap may start a move, the refresh after it, the game's end."""

    def __init__(self, app: AppContext, **kw: Any) -> None:
        super().__init__(name="table", **kw)
        self.app = app
        self.session: Session | None = None
        self.turn: Turn | None = None
        self.dialog: Dialog | None = None
        self._build()
        # The app closing while the companion thinks: its search stops, nothing is applied.
        app.when_stopping(lambda: self.companion.leave())

    def on_leave(self, *_: object) -> None:
        self.companion.leave()

    def on_pre_enter(self, *_: object) -> None:
        self.frame.catch_up()  # the window may have changed while another screen showed

    def on_enter(self, *_: object) -> None:
        # Back at the table (its game unchanged): the companion's turn picks up again.
        if self.session is not None and self.turn is not None:
            self.companion.show()

    # ------------------------------------------------------------------ layout

    def _build(self) -> None:
        self.banner = Banner()
        self.board = Board(on_card=self.tap_card, on_deck=self.tap_deck)
        self.notice = Notice()
        self.bank_row = BankRow(on_token=self.tap_token, size_hint_y=None)
        self.players = PlayersColumn(on_reserved=self.tap_reserved, on_open=self.open_player)
        self.steps = TurnSteps(
            self, choose=lambda card: self.cards.card(card, face_up=True), played=self.played
        )
        self.taking = Taking(self, advance=self.steps.advance)
        self.cards = CardTaps(self, start=self.steps.start)
        self.history = UndoRedo(self, over=self.ended)
        self.take_bar = TakeBar(
            on_take=self.taking.take,
            on_clear=self.taking.clear,
            on_pass=self.pass_turn,
            size_hint_y=None,
        )
        self.side = ActionColumn(
            self.bank_row,
            self.take_bar,
            self.players,
            self.notice,
            ButtonBar(
                undo=self.history.undo,
                redo=self.history.redo,
                log=self.open_log,
                menu=self.open_menu,
                suggest=lambda: self.companion.suggest(),
            ),
        )
        self.companion = CompanionSeat(
            self, dock=self.side.dock, mark=self.board.mark, advance=self.steps.advance
        )
        self.panel = self.companion.panel  # the companion's move, in the take bar's place
        self.buttons = self.side.buttons  # undo, redo, the move log, the menu, suggest
        self.frame = TableFrame(self.banner, self.board, self.side, self._arranged)
        self.root_box = self.frame.root_box
        self.add_widget(self.frame)

    def _arranged(self) -> None:
        """Laid out again for the window (:class:`.frame.TableFrame`): drawn again."""
        if self.session is not None:
            self.refresh()

    # The parts by the names the tests and the hardware know them.
    @property
    def thinking(self) -> Thinking | None:
        """The companion's search under way, if any."""
        return self.companion.thinking

    @property
    def bank(self) -> list[TokenButton]:
        return self.bank_row.tokens

    @property
    def rows(self) -> list[list[CardView]]:
        return self.board.rows

    @property
    def decks(self) -> list[CardView]:
        return self.board.decks

    @property
    def selection(self) -> Tokens:
        return self.turn.selection if self.turn is not None else Tokens()

    # ------------------------------------------------------------------ state

    @property
    def game(self) -> Game:
        assert self.session is not None
        return self.session.game

    @property
    def playing(self) -> bool:
        return self.turn is not None and self.session is not None and not self.game.over

    def play(self, session: Session) -> None:
        self.companion.play(Plan.of(session.record.extra, len(session.game.names)))
        self.session = session
        self.turn = Turn(session)
        self.side.seats = len(session.game.seats)
        self.refresh()

    def refresh(self, message: str = "", error: bool = False) -> None:
        """Redraw everything from the engine's state."""
        if self.session is None:
            return
        game = self.game
        seat = game.to_act
        playing = not game.over
        hints = affordable(game) if self.app.hints and playing else set()
        self.board.show(game, hints)
        self.bank_row.show(self.turn, game.bank, playing)
        plan = self.companion.plan
        person = playing and plan.level(seat) is None
        self.side.buttons.show(
            self.session.can_undo, self.session.can_redo, suggest=plan.suggest and person
        )
        suggest = self.buttons.suggest_button if plan.suggest and person else None
        self.take_bar.show(self.turn, game.names[seat], playing, suggest)
        assert self.turn is not None
        self.banner.show(final_round(game, self.turn.still_to_play()))
        self.say(message, error)
        self.companion.show()  # the companion's panel, a suggestion, or the take bar
        docked = self.side.docked is not None
        self.players.show(game.seats, seat if playing else None, hints, docked)

    @property
    def status(self) -> Label:
        """What the table said last (the notice's words)."""
        return self.notice.label

    def say(self, message: str, error: bool = False) -> None:
        """``message`` on the table's line under the take bar (:class:`.notice.Notice`),
        until the next tap."""
        self.notice.say(message, error)

    def refuse(self, err: CompanionError) -> None:
        self.app.feedback(False)
        text = error_words(err)
        self.refresh(text, error=True)
        if self.dialog is not None:  # the status line is behind it: say it where it is seen
            self.dialog.message.text = text

    # ------------------------------------------------------------------ taps

    def may_start(self) -> bool:
        """Whether a tap may start a move: a game in play, a person's seat to act (on the
        companion's turn it says what to do instead)."""
        return self.playing and not self.companion.companions_turn()

    def tap_token(self, colour: Colour) -> None:
        if self.may_start():
            self.taking.tap(colour)

    def confirm_pressed(self) -> None:
        """The confirm button: the companion's move (or a suggestion) done, or the tokens
        chosen so far, when they make a legal take."""
        if self.panel.parent is not None and self.panel.move is not None:
            self.panel.on_button()  # the companion's Done (or closing a suggestion)
            return
        if self.playing and self.turn is not None and self.turn.is_take():
            self.taking.take()

    def pass_turn(self) -> None:
        if self.companion.companions_turn():
            return
        self.steps.start(Pass(player=self.game.to_act))

    def played(self) -> None:
        """The move is in the journal: the green light, and the move said (or the end)."""
        self.app.feedback(True)
        if self.game.over:
            self.ended()
            return
        # The move as the log says it; whose turn it is next is said once, on the take bar.
        self.refresh(tell(last_step(self.game)))

    def ended(self) -> None:
        """The game is over: the end screen, its standings and chart."""
        assert self.session is not None
        self.app.show_end(self.session)

    def tap_card(self, card: Card | None) -> None:
        if card is not None and self.may_start():
            self.cards.card(card, face_up=True)

    def tap_deck(self, level: int) -> None:
        if self.may_start():
            self.cards.deck(level)

    def tap_reserved(self, seat: int, item: Card | Hidden) -> None:
        if self.may_start():
            self.cards.reserved(seat, item)

    def open_player(self, seat: int) -> None:
        """Every player at a glance (``seat``, the one tapped, outlined)."""
        if self.session is not None:
            chosen = seat if seat >= 0 else self.game.to_act
            self.open_dialog(PlayersDialog(self.game.seats, chosen, self.tap_reserved))

    def open_dialog(self, dialog: Dialog) -> None:
        if self.dialog is not None:
            self.dialog.dismiss()
        self.dialog = dialog
        if self.banner.label.text:  # the final round stays in sight, dialogs or not
            dialog.ribbon(self.banner.label.text)
        dialog.bind(
            on_dismiss=lambda d: setattr(self, "dialog", None) if self.dialog is d else None
        )
        dialog.open()

    # The hardware's events (see CompanionApp.say and on_card_scanned); the confirm
    # button's is with the taps.
    def card_scanned(self, card_id: str) -> None:
        # On the companion's turn a scan declares the card it turned face up (its move
        # filled in); while it thinks there is no move to scan for yet.
        if (
            self.turn is not None
            and self.turn.step == Step.ACTION
            and self.companion.companions_turn()
        ):
            return
        self.steps.declare_card(card_id)

    def undo_pressed(self) -> None:
        if self.session is not None:
            self.history.undo()

    def open_menu(self) -> None:
        self.open_dialog(table_menu(self.app, self.audit))

    def open_log(self) -> None:
        if self.session is not None:
            self.open_dialog(MoveLog.of(self.session))  # the move log and clock: movelog.py

    def audit(self) -> None:
        """Count the physical bank; the companion says which colours differ (changes nothing)."""
        assert self.session is not None
        self.open_dialog(AuditDialog(self.session))
