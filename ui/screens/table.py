"""The table during play: bank, market, nobles, players; every action in a few taps.

Nothing here decides a rule: what is offered comes from the engine (``legal_moves``,
``due``), and what is refused is refused with the engine's own reason.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from companion.cards import Card, Noble
from companion.errors import IllegalMove, Refused
from companion.game import Hidden
from companion.moves import Buy, Move, Pass, Reserve, Take
from companion.session import Session
from companion.store import StoreError
from companion.table import CONFIRM, NOBLE, RETURN, REVEAL, Turn
from companion.tokens import GEMS, Colour, Tokens

from .. import theme
from ..dialogs import CardPicker, Dialog, NoblePicker, ReturnPicker
from ..i18n import tr
from ..movelog import open_move_log
from ..widgets import (
    CardView,
    NobleView,
    PlayerPanel,
    TokenButton,
    big_button,
    text_label,
    then,
    tokens_text,
)

if TYPE_CHECKING:
    from ..application import CompanionApp


def describe(move: Move, name: str) -> str:
    """What a move did, in words, for the status line."""
    if isinstance(move, Take):
        text = tr("{name} takes {tokens}").format(name=name, tokens=tokens_text(move.gems))
    elif isinstance(move, Reserve):
        what = move.card if move.deck is None else tr("a level {n} card").format(n=move.deck)
        text = tr("{name} reserves {card}").format(name=name, card=what)
    elif isinstance(move, Buy):
        text = tr("{name} buys {card}").format(name=name, card=move.card)
    else:
        text = tr("{name} passes").format(name=name)
    if move.returned is not None and any(move.returned):
        text += ", " + tr("gives back {tokens}").format(tokens=tokens_text(move.returned))
    if move.noble:
        text += ", " + tr("visited by {noble}").format(noble=move.noble)
    return text


class TableScreen(Screen):
    def __init__(self, app: CompanionApp, **kw: Any) -> None:
        super().__init__(name="table", **kw)
        self.app = app
        self.session: Session | None = None
        self.turn: Turn | None = None
        self.selection = Tokens()
        self.dialog: Dialog | None = None
        self._build()

    # ------------------------------------------------------------------ layout

    def _build(self) -> None:
        root = BoxLayout(spacing=6, padding=6)
        left = BoxLayout(orientation="vertical", size_hint_x=0.63, spacing=4)
        self.nobles = BoxLayout(size_hint_y=0.16, spacing=6, padding=[4, 0])
        left.add_widget(self.nobles)
        self.rows: list[list[CardView]] = []
        self.decks: list[CardView] = []
        market = BoxLayout(orientation="vertical", size_hint_y=0.72, spacing=4)
        for level in (3, 2, 1):
            row = BoxLayout(spacing=5)
            deck = CardView(deck_level=level)
            deck.bind(on_release=lambda v, lv=level: self.tap_deck(lv))
            row.add_widget(deck)
            views = []
            for _ in range(4):
                view = CardView()
                view.bind(on_release=lambda v: self.tap_card(v.card))
                views.append(view)
                row.add_widget(view)
            self.decks.insert(0, deck)
            self.rows.insert(0, views)
            market.add_widget(row)
        left.add_widget(market)
        self.status = text_label("", scale=0.36, size_hint_y=0.12, halign="left", valign="middle")
        left.add_widget(self.status)

        right = BoxLayout(orientation="vertical", size_hint_x=0.37, spacing=4)
        self.bank_row = BoxLayout(size_hint_y=0.13, spacing=2)
        self.bank: list[TokenButton] = []
        for colour in Colour:
            token = TokenButton(colour=colour)
            token.bind(on_release=lambda t, c=colour: self.tap_token(c))
            self.bank.append(token)
            self.bank_row.add_widget(token)
        right.add_widget(self.bank_row)
        self.take_bar = BoxLayout(size_hint_y=0.1, spacing=4)
        right.add_widget(self.take_bar)
        self.players = BoxLayout(orientation="vertical", spacing=4, size_hint_y=0.63)
        right.add_widget(self.players)
        bar = BoxLayout(size_hint_y=0.14, spacing=4)
        self.undo_button = big_button(tr("Undo"), self.undo)
        self.redo_button = big_button(tr("Redo"), self.redo)
        self.menu_button = big_button(tr("Menu"), self.open_menu)
        bar.add_widget(self.undo_button)
        bar.add_widget(self.redo_button)
        bar.add_widget(self.menu_button)
        right.add_widget(bar)
        root.add_widget(left)
        root.add_widget(right)
        self.add_widget(root)

    # ------------------------------------------------------------------ state

    def play(self, session: Session) -> None:
        self.session = session
        self.turn = Turn(session)
        self.selection = Tokens()
        self.refresh(tr("{name} to play").format(name=session.game.names[session.game.to_act]))

    @property
    def game(self) -> Any:
        assert self.session is not None
        return self.session.game

    def refresh(self, message: str = "", error: bool = False) -> None:
        """Redraw everything from the engine's state."""
        if self.session is None:
            return
        game = self.game
        seat = game.to_act
        hints = self.app.hints and not game.over
        affordable = {c.id for row in game.market for c in row if c and game.can_afford(seat, c)}
        affordable |= {
            c.id
            for c in game.seat(seat).reserved
            if isinstance(c, Card) and game.can_afford(seat, c)
        }
        self.nobles.clear_widgets()
        for noble in game.nobles:
            self.nobles.add_widget(NobleView(noble=noble))
        for _ in range(5 - len(game.nobles)):
            self.nobles.add_widget(Widget())
        for level, (views, deck) in enumerate(zip(self.rows, self.decks, strict=True), start=1):
            deck.deck_count = game.deck_size(level)
            for view, card in zip(views, game.market[level - 1], strict=True):
                view.card = card
                view.highlight = bool(hints and card is not None and card.id in affordable)
        can_add = self.turn.can_add(self.selection) if self.turn and not game.over else set()
        for token in self.bank:
            token.count = game.bank[token.colour] - self.selection[token.colour]
            token.chosen = self.selection[token.colour]
            token.dimmed = (
                token.colour != Colour.GOLD
                and token.colour not in can_add
                and not self.selection[token.colour]
            )
        self._take_bar(game)
        seats = game.seats
        if len(self.players.children) != len(seats):
            self.players.clear_widgets()
            for _ in seats:
                self.players.add_widget(PlayerPanel(on_reserved=self.tap_reserved))
        for s, panel in zip(seats, reversed(self.players.children), strict=True):
            panel.show(s, s.seat == seat and not game.over, affordable if hints else set())
        self.undo_button.disabled = not (self.session and self.session.can_undo)
        self.redo_button.disabled = not (self.session and self.session.can_redo)
        banner = ""
        if game.final_round:
            leader = max(game.seats, key=lambda s: s.points)
            banner = (
                tr("Final round: {name} has {points} points.").format(
                    name=leader.name, points=leader.points
                )
                + " "
            )
        self.status.color = theme.ERROR if error else theme.TEXT
        self.status.text = (banner + message).strip()

    def _take_bar(self, game: Any) -> None:
        bar = self.take_bar
        bar.clear_widgets()
        if self.turn is None or game.over:
            return
        if any(self.selection):
            take = big_button(
                tr("Take"),
                self.take,
                disabled=not self.turn.is_take(self.selection),
                background_color=(0.3, 0.7, 0.4, 1),
            )
            bar.add_widget(take)
            bar.add_widget(big_button(tr("Clear"), self.clear_selection, size_hint_x=0.5))
        elif self.turn.passes_only():
            bar.add_widget(big_button(tr("Pass (no action is possible)"), self.pass_turn))
        else:
            name = game.names[game.to_act]
            bar.add_widget(
                text_label(
                    tr("{name}'s turn").format(name=name), scale=0.5, bold=True, color=theme.ACCENT
                )
            )

    def say(self, message: str, error: bool = False) -> None:
        self.status.color = theme.ERROR if error else theme.TEXT
        self.status.text = message

    def refuse(self, err: IllegalMove | Refused | StoreError) -> None:
        self.app.feedback(False)
        self.refresh(err.message, error=True)
        if self.dialog is not None:  # the status line is behind it: say it where it is seen
            self.dialog.message.text = err.message

    # ------------------------------------------------------------------ taps

    def tap_token(self, colour: Colour) -> None:
        assert self.turn is not None
        if self.game.over:
            return
        if colour == Colour.GOLD:
            self.say(tr("Gold cannot be taken: it comes with a reserve."), error=True)
            return
        if colour not in self.turn.can_add(self.selection):
            wanted = self.selection + Tokens._make(1 if c == colour else 0 for c in range(6))
            err = self.game.explain(Take(wanted, player=self.game.to_act))
            if err is not None:
                self.refuse(err)
            return
        self.selection = self.selection + Tokens._make(1 if c == colour else 0 for c in range(6))
        if self.turn.is_take(self.selection) and not self.turn.can_add(self.selection):
            self.take()  # nothing can be added: the take is complete, save a tap
            return
        self.refresh(tr("Tap more colours, then Take."))

    def confirm(self) -> None:
        """The confirm button: the tokens chosen so far, when they make a legal take."""
        if self.turn is not None and any(self.selection) and self.turn.is_take(self.selection):
            self.take()

    def clear_selection(self) -> None:
        self.selection = Tokens()
        self.refresh()

    def take(self) -> None:
        move = Take(self.selection, player=self.game.to_act)
        self.selection = Tokens()
        self.start(move)

    def pass_turn(self) -> None:
        self.start(Pass(player=self.game.to_act))

    def tap_card(self, card: Card | None) -> None:
        if card is None or self.game.over:
            return
        self.action_dialog(card, face_up=True)

    def tap_deck(self, level: int) -> None:
        if self.game.over:
            return
        move = Reserve(deck=level, player=self.game.to_act)
        err = self._explain_action(move)
        dialog = Dialog(tr("Reserve the top card of the level {n} deck, unseen?").format(n=level))
        dialog.body.add_widget(
            CardView(
                deck_level=level,
                deck_count=self.game.deck_size(level),
                size_hint=(0.3, 1),
                pos_hint={"center_x": 0.5},
            )
        )
        if err is not None:
            dialog.message.text = err.message
        dialog.button(tr("Cancel"), dialog.dismiss)
        dialog.button(
            tr("Reserve"), then(dialog.dismiss, partial(self.start, move)), disabled=err is not None
        )
        self._open(dialog)

    def tap_reserved(self, seat: int, item: Card | Hidden) -> None:
        game = self.game
        if game.over:
            return
        if seat != game.to_act:
            self.say(
                tr("Only {name} can buy from their reserve now.").format(
                    name=game.names[game.to_act]
                ),
                error=True,
            )
            return
        if isinstance(item, Hidden):
            # H2: the table declares which card the blind reserve is, as it is bought.
            CardPicker(
                tr("Which level {n} card is {name} buying from the reserve?").format(
                    n=item.level, name=game.names[seat]
                ),
                game.unseen(item.level),
                lambda c: self.start(Buy(c.id, player=seat)),
            ).open()
            return
        self.action_dialog(item, face_up=False)

    def _explain_action(self, move: Move) -> IllegalMove | None:
        try:
            self.game.due(move)
        except IllegalMove as err:
            return err
        return None

    def action_dialog(self, card: Card, face_up: bool) -> None:
        """A card was tapped (or scanned): buy it, maybe with gold, or reserve it."""
        game = self.game
        seat = game.to_act
        name = game.names[seat]
        dialog = Dialog(tr("{name}: {card}").format(name=name, card=card.id))
        row = BoxLayout(spacing=12)
        row.add_widget(CardView(card=card, size_hint_x=0.28))
        info = BoxLayout(orientation="vertical", spacing=4)
        cost = game.cost(seat, card)
        info.add_widget(
            text_label(
                tr("Costs {name} {cost} after bonuses.").format(name=name, cost=tokens_text(cost)),
                scale=0.3,
                halign="left",
                valign="middle",
            )
        )
        payment = game.default_payment(seat, card)
        pay_label = text_label("", scale=0.3, halign="left", valign="middle")
        info.add_widget(pay_label)
        gold_row = BoxLayout(spacing=4)
        info.add_widget(gold_row)
        row.add_widget(info)
        dialog.body.add_widget(row)
        state = {"payment": payment}

        def show_payment() -> None:
            pay = state["payment"]
            gold_row.clear_widgets()
            if pay is None:
                pay_label.text = ""
                return
            pay_label.text = tr("Pays {tokens}.").format(tokens=tokens_text(pay))
            gold = game.seat(seat).tokens.gold
            if gold > pay.gold:
                for colour in GEMS:
                    if pay[colour]:
                        gold_row.add_widget(
                            big_button(
                                tr("gold for 1 {colour}").format(colour=tr(colour.key)),
                                partial(swap, colour),
                                font_size=14,
                            )
                        )

        def swap(colour: Colour) -> None:
            pay = state["payment"]
            assert pay is not None
            values = list(pay)
            values[colour] -= 1
            values[Colour.GOLD] += 1
            state["payment"] = Tokens._make(values)
            show_payment()

        show_payment()
        buy = Buy(card.id, player=seat)
        reserve = Reserve(card=card.id, player=seat)
        buy_error = self._explain_action(buy)
        reserve_error = self._explain_action(reserve) if face_up else None
        reasons = [e.message for e in (buy_error, reserve_error) if e is not None]
        dialog.message.text = " ".join(reasons)
        dialog.button(tr("Cancel"), dialog.dismiss)
        if face_up:
            dialog.button(
                tr("Reserve"),
                then(dialog.dismiss, partial(self.start, reserve)),
                disabled=reserve_error is not None,
            )

        def buy_now() -> None:
            dialog.dismiss()
            pay = state["payment"]
            self.start(Buy(card.id, pay if pay != payment else None, player=seat))

        dialog.button(
            tr("Buy"), buy_now, disabled=buy_error is not None, background_color=(0.3, 0.7, 0.4, 1)
        )
        self._open(dialog)

    def _open(self, dialog: Dialog) -> None:
        self.dialog = dialog
        dialog.bind(on_dismiss=lambda *_: setattr(self, "dialog", None))
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
        step = turn.step
        if step == REVEAL:
            level = turn.due.reveal
            assert level is not None
            picker = CardPicker(
                tr("Level {level}: which card was turned face up? (or scan it)").format(
                    level=level
                ),
                game.unseen(level),
                self.reveal,
                on_cancel=self.cancel_turn,
            )
            self._open(picker)
        elif step == RETURN:
            self._open(
                ReturnPicker(
                    tr("{name} holds {n} tokens: give back {k}").format(
                        name=game.names[game.to_act], n=turn.due.hand.total, k=turn.due.returns
                    ),
                    turn.due.hand,
                    turn.due.returns,
                    self.give_back,
                )
            )
        elif step == NOBLE:
            self._open(
                NoblePicker(
                    tr("Which noble visits {name}?").format(name=game.names[game.to_act]),
                    turn.due.nobles,
                    self.choose_noble,
                )
            )
        elif step == CONFIRM:
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
                self.dialog.message.text = err.message
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
        assert self.turn is not None
        if self.game.over:
            return
        if self.dialog is not None and not isinstance(self.dialog, CardPicker):
            self.dialog.dismiss()
        try:
            result = self.turn.declare_card(card_id)
        except (IllegalMove, Refused) as err:
            self.refuse(err)
            return
        if self.dialog is not None:
            self.dialog.dismiss()
        if result == "choose":
            card = next(c for row in self.game.market for c in row if c and c.id == card_id)
            self.action_dialog(card, face_up=True)
            return
        self.advance()

    def undo(self) -> None:
        assert self.session is not None
        if self.turn is not None:
            self.turn.cancel()
        self.selection = Tokens()
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
        dialog = Dialog(tr("Menu"))
        grid = BoxLayout(orientation="vertical", spacing=8)
        hints = tr("Hints: on") if self.app.hints else tr("Hints: off")
        grid.add_widget(big_button(hints, then(dialog.dismiss, self.app.toggle_hints)))
        grid.add_widget(
            big_button(tr("Bank audit: count the bank"), then(dialog.dismiss, self.audit))
        )
        grid.add_widget(  # the move log and game clock (ui/movelog.py)
            big_button(
                tr("Moves so far, and the clock"),
                then(dialog.dismiss, lambda: open_move_log(self.session)),
            )
        )
        grid.add_widget(big_button(tr("Settings"), then(dialog.dismiss, self.app.open_settings)))
        grid.add_widget(
            big_button(
                tr("Leave the game (it is saved)"),
                then(dialog.dismiss, self.app.show_start),
            )
        )
        dialog.body.add_widget(grid)
        dialog.button(tr("Back to the game"), dialog.dismiss)
        self._open(dialog)

    def audit(self) -> None:
        """Count the physical bank; the companion says which colours differ (changes nothing)."""
        assert self.session is not None
        expected = self.game.bank
        counted = list(expected)
        dialog = Dialog(tr("Count the tokens in the bank, colour by colour"))
        row = BoxLayout(spacing=6)
        tokens: list[TokenButton] = []
        for colour in Colour:
            column = BoxLayout(orientation="vertical", spacing=4)
            token = TokenButton(colour=colour, count=counted[colour])
            tokens.append(token)

            def change(c: Colour, d: int) -> None:
                counted[c] = max(0, counted[c] + d)
                tokens[c].count = counted[c]

            column.add_widget(big_button("+", partial(change, colour, 1)))
            column.add_widget(token)
            column.add_widget(big_button("-", partial(change, colour, -1)))
            row.add_widget(column)
        dialog.body.add_widget(row)

        def check() -> None:
            assert self.session is not None
            try:
                result = self.session.audit(Tokens._make(counted))
            except StoreError as err:
                dialog.message.text = err.message
                return
            dialog.message.color = theme.OK if result.ok else theme.ERROR
            dialog.message.text = " ".join(result.lines())

        dialog.button(tr("Close"), dialog.dismiss)
        dialog.button(tr("Check"), check)
        self._open(dialog)
