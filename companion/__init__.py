"""Splendor Companion's core: card data, the rules engine, game records. No UI, no hardware.

>>> from companion import Game, Setup
>>> game = Game(Setup.of(["Ada", "Ben"], ["N1", "N2", "N3"],
...                      ["1W1 1W2 1W3 1W4", "2W1 2W2 2W3 2W4", "3W1 3W2 3W3 3W4"]))
>>> [str(m) for m in game.legal_moves()][:2]
['take WUG', 'take WUR']
"""

# First, before the engine: importing it keeps a stale compiled engine from running.
from .engine import native  # noqa: F401
from .engine.cards import CARDS, CARDS_BY_LEVEL, LEVELS, NOBLES, Card, Noble
from .engine.game import Game, Hidden, Position, Seat, Standing, Status
from .engine.moves import Buy, Move, Pass, Reserve, Take, parse_move
from .engine.rules import BASE, Rules
from .engine.setup import Setup, starting_bank
from .engine.tokens import GEMS, Colour, Tokens
from .errors import ErrorCode, IllegalMove, RecordError
from .version import __version__ as __version__

__all__ = [
    "BASE",
    "CARDS",
    "CARDS_BY_LEVEL",
    "GEMS",
    "LEVELS",
    "NOBLES",
    "Buy",
    "Card",
    "Colour",
    "ErrorCode",
    "Game",
    "Hidden",
    "IllegalMove",
    "Move",
    "Noble",
    "Pass",
    "Position",
    "RecordError",
    "Reserve",
    "Rules",
    "Seat",
    "Setup",
    "Standing",
    "Status",
    "Take",
    "Tokens",
    "parse_move",
    "starting_bank",
]
