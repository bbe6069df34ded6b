"""The table during play: the board on the left; the bank, the players and the buttons on
the right; a banner across the top for the final round.

Nothing here decides a rule: the turn in progress (tokens chosen, payment, steps due) is
the core's :class:`~companion.journal.table.Turn`, and what is refused is refused with the
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

from companion.coach.plan import Plan
from companion.engine.cards import Card
from companion.engine.game import Hidden
from companion.engine.moves import Pass, Reserve
from companion.engine.tokens import Colour, Tokens
from companion.errors import IllegalMove, Refused
from companion.journal.session import Session
from companion.journal.store import StoreError
from companion.journal.table import Picked, Step, Turn
from companion.records.movelog import tell
from companion.records.timeline import last_step

from ...dialogs import CardPicker, Dialog
from ...i18n import tr
from ...scale import SCALE
from ...widgets import CardView, TokenButton, big_button, widest_word
from .bank import BankRow, TakeBar
from .banner import Banner, final_round
from .board import Board
from .buy import BuyDialog, DeckDialog
from .menu import AuditDialog, MenuDialog
from .movelog import MoveLog
from .movepanel import MovePanel
from .notice import Notice
from .players import PlayersColumn, PlayersDialog
from .seat import CompanionSeat
from .steps import TurnSteps
from .words import reason

if TYPE_CHECKING:
    from ...application import CompanionApp


class TableScreen(CompanionSeat, TurnSteps, Screen):
    def __init__(self, app: CompanionApp, **kw: Any) -> None:
        super().__init__(name="table", **kw)
        self.app = app
        self.session: Session | None = None
        self.turn: Turn | None = None
        self.dialog: Dialog | None = None
        self._arranged = self._stale = False  # laid out once; the window changed since
        self.plan = Plan(())
        self.touched_at: tuple[float, float] | None = None
        self.touched_when = 0.0
        self._seat_state()
        self.panel = MovePanel()  # the companion's move or a suggestion, in the take bar's place
        self._build()
        # The app closing while the companion thinks: its search stops, nothing is applied.
        app.bind(on_stop=lambda *_: self.leave_table())

    def on_leave(self, *_: object) -> None:
        self.leave_table()

    def on_pre_enter(self, *_: object) -> None:
        if self._stale:  # the window changed while another screen showed
            self.arrange()

    def on_enter(self, *_: object) -> None:
        # Back at the table (its game unchanged): the companion's turn picks up again.
        if self.session is not None and self.turn is not None:
            self.dock()

    # ------------------------------------------------------------------ layout

    def _build(self) -> None:
        self.banner = Banner()
        self.board = Board(on_card=self.tap_card, on_deck=self.tap_deck)
        self.notice = Notice()
        self.side = BoxLayout(orientation="vertical", spacing=4)
        self.bank_row = BankRow(on_token=self.tap_token, size_hint_y=None)
        self.take_bar = TakeBar(
            on_take=self.take,
            on_clear=self.clear_selection,
            on_pass=self.pass_turn,
            size_hint_y=None,
        )
        self.players = PlayersColumn(on_reserved=self.tap_reserved, on_open=self.open_player)
        bar = BoxLayout(size_hint_y=None, spacing=4)
        self.undo_button = big_button(tr("Undo"), self.undo)
        self.redo_button = big_button(tr("Redo"), self.redo)
        # Where the move log opens from the table ("did I already take that?").
        self.log_button = big_button(tr("Moves"), self.open_log)
        self.menu_button = big_button(tr("Menu"), self.open_menu)
        for button in (self.undo_button, self.redo_button, self.log_button, self.menu_button):
            bar.add_widget(button)
        # "Suggest a move", for a person's seat when the game's setting is on.
        self.suggest_button = big_button(tr("Suggest"), self.suggest)
        # Five buttons share a narrow bar: each is as wide as its longest word asks, so
        # "Menu" gives room to "Suggérer" and no word is broken.
        for button in (*bar.children, self.suggest_button):
            button.bind(text=_widen)
            _widen(button)
        self.bar = bar
        for widget in (self.bank_row, self.take_bar, self.players, bar):
            self.side.add_widget(widget)
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
        self.side.bind(height=self.share)
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
        self.bank_row.height = SCALE.target(56)
        self.take_bar.height = SCALE.target(48)
        self.bar.height = SCALE.target(50)
        for button in (*self.bar.children, self.suggest_button):
            _widen(button)
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

    def play(self, session: Session) -> None:
        self.stop_thinking()
        self._seat_state()
        self.session = session
        self.turn = Turn(session)
        self.plan = Plan.of(session.record.extra, len(session.game.names))
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
        # The language may have changed in the settings since the buttons were made.
        for button, word in (
            (self.undo_button, tr("Undo")),
            (self.redo_button, tr("Redo")),
            (self.log_button, tr("Moves")),
            (self.menu_button, tr("Menu")),
            (self.suggest_button, tr("Suggest")),
        ):
            button.text = word
        self.undo_button.disabled = not self.session.can_undo
        self.redo_button.disabled = not self.session.can_redo
        assert self.turn is not None
        self.banner.show(final_round(game, self.turn.still_to_play()))
        self.say(message, error)
        person = playing and self.plan.level(seat) is None
        wanted = self.plan.suggest and person
        if wanted and self.suggest_button.parent is None:
            self.bar.add_widget(self.suggest_button, index=len(self.bar.children))
        elif not wanted and self.suggest_button.parent is not None:
            self.bar.remove_widget(self.suggest_button)
        self.dock()  # the companion's panel, a suggestion, or the take bar
        docked = self.panel.parent is not None
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

    def refuse(self, err: IllegalMove | Refused | StoreError) -> None:
        self.app.feedback(False)
        text = reason(err)
        self.refresh(text, error=True)
        if self.dialog is not None:  # the status line is behind it: say it where it is seen
            self.dialog.message.text = text

    # ------------------------------------------------------------------ taps

    def _playing(self) -> bool:
        return self.turn is not None and self.session is not None and not self.game.over

    def tap_token(self, colour: Colour) -> None:
        if not self._playing() or self.companions_turn():
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
        if self._playing() and self.turn is not None and self.turn.is_take():
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
        self.advance()

    def pass_turn(self) -> None:
        if self.companions_turn():
            return
        self.start(Pass(player=self.game.to_act))

    def tap_card(self, card: Card | None) -> None:
        if card is None or not self._playing() or self.companions_turn():
            return
        self.buy_dialog(card, face_up=True)

    def buy_dialog(self, card: Card, face_up: bool) -> None:
        assert self.turn is not None
        purchase = self.turn.purchase(card, face_up)
        self._open(BuyDialog(purchase, self.game.names[purchase.seat], self.start))

    def tap_deck(self, level: int) -> None:
        if not self._playing() or self.companions_turn():
            return
        assert self.turn is not None
        move = Reserve(deck=level, player=self.game.to_act)
        refusal = self.turn.refusal(move)
        text = reason(refusal) if refusal is not None else None
        self._open(DeckDialog(move, self.game.deck_size(level), text, self.start))

    def tap_reserved(self, seat: int, item: Card | Hidden) -> None:
        if not self._playing() or self.companions_turn():
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
        self._open(
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
            self._open(PlayersDialog(self.game.seats, chosen, self._reserved_from_overview))

    def _reserved_from_overview(self, seat: int, item: Card | Hidden) -> None:
        if self.dialog is not None:
            self.dialog.dismiss()
        self.tap_reserved(seat, item)

    def _open(self, dialog: Dialog) -> None:
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
        if self.turn is not None and self.turn.step == Step.ACTION and self.companions_turn():
            return
        self.declare_card(card_id)

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
        self._open(
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
            self._open(MoveLog.of(self.session))  # the move log and clock: movelog.py

    def audit(self) -> None:
        """Count the physical bank; the companion says which colours differ (changes nothing)."""
        assert self.session is not None
        self._open(AuditDialog(self.session))


def _widen(button: Button, *_: object) -> None:
    """A button's share of its bar: its widest word as drawn (bold, 18 px), plus margins."""
    button.size_hint_x = widest_word(button.text, 18) + 14
