"""The companion's turn on screen: its move in pictures and words, made on the table by a
person and confirmed with one tap; and the "Suggest a move" panel for a person's seat.

What to show comes from the core (:mod:`companion.ai`): the move, its wording, its reason.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.core.window import Window
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from companion.ai.words import announce, reason, visiting
from companion.cards import CARDS, NOBLES
from companion.game import Game
from companion.moves import Buy, Move, Reserve, Take
from companion.tokens import Colour, Tokens

from . import theme
from .dialogs import Dialog
from .i18n import tr
from .widgets import CardView, NobleView, TokenButton, wrapping_label


def level_name(level: str) -> str:
    """A level in the current language (the catalogs hold "easy", "medium", "hard")."""
    return {"easy": tr("easy"), "medium": tr("medium"), "hard": tr("hard")}.get(level, level)


def _caption(text: str) -> Label:
    label = Label(text=text, font_size=17 * Window.height / 480, halign="right", valign="middle")
    label.size_hint_x = 0.3
    label.bind(size=lambda w, size: setattr(w, "text_size", size))
    return label


def _tokens_row(tokens: Tokens, caption: str) -> BoxLayout:
    """A caption and one pile per colour, its count on it."""
    row = BoxLayout(spacing=6)
    row.add_widget(_caption(caption))
    for colour in Colour:
        if tokens[colour]:
            row.add_widget(TokenButton(colour=colour, count=tokens[colour], size_hint_x=0.11))
    row.add_widget(Widget())
    return row


def pictures(game: Game, move: Move) -> BoxLayout:
    """The move as a person sees it on the table: the tokens, the card, the noble."""
    box = BoxLayout(orientation="vertical", spacing=6)
    seat = game.to_act
    if isinstance(move, Take):
        box.add_widget(_tokens_row(move.gems, tr("From the bank:")))
    elif isinstance(move, Buy | Reserve):
        row = BoxLayout(spacing=10)
        if isinstance(move, Reserve) and move.deck is not None:
            view = CardView(deck_level=move.deck, deck_count=game.deck_size(move.deck))
        else:
            view = CardView(card=CARDS[move.card or ""])
        view.size_hint_x = 0.22
        row.add_widget(view)
        side = BoxLayout(orientation="vertical", spacing=4)
        if isinstance(move, Buy):
            card = CARDS[move.card]
            pay = move.payment or game.default_payment(seat, card) or Tokens()
            if pay.total:
                side.add_widget(_tokens_row(pay, tr("Paying:")))
        elif game.bank.gold:
            side.add_widget(_tokens_row(Tokens(gold=1), tr("With:")))
        row.add_widget(side)
        box.add_widget(row)
    if move.returned is not None and move.returned.total:
        box.add_widget(_tokens_row(move.returned, tr("Gives back:")))
    noble = visiting(game, move)
    if noble is not None:
        row = BoxLayout(spacing=6)
        row.add_widget(_caption(tr("Noble:")))
        row.add_widget(NobleView(noble=NOBLES[noble], size_hint_x=0.16))
        row.add_widget(Widget())
        box.add_widget(row)
    return box


class CompanionTurn(Dialog):
    """The companion's move, to make on the table; one tap when it is done."""

    def __init__(
        self,
        game: Game,
        move: Move,
        level: str,
        on_done: Callable[[], None],
        on_undo: Callable[[], None],
        **kw: Any,
    ) -> None:
        name = game.names[game.to_act]
        super().__init__(
            tr("{name} (the companion, {level}) plays").format(name=name, level=level_name(level)),
            **kw,
        )
        self.move = move
        self.body.add_widget(pictures(game, move))
        self.words = wrapping_label(announce(game, move, name), font=20 * Window.height / 480)
        self.body.add_widget(self.words)
        self.message.text = tr("Make this move on the table for it, then tap Done.")
        self.message.color = theme.TEXT_DIM
        if game.moves:
            self.button(tr("Undo"), on_undo)
        self.button(tr("Done"), on_done)


class Suggestion(Dialog):
    """The hard level's choice for a person's seat, and why, in one line."""

    def __init__(self, game: Game, move: Move, on_close: Callable[[], object], **kw: Any) -> None:
        super().__init__(tr("A suggestion"), **kw)
        self.body.add_widget(pictures(game, move))
        self.words = wrapping_label(
            announce(game, move, game.names[game.to_act]) + "\n" + reason(game, move),
            font=20 * Window.height / 480,
        )
        self.body.add_widget(self.words)
        self.button(tr("Close"), on_close)
