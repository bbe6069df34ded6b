"""The table during play: the board on the left; the bank, the players and the buttons on
the right; a banner across the top for the final round.

Nothing here decides a rule: the turn in progress (tokens chosen, payment, steps due) is
the core's :class:`~companion.journal.declaring.Turn`, and what is refused is refused with the
engine's own reason, told in words (never in record ids).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kivy.clock import Clock
from kivy.core.window import Window
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen

from companion.ai.thinking import Thinking
from companion.coach.plan import Plan
from companion.engine.cards import Card
from companion.engine.game import Game, Hidden
from companion.engine.moves import Pass, Reserve
from companion.engine.tokens import Colour, Tokens
from companion.errors import CompanionError, IllegalMove, Refused
from companion.journal.declaring import Picked, Step, Turn
from companion.journal.session import Session
from companion.journal.store import StoreError
from companion.records.movelog import tell
from companion.records.timeline import last_step

from ...dialogs import CardPicker, Dialog
from ...i18n import tr
from ...scale import SCALE
from ...widgets.pieces import CardView, TokenButton
from .bank import BankRow, TakeBar
from .banner import Banner, final_round
from .board import Board
from .buy import BuyDialog, DeckDialog
from .menu import AuditDialog, MenuDialog
from .movelog import MoveLog
from .notice import Notice
from .players import PlayersColumn, PlayersDialog
from .seat import CompanionSeat
from .side import ActionColumn, ButtonBar
from .steps import TurnSteps
from .words import error_words

if TYPE_CHECKING:
    from ...context import AppContext


class TableScreen(Screen):
    """The parts, made here and handed what they need (:mod:`.parts`); the taps that
    start a move; undo, redo and the menu."""

    def __init__(self, app: AppContext, **kw: Any) -> None:
        super().__init__(name="table", **kw)
        self.app = app
        self.session: Session | None = None
        self.turn: Turn | None = None
        self.dialog: Dialog | None = None
        self._arranged = self._stale = False  # laid out once; the window changed since
        self.touched_at: tuple[float, float] | None = None
        self.touched_when = 0.0
        self._build()
        # The app closing while the companion thinks: its search stops, nothing is applied.
        app.when_stopping(lambda: self.companion.leave())

    def on_leave(self, *_: object) -> None:
        self.companion.leave()

    def on_pre_enter(self, *_: object) -> None:
        if self._stale:  # the window changed while another screen showed
            self.arrange()

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
        self.take_bar = TakeBar(
            on_take=self.take,
            on_clear=self.clear_selection,
            on_pass=self.pass_turn,
            size_hint_y=None,
        )
        self.players = PlayersColumn(on_reserved=self.tap_reserved, on_open=self.open_player)
        self.steps = TurnSteps(
            self, choose=lambda card: self.buy_dialog(card, face_up=True), played=self.played
        )
        self.side = ActionColumn(
            self.bank_row,
            self.take_bar,
            self.players,
            ButtonBar(
                undo=self.undo,
                redo=self.redo,
                log=self.open_log,
                menu=self.open_menu,
                suggest=lambda: self.companion.suggest(),
            ),
        )
        self.companion = CompanionSeat(
            self, dock=self.side.dock, mark=self.board.mark, advance=self.steps.advance
        )
        self.panel = self.companion.panel  # the companion's move, in the take bar's place
        self.root_box = BoxLayout()
        self.root_box.add_widget(self.board)
        self.root_box.add_widget(self.side)
        outer = BoxLayout(orientation="vertical")
        outer.add_widget(self.banner)
        outer.add_widget(self.root_box)
        layer = FloatLayout()
        layer.add_widget(outer)
        layer.add_widget(self.notice)  # over the table, near what was tapped
        self.add_widget(layer)
        self.arrange()
        SCALE.bind(unit=self.arrange, portrait=self.arrange)
        # A message stays until the next tap, which still does what it was for.
        Window.bind(on_touch_down=self._touched)

    def arrange(self, *_: object) -> None:
        """The table for the window's shape: landscape, the board on the left and the
        bank, players and buttons on the right; portrait, the board on top and the rest
        below it. Called again on every resize and rotation: nothing is rebuilt, the turn
        in progress is kept. Not showing, the table waits to be shown: a rotation made
        from the settings lays it out once, not at every step of the window's resize."""
        if self.get_root_window() is None and self._arranged:
            self._stale = True
            return
        self._stale, self._arranged = False, True
        portrait = SCALE.portrait
        gap = SCALE.px(6)
        self.root_box.orientation = "vertical" if portrait else "horizontal"
        self.root_box.spacing = gap
        self.root_box.padding = gap
        # A small screen gives its players' column more of the width: six piles and the
        # buttons a finger can hit.
        side = 0.52 if SCALE.small else 0.43
        self.board.size_hint = (1, 0.42) if portrait else (1 - side, 1)
        self.side.size_hint = (1, 0.58) if portrait else (side, 1)
        self.side.arrange()
        self.notice.place(home=self.bank_row)
        if self.session is not None:
            self.refresh()

    def _touched(self, _window: object, touch: object) -> bool:
        if self.notice.opacity:
            self.notice.hide()
        self.touched_at = getattr(touch, "pos", None)
        self.touched_when = Clock.get_time()
        return False

    # The parts by the names the tests and the hardware know them.
    @property
    def undo_button(self) -> Button:
        return self.side.buttons.undo_button

    @property
    def log_button(self) -> Button:
        return self.side.buttons.log_button

    @property
    def menu_button(self) -> Button:
        return self.side.buttons.menu_button

    @property
    def thinking(self) -> Thinking | None:
        """The companion's search under way, if any."""
        return self.companion.thinking

    @property
    def bank(self) -> list[TokenButton]:
        tokens: list[TokenButton] = self.bank_row.tokens
        return tokens

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
        affordable: set[str] = set()
        if self.app.hints and playing:
            cards = [c for row in game.market for c in row if c is not None]
            cards += [c for c in game.seat(seat).reserved if isinstance(c, Card)]
            affordable = {c.id for c in cards if game.can_afford(seat, c)}
        self.board.show(game, affordable)
        self.bank_row.show(self.turn, game.bank, playing)
        self.take_bar.show(self.turn, game.names[seat], playing)
        plan = self.companion.plan
        person = playing and plan.level(seat) is None
        self.side.buttons.show(
            self.session.can_undo, self.session.can_redo, suggest=plan.suggest and person
        )
        assert self.turn is not None
        self.banner.show(final_round(game, self.turn.still_to_play()))
        self.say(message, error)
        self.companion.show()  # the companion's panel, a suggestion, or the take bar
        docked = self.side.docked is not None
        self.players.show(game.seats, seat if playing else None, affordable, docked)

    @property
    def status(self) -> Label:
        """What the table said last (the notice's words)."""
        return self.notice.label

    def say(self, message: str, error: bool = False) -> None:
        """``message`` next to what was just tapped, or under the bank (a scan, a word
        of the reader, a move that was not tapped here); until the next tap."""
        if not message:
            self.notice.hide()
            return
        near = self.touched_at if self.touched_at is not None and self._recent() else None
        self.notice.show(message, error, near)
        if near is None:
            self.notice.place(home=self.bank_row)

    def _recent(self) -> bool:
        """Whether the last tap was a moment ago (this message answers it), not a scan's
        or the reader's word long after it."""
        return float(Clock.get_time()) - self.touched_when < 1.5

    def refuse(self, err: CompanionError) -> None:
        self.app.feedback(False)
        text = error_words(err)
        self.refresh(text, error=True)
        if self.dialog is not None:  # the status line is behind it: say it where it is seen
            self.dialog.message.text = text

    # ------------------------------------------------------------------ taps

    def tap_token(self, colour: Colour) -> None:
        if not self.playing or self.companion.companions_turn():
            return
        assert self.turn is not None
        try:
            picked = self.turn.pick_token(colour)
        except (IllegalMove, Refused) as err:
            self.refuse(err)
            return
        if picked == Picked.COMPLETE:
            self.take()  # nothing can be added and no bounce makes it: save a tap
            return
        hints = {
            Picked.MORE: tr("Tap more colours, then Take."),
            Picked.READY: tr("Tap Take, or one more colour."),
            Picked.CONFIRM: tr("Two {colour} tokens: tap Take to confirm, or Clear.").format(
                colour=tr(colour.key)
            ),
        }
        self.refresh(hints[picked])

    def confirm(self) -> None:
        """The confirm button: the tokens chosen so far, when they make a legal take."""
        if self.panel.parent is not None and self.panel.move is not None:
            self.panel.on_button()  # the companion's Done (or closing a suggestion)
            return
        if self.playing and self.turn is not None and self.turn.is_take():
            self.take()

    def clear_selection(self) -> None:
        if self.turn is not None:
            self.turn.clear_selection()
        self.refresh()

    def take(self) -> None:
        assert self.turn is not None
        try:
            self.turn.take()
        except (IllegalMove, Refused) as err:
            self.refuse(err)
            return
        self.steps.advance()

    def pass_turn(self) -> None:
        if self.companion.companions_turn():
            return
        self.steps.start(Pass(player=self.game.to_act))

    def played(self) -> None:
        """The move is in the journal: the green light, and the move said (or the end)."""
        assert self.session is not None
        self.app.feedback(True)
        if self.game.over:
            self.app.show_end(self.session)
            return
        # The move as the log says it; whose turn it is next is said once, on the take bar.
        self.refresh(tell(last_step(self.game)))

    def tap_card(self, card: Card | None) -> None:
        if card is None or not self.playing or self.companion.companions_turn():
            return
        self.buy_dialog(card, face_up=True)

    def buy_dialog(self, card: Card, face_up: bool) -> None:
        assert self.turn is not None
        purchase = self.turn.purchase(card, face_up)
        self.open_dialog(BuyDialog(purchase, self.game.names[purchase.seat], self.steps.start))

    def tap_deck(self, level: int) -> None:
        if not self.playing or self.companion.companions_turn():
            return
        assert self.turn is not None
        move = Reserve(deck=level, player=self.game.to_act)
        refusal = self.turn.refusal(move)
        text = error_words(refusal) if refusal is not None else None
        self.open_dialog(DeckDialog(move, self.game.deck_size(level), text, self.steps.start))

    def tap_reserved(self, seat: int, item: Card | Hidden) -> None:
        if not self.playing or self.companion.companions_turn():
            return
        assert self.turn is not None
        game = self.game
        name = game.names[game.to_act]
        if seat != game.to_act:
            self.say(tr("Only {name} can buy from their reserve now.").format(name=name), True)
            return
        if isinstance(item, Card):
            self.buy_dialog(item, face_up=False)
            return
        # H2: the table declares which card the blind reserve is, as it is bought.
        unseen = game.unseen(item.level)
        affordable = {c.id for c in self.turn.affordable(unseen)}
        if not affordable:
            self.say(
                tr("{name} cannot afford any card this hidden level-{level} card could be.").format(
                    name=name, level=item.level
                ),
                error=True,
            )
            return
        self.open_dialog(
            CardPicker(
                tr("Which level {n} card is {name} buying from the reserve?").format(
                    n=item.level, name=name
                ),
                unseen,
                lambda c: self.buy_dialog(c, face_up=False),
                dimmed={c.id for c in unseen} - affordable,
            )
        )

    def open_player(self, seat: int) -> None:
        """Every player at a glance (``seat``, the one tapped, outlined)."""
        if self.session is not None:
            chosen = seat if seat >= 0 else self.game.to_act
            self.open_dialog(PlayersDialog(self.game.seats, chosen, self._reserved_from_overview))

    def _reserved_from_overview(self, seat: int, item: Card | Hidden) -> None:
        if self.dialog is not None:
            self.dialog.dismiss()
        self.tap_reserved(seat, item)

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

    # The hardware's events (see CompanionApp.say and on_card_scanned).
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
            self.undo()

    def confirm_pressed(self) -> None:
        self.confirm()

    def undo(self) -> None:
        assert self.session is not None
        if self.turn is not None:
            self.turn.cancel()
        try:
            told = tell(last_step(self.game))  # said before it is gone
            self.session.undo()
        except (IndexError, StoreError) as err:
            self.refresh(getattr(err, "message", str(err)), error=True)
            return
        self.refresh(tr("Undone: {move}").format(move=told))

    def redo(self) -> None:
        assert self.session is not None
        try:
            self.session.redo()
        except (IndexError, StoreError, IllegalMove) as err:
            self.refresh(getattr(err, "message", str(err)), error=True)
            return
        if self.game.over:
            self.app.show_end(self.session)
            return
        self.refresh(tr("Redone: {move}").format(move=tell(last_step(self.game))))

    def open_menu(self) -> None:
        hints = tr("Hints: on") if self.app.hints else tr("Hints: off")
        self.open_dialog(
            MenuDialog(
                [
                    (hints, self.app.toggle_hints),
                    (tr("Bank audit: count the bank"), self.audit),
                    (tr("Settings"), self.app.open_settings),
                    (tr("Leave the game (it is saved)"), self.app.show_start),
                ]
            )
        )

    def open_log(self) -> None:
        if self.session is not None:
            self.open_dialog(MoveLog.of(self.session))  # the move log and clock: movelog.py

    def audit(self) -> None:
        """Count the physical bank; the companion says which colours differ (changes nothing)."""
        assert self.session is not None
        self.open_dialog(AuditDialog(self.session))
