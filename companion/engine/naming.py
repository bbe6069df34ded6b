"""Cards as players name them, in the current language: ``a blue level-1 card (1 point)``;
nobles by the bonuses they ask: ``white 4 + blue 4``.

Below the search and the records, which both say them (the companion's reasons, the move
log, the review).
"""

from __future__ import annotations

from ..i18n import ngettext
from ..i18n import translate as _
from .cards import Card, Noble
from .position import Hidden
from .tokens import GEMS, Colour


def card_words(card: Card | Hidden) -> str:
    """``a blue level-1 card (1 point)``: a card as players name it (one message per colour,
    so that each language makes the colour agree with its word for card); a card reserved
    face down that only its owner has seen is ``a hidden level-2 card``."""
    if isinstance(card, Hidden):
        return _("a hidden level-{level} card").format(level=card.level)
    templates = {
        Colour.WHITE: _("a white level-{level} card"),
        Colour.BLUE: _("a blue level-{level} card"),
        Colour.GREEN: _("a green level-{level} card"),
        Colour.RED: _("a red level-{level} card"),
        Colour.BLACK: _("a black level-{level} card"),
    }
    text = templates[card.bonus].format(level=card.level)
    if card.points:
        text += " " + ngettext("({n} point)", "({n} points)", card.points).format(n=card.points)
    return text


def noble_words(noble: Noble) -> str:
    """``white 4 + blue 4``: a noble as players tell the tiles apart, by the bonuses it asks
    (each colour's name, then its count, so that no language has to make it agree); the
    tile's id (``N5``) is for the record, not for people."""
    return " + ".join(
        f"{_(colour.key)} {n}" for colour, n in zip(GEMS, noble.requires, strict=True) if n
    )
