"""What the table says about cards, nobles and refusals: in words, never in record ids.

Ids such as ``1U5`` or ``N8`` are for the game record; players hear "a blue level-1 card".
A move and a card are said as the move log says them (:mod:`companion.records.movelog`): one
wording of each, in every language.
"""

from __future__ import annotations

from typing import Any

from companion.engine.cards import CARDS, NOBLES, Noble
from companion.engine.naming import card_words
from companion.engine.tokens import Tokens
from companion.errors import CompanionError, RecordError, place
from companion.i18n import localise

from ...i18n import tr


def noble_words(noble: Noble) -> str:
    """A noble by what it asks for: ``the noble asking for 4 red, 4 green``."""
    return tr("the noble asking for {bonuses}").format(
        bonuses=localise(Tokens._make([*noble.requires, 0]))
    )


def named(item: str) -> str:
    """A card or noble id (as a tag or the record holds it) in words; anything else as is."""
    if item in CARDS:
        return card_words(CARDS[item])
    if item in NOBLES:
        return noble_words(NOBLES[item])
    return item


def _said(value: Any) -> Any:
    """A message parameter, with any card or noble id put in words."""
    if isinstance(value, CompanionError):  # an error quoted in another, said the same way
        return _words(value)
    if isinstance(value, Tokens) and not any(value):
        return tr("no tokens")  # not an empty phrase that reads as cut off
    if isinstance(value, str):
        return named(value)
    if isinstance(value, list | tuple) and value and all(isinstance(v, str) for v in value):
        return ", ".join(str(_said(v)) for v in value)
    return value


def _words(err: CompanionError) -> str:
    try:
        text = tr(err.template).format(**{k: localise(_said(v)) for k, v in err.params.items()})
    except (KeyError, IndexError, ValueError):
        return err.message
    if isinstance(err, RecordError) and err.path:
        text = f"{place(err.path)}: {text}"  # where in the record, as its message says
    return text


def error_words(err: CompanionError) -> str:
    """An error in the table's words: its template, ids said as things (also in an error
    it quotes, such as the illegal move that keeps a journal from being resumed)."""
    text = _words(err)
    return text[:1].upper() + text[1:]
