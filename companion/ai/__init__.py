"""The companion as a player: it can fill a seat at the table, or suggest a move.

>>> from companion.ai import LEVELS, make
>>> list(LEVELS)
['easy', 'medium', 'hard', 'expert']
"""

from __future__ import annotations

from ..engine.game import Game
from ..engine.moves import Move
from .players import DEFAULT_THINK, LEVELS, Hard, make
from .words import announce, reason


def suggest(game: Game, seed: int = 0, think: float = DEFAULT_THINK) -> tuple[Move, str]:
    """The hard level's choice for the seat to act, and its reason in one line, in the
    current language ("Suggest a move")."""
    move = Hard(seed, think=think).choose(game)
    return move, reason(game, move)


__all__ = ["DEFAULT_THINK", "LEVELS", "announce", "make", "reason", "suggest"]
