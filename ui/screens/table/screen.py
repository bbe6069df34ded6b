"""The table during play: the board on the left; the bank, the players and the buttons on
the right; a banner across the top for the final round.

Nothing here decides a rule: the turn in progress (tokens chosen, payment, steps due) is
the core's :class:`~companion.table.Turn`, and what is refused is refused with the
engine's own reason, told in words (never in record ids).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

from kivy.core.window import Window
from kivy.graphics import Color, Rectangle
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from companion.cards import Card, Noble
from companion.errors import IllegalMove, Refused
from companion.game import Game, Hidden
from companion.i18n import ngettext
from companion.moves import Move, Pass, Reserve
from companion.session import Session
from companion.store import StoreError
from companion.table import Declared, Picked, Step, Turn
from companion.tokens import Colour, Tokens

from ... import theme
from ...dialogs import CardPicker, Dialog, NoblePicker, ReturnPicker
from ...i18n import tr
from ...widgets import CardView, TokenButton, big_button, wrapping_label
from .bank import BankRow, TakeBar
from .board import Board
from .buy import BuyDialog, DeckDialog
from .menu import AuditDialog, LogDialog, MenuDialog
from .players import PlayerDialog, PlayersColumn
from .words import describe, reason

if TYPE_CHECKING:
    from ...application import CompanionApp


class Banner(BoxLayout):
    """The final round, across the top until the game ends: who still plays, turns left.

    As tall as its wrapped words, so a long language never cuts it.
    """

    def __init__(self, **kw: Any) -> None:
        super().__init__(size_hint_y=None, height=0, padding=[10, 2], **kw)
        self.label = wrapping_label(
            "", font=19 * Window.height / 480, bold=True, color=theme.BANNER_TEXT
        )
        self.label.bind(height=self._fit)
        self.add_widget(self.label)
        with self.canvas.before:
            Color(*theme.BANNER)
            self._rect = Rectangle()
        self.bind(pos=self._place, size=self._place)

    def _place(self, *_: Any) -> None:
        self._rect.pos, self._rect.size = self.pos, self.size

    def _fit(self, *_: Any) -> None:
        self.height = self.label.height + 4 if self.label.text else 0

    def show(self, text: str) -> None:
        self.label.text = text
        self.opacity = 1 if text else 0
        self._fit()


class TableScreen(Screen):
    def __init__(self, app: CompanionApp, **kw: Any) -> None:
        super().__init__(name="table", **kw)
        self.app = app
        self.session: Session | None = None
        self.turn: Turn | None = None
        self.dialog: Dialog | None = None
        self._build()

    # ------------------------------------------------------------------ layout

    def _build(self) -> None:
        outer = BoxLayout(orientation="vertical")
        self.banner = Banner()
        outer.add_widget(self.banner)
        root = BoxLayout(spacing=6, padding=6)
        left = BoxLayout(orientation="vertical", size_hint_x=0.57, spacing=4)
        self.board = Board(on_card=self.tap_card, on_deck=self.tap_deck)
        left.add_widget(self.board)
        self.status = wrapping_label("", font=18 * Window.height / 480)
        left.add_widget(self.status)

        right = BoxLayout(orientation="vertical", size_hint_x=0.43, spacing=4)
        self.bank_row = BankRow(on_token=self.tap_token, size_hint_y=0.12)
        right.add_widget(self.bank_row)
        self.take_bar = TakeBar(
            on_take=self.take,
            on_clear=self.clear_selection,
            on_pass=self.pass_turn,
            size_hint_y=0.09,
        )
        right.add_widget(self.take_bar)
        self.players = PlayersColumn(
            on_reserved=self.tap_reserved, on_open=self.open_player, size_hint_y=0.68
        )
        right.add_widget(self.players)
        bar = BoxLayout(size_hint_y=0.11, spacing=4)
        self.undo_button = big_button(tr("Undo"), self.undo)
        self.redo_button = big_button(tr("Redo"), self.redo)
        # Where the move log opens from the table ("did I already take that?").
        self.log_button = big_button(tr("Moves"), self.open_log)
        self.menu_button = big_button(tr("Menu"), self.open_menu)
        for button in (self.undo_button, self.redo_button, self.log_button, self.menu_button):
            bar.add_widget(button)
        right.add_widget(bar)
        root.add_widget(left)
        root.add_widget(right)
        outer.add_widget(root)
        self.add_widget(outer)

    # The parts by the names the tests and the hardware know them.
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

    def play(self, session: Session) -> None:
        self.session = session
        self.turn = Turn(session)
        self.refresh(tr("{name} to play").format(name=session.game.names[session.game.to_act]))

    @property
    def game(self) -> Game:
        assert self.session is not None
        return self.session.game

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
        self.players.show(game.seats, seat if playing else None, affordable)
        self.undo_button.disabled = not self.session.can_undo
        self.redo_button.disabled = not self.session.can_redo
        self.banner.show(self._final_round(game))
        self.say(message, error)

    def _final_round(self, game: Game) -> str:
        assert self.turn is not None
        still = self.turn.still_to_play()
        if not still:
            return ""
        leader = max(game.seats, key=lambda s: s.points)
        lead = tr("Final round: {name} has {points} points.").format(
            name=leader.name, points=leader.points
        )
        if len(still) == 1:
            rest = tr("{name} plays the last turn.").format(name=still[0])
        else:
            rest = tr("{names} and {last} still play:").format(
                names=", ".join(still[:-1]), last=still[-1]
            )
            rest += " " + ngettext("{n} turn left.", "{n} turns left.", len(still)).format(
                n=len(still)
            )
        return f"{lead} {rest}"

    def say(self, message: str, error: bool = False) -> None:
        self.status.color = theme.ERROR if error else theme.TEXT
        self.status.text = message

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
        if not self._playing():
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
        self.start(Pass(player=self.game.to_act))

    def tap_card(self, card: Card | None) -> None:
        if card is None or not self._playing():
            return
        self.buy_dialog(card, face_up=True)

    def buy_dialog(self, card: Card, face_up: bool) -> None:
        assert self.turn is not None
        purchase = self.turn.purchase(card, face_up)
        self._open(BuyDialog(purchase, self.game.names[purchase.seat], self.start))

    def tap_deck(self, level: int) -> None:
        if not self._playing():
            return
        assert self.turn is not None
        move = Reserve(deck=level, player=self.game.to_act)
        refusal = self.turn.refusal(move)
        text = reason(refusal) if refusal is not None else None
        self._open(DeckDialog(move, self.game.deck_size(level), text, self.start))

    def tap_reserved(self, seat: int, item: Card | Hidden) -> None:
        if not self._playing():
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
        if self.session is not None:
            self._open(PlayerDialog(self.game.seat(seat)))

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

    # ------------------------------------------------------------------ a turn

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
        self.refresh()
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
        name = self.game.names[self.game.to_act]
        try:
            move = self.turn.commit()
        except (IllegalMove, StoreError, Refused) as err:
            self.turn.cancel()
            self.refuse(err)
            return
        self.app.feedback(True)
        if self.game.over:
            self.app.show_end(self.session)
            return
        nxt = self.game.names[self.game.to_act]
        self.refresh(describe(move, name) + ". " + tr("{name} to play").format(name=nxt))

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

    # The hardware's events (see CompanionApp.say and on_card_scanned).
    def card_scanned(self, card_id: str) -> None:
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
            move = self.session.undo()
        except (IndexError, StoreError) as err:
            self.refresh(getattr(err, "message", str(err)), error=True)
            return
        self.refresh(tr("Undone: {move}").format(move=describe(move, self.game.names[move.player])))

    def redo(self) -> None:
        assert self.session is not None
        try:
            move = self.session.redo()
        except (IndexError, StoreError, IllegalMove) as err:
            self.refresh(getattr(err, "message", str(err)), error=True)
            return
        if self.game.over:
            self.app.show_end(self.session)
            return
        self.refresh(tr("Redone: {move}").format(move=describe(move, self.game.names[move.player])))

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
            self._open(LogDialog(self.session))

    def audit(self) -> None:
        """Count the physical bank; the companion says which colours differ (changes nothing)."""
        assert self.session is not None
        self._open(AuditDialog(self.session))
