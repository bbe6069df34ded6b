"""What the table says about moves, cards and nobles: in words, never in record ids.

Ids such as ``1U5`` or ``N8`` are for the game record; players hear "a blue level-1 card".
"""

from __future__ import annotations

from typing import Any

from companion.cards import CARDS, NOBLES, Card, Noble
from companion.errors import IllegalMove, Refused
from companion.game import Hidden
from companion.i18n import localise
from companion.moves import Buy, Move, Reserve, Take
from companion.store import StoreError
from companion.tokens import Tokens

from ...i18n import tr


def card_words(card: Card | Hidden) -> str:
    """``a blue level-1 card``; a blind-reserved card is ``a hidden level-2 card``."""
    if isinstance(card, Hidden):
        return tr("a hidden level-{level} card").format(level=card.level)
    return tr("a {colour} level-{level} card").format(colour=tr(card.bonus.key), level=card.level)


def noble_words(noble: Noble) -> str:
    """A noble by what it asks for: ``the noble asking for 4 red, 4 green``."""
    return tr("the noble asking for {bonuses}").format(
        bonuses=localise(Tokens._make([*noble.requires, 0]))
    )


def _said(value: Any) -> Any:
    """A message parameter, with any card or noble id put in words."""
    if isinstance(value, Tokens) and not any(value):
        return tr("no tokens")  # not an empty phrase that reads as cut off
    if isinstance(value, str):
        if value in CARDS:
            return card_words(CARDS[value])
        if value in NOBLES:
            return noble_words(NOBLES[value])
    if isinstance(value, list | tuple) and value and all(isinstance(v, str) for v in value):
        return ", ".join(str(_said(v)) for v in value)
    return value


def reason(err: IllegalMove | Refused | StoreError) -> str:
    """The engine's refusal in the table's words: its template, ids said as things."""
    template = getattr(err, "template", None)
    params = getattr(err, "params", None)
    if template is None or params is None:
        return err.message
    try:
        text = tr(template).format(**{k: localise(_said(v)) for k, v in params.items()})
    except (KeyError, IndexError, ValueError):
        return err.message
    return text[:1].upper() + text[1:]


def describe(move: Move, name: str) -> str:
    """What a move did, in words, for the status line and the log."""
    if isinstance(move, Take):
        text = tr("{name} takes {tokens}").format(name=name, tokens=localise(move.gems))
    elif isinstance(move, Reserve):
        if move.deck is None and move.card is not None:
            what = card_words(CARDS[move.card])
        else:
            what = tr("a level {n} card").format(n=move.deck)
        text = tr("{name} reserves {card}").format(name=name, card=what)
    elif isinstance(move, Buy):
        text = tr("{name} buys {card}").format(name=name, card=card_words(CARDS[move.card]))
    else:
        text = tr("{name} passes").format(name=name)
    if move.returned is not None and any(move.returned):
        text += ", " + tr("gives back {tokens}").format(tokens=localise(move.returned))
    if move.noble:
        text += ", " + tr("visited by {noble}").format(noble=noble_words(NOBLES[move.noble]))
    return text
