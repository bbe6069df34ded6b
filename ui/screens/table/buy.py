"""The dialogs that start a turn with a card: buy (any card, blind-reserved ones too, with
its cost, its payment and "gold for 1 ..." swaps) or reserve, and a deck's blind reserve;
which of them a tap on a card, a deck or a reserved card opens (:class:`CardTaps`)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.scrollview import ScrollView
from kivy.uix.widget import Widget

from companion.engine.cards import Card
from companion.engine.game import Hidden
from companion.engine.moves import Move, Reserve
from companion.engine.naming import card_words
from companion.engine.tokens import Colour
from companion.errors import ErrorCode, IllegalMove
from companion.i18n import localise
from companion.journal.declaring import Purchase

from ... import theme
from ...dialogs import CardPicker, Dialog
from ...i18n import tr
from ...scale import SCALE
from ...widgets.buttons import big_button, then
from ...widgets.pieces import CardView, GemRow
from ...widgets.text import wrapping_label
from .parts import Table
from .words import error_words

CARD_SHAPE = 0.72  # a card's width over its height, as the board draws it


class BuyDialog(Dialog):
    """A card the player to act may buy (or, face up, reserve): what it costs them, what
    they pay, and why an action is refused, all said before any button is pressed."""

    def __init__(self, purchase: Purchase, name: str, start: Callable[[Move], None]) -> None:
        card = purchase.card
        title = (
            tr("{name}: {card}") if purchase.face_up else tr("{name} buys from the reserve: {card}")
        )
        super().__init__(title.format(name=name, card=card_words(card)))
        self.purchase = purchase
        self.name = name
        # The card as the card reads (its shape kept), beside what it costs on a wide
        # window, above it upright, where beside it was a tall stripe in a panel 60%
        # empty (issue 34).
        self.card_view = CardView(card=card)
        self.holder = Widget()
        self.holder.add_widget(self.card_view)
        self.holder.bind(pos=self._place_card, size=self._place_card)
        # What it costs and pays, scrolled on a screen too small for all of it at once.
        info = GridLayout(cols=1, spacing=6, size_hint_y=None)
        info.bind(minimum_height=info.setter("height"))
        cost = localise(purchase.cost)
        info.add_widget(
            wrapping_label(
                tr("With the bonuses, it costs {name} {cost}.").format(name=name, cost=cost)
                if cost
                else tr("The bonuses pay for it all: it is free for {name}.").format(name=name),
                font=SCALE.font(20),
            )
        )
        self.pay_label = wrapping_label("", font=SCALE.font(20), color=theme.ACCENT)
        info.add_widget(self.pay_label)
        self.pay_gems = GemRow(size_hint_y=None, height=SCALE.target(44), spacing=SCALE.px(6))
        info.add_widget(self.pay_gems)
        self.swaps = BoxLayout(spacing=6, size_hint_y=None, height=SCALE.target(56))
        info.add_widget(self.swaps)
        self.info = info
        self.scroll = ScrollView(do_scroll_x=False)
        self.scroll.add_widget(info)
        self.row = BoxLayout(spacing=12)
        # Upright, the words take the height they need (up to half the row), the card
        # all the rest.
        info.bind(height=self._share)
        self.row.bind(height=self._share)
        self._arrange()
        self.body.add_widget(self.row)
        errors = [e for e in (purchase.buy_error, purchase.reserve_error) if e is not None]
        self.message.text = " ".join(self._refusal(e) for e in errors)
        self.button(tr("Cancel"), self.dismiss)
        if purchase.face_up:
            self.button(
                tr("Reserve"),
                then(self.dismiss, partial(start, purchase.reserve)),
                disabled=purchase.reserve_error is not None,
            )
        self.button(
            tr("Buy"),
            lambda: self.buy(start),
            disabled=purchase.buy_error is not None,
            background_color=theme.BUTTON_GO,
        )
        self.show_payment()

    def _refusal(self, error: IllegalMove) -> str:
        """Why a button is off: short of tokens is said by what the player holds (the
        engine's words said the cost again, just said above)."""
        if error.code == ErrorCode.CANNOT_AFFORD:
            held = localise(self.purchase.held) or tr("no tokens")
            return tr("{name} holds {tokens}: not enough to buy it.").format(
                name=self.name, tokens=held
            )
        return error_words(error)

    def _arrange(self) -> None:
        """The card beside its cost on a wide window, above it upright."""
        self.row.clear_widgets()
        self.row.orientation = "vertical" if SCALE.portrait else "horizontal"
        self.holder.size_hint = (1, 1) if SCALE.portrait else (0.3, 1)
        self.scroll.size_hint_y = None if SCALE.portrait else 1
        self.row.add_widget(self.holder)
        self.row.add_widget(self.scroll)
        self._share()

    def _share(self, *_: Any) -> None:
        if SCALE.portrait:
            self.scroll.height = min(self.info.height, self.row.height * 0.5)

    def _place_card(self, *_: Any) -> None:
        """The card at its own shape (about 5 wide to 7 tall), as large as its room allows,
        at the left of a wide window's row, in the middle of an upright one's."""
        box = self.holder
        h = min(box.height, box.width / CARD_SHAPE)
        w = h * CARD_SHAPE
        self.card_view.size = (w, h)
        left = box.x + (box.width - w) / 2 if SCALE.portrait else box.x
        self.card_view.pos = (left, box.y + (box.height - h) / 2)

    def lay_out(self) -> None:
        self._arrange()
        super().lay_out()

    def buy(self, start: Callable[[Move], None]) -> None:
        self.dismiss()
        start(self.purchase.buy)  # with the payment as chosen at this moment

    def show_payment(self) -> None:
        purchase = self.purchase
        pay = purchase.payment
        self.swaps.clear_widgets()
        if pay is None:
            self.pay_label.text = ""
            self.pay_gems.values = [0] * 6
            return
        self.pay_gems.values = list(pay)
        self.pay_label.text = tr("{name} pays {tokens}.").format(
            name=self.name, tokens=localise(pay) or "0"
        )
        for colour in purchase.swaps():
            self.swaps.add_widget(
                big_button(
                    tr("gold for 1 {colour}").format(colour=localise(colour)),
                    partial(self.swap, colour),
                )
            )
        if pay != purchase.default:
            self.swaps.add_widget(big_button(tr("No gold"), self.reset))
        for _ in range(3 - len(self.swaps.children)):
            self.swaps.add_widget(Widget())  # a lone button keeps a button's width

    def swap(self, colour: Colour) -> None:
        self.purchase.swap(colour)
        self.show_payment()

    def reset(self) -> None:
        self.purchase.reset()
        self.show_payment()


class DeckDialog(Dialog):
    """Reserve the top card of a deck, unseen (it becomes the player's hidden card)."""

    def __init__(
        self, move: Reserve, size: int, refusal: str | None, start: Callable[[Move], None]
    ) -> None:
        level = move.deck or 0
        super().__init__(tr("Reserve the top card of the level {n} deck, unseen?").format(n=level))
        row = BoxLayout()
        row.add_widget(BoxLayout())
        row.add_widget(CardView(deck_level=level, deck_count=size, size_hint_x=0.5))
        row.add_widget(BoxLayout())
        self.body.add_widget(row)
        self.message.text = refusal or ""
        self.button(tr("Cancel"), self.dismiss)
        self.button(
            tr("Reserve"),
            then(self.dismiss, partial(start, move)),
            disabled=refusal is not None,
            background_color=theme.BUTTON_GO,
        )


class CardTaps:
    """What a tap on a card starts for the player to act: a card of the market bought or
    reserved, a deck's top card reserved unseen, a reserved card bought (a blind one
    declared first: H2). ``start``: the move chosen, its turn begins
    (:meth:`.steps.TurnSteps.start`)."""

    def __init__(self, table: Table, start: Callable[[Move], None]) -> None:
        self.table = table
        self.start = start

    def card(self, card: Card, face_up: bool) -> None:
        turn = self.table.turn
        assert turn is not None
        purchase = turn.purchase(card, face_up)
        name = self.table.game.names[purchase.seat]
        self.table.open_dialog(BuyDialog(purchase, name, self.start))

    def deck(self, level: int) -> None:
        turn, game = self.table.turn, self.table.game
        assert turn is not None
        move = Reserve(deck=level, player=game.to_act)
        refusal = turn.refusal(move)
        text = error_words(refusal) if refusal is not None else None
        self.table.open_dialog(DeckDialog(move, game.deck_size(level), text, self.start))

    def reserved(self, seat: int, item: Card | Hidden) -> None:
        turn, game = self.table.turn, self.table.game
        assert turn is not None
        name = game.names[game.to_act]
        if seat != game.to_act:
            self.table.say(
                tr("Only {name} can buy from their reserve now.").format(name=name), True
            )
            return
        if isinstance(item, Card):
            self.card(item, face_up=False)
            return
        # H2: the table declares which card the blind reserve is, as it is bought.
        unseen = game.unseen(item.level)
        affordable = {c.id for c in turn.affordable(unseen)}
        if not affordable:
            self.table.say(
                tr("{name} cannot afford any card this hidden level-{level} card could be.").format(
                    name=name, level=item.level
                ),
                error=True,
            )
            return
        self.table.open_dialog(
            CardPicker(
                tr("Which level {n} card is {name} buying from the reserve?").format(
                    n=item.level, name=name
                ),
                unseen,
                lambda c: self.card(c, face_up=False),
                dimmed={c.id for c in unseen} - affordable,
            )
        )
