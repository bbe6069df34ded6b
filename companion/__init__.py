"""Splendor Companion's core: card data, the rules engine, game records. No UI, no hardware.

>>> from companion import Game, Setup
>>> game = Game(Setup.of(["Ada", "Ben"], ["N1", "N2", "N3"],
...                      ["1W1 1W2 1W3 1W4", "2W1 2W2 2W3 2W4", "3W1 3W2 3W3 3W4"]))
>>> [str(m) for m in game.legal_moves()][:2]
['take WUG', 'take WUR']

The names below are loaded when first used: a command that needs one module of the core
(``python -m ui.display`` in ``deploy.sh``, the error messages) does not pay for the
engine, the cards' table and the package's metadata.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

# First, before the engine: importing it keeps a stale compiled engine from running.
from .engine import native  # noqa: F401

if TYPE_CHECKING:
    from .engine.cards import CARDS as CARDS
    from .engine.cards import CARDS_BY_LEVEL as CARDS_BY_LEVEL
    from .engine.cards import LEVELS as LEVELS
    from .engine.cards import NOBLES as NOBLES
    from .engine.cards import Card as Card
    from .engine.cards import Noble as Noble
    from .engine.game import Game as Game
    from .engine.game import Hidden as Hidden
    from .engine.game import Position as Position
    from .engine.game import Seat as Seat
    from .engine.game import Standing as Standing
    from .engine.game import Status as Status
    from .engine.moves import Buy as Buy
    from .engine.moves import Move as Move
    from .engine.moves import Pass as Pass
    from .engine.moves import Reserve as Reserve
    from .engine.moves import Take as Take
    from .engine.moves import parse_move as parse_move
    from .engine.rules import BASE as BASE
    from .engine.rules import Rules as Rules
    from .engine.setup import Setup as Setup
    from .engine.setup import starting_bank as starting_bank
    from .engine.tokens import GEMS as GEMS
    from .engine.tokens import Colour as Colour
    from .engine.tokens import Tokens as Tokens
    from .errors import ErrorCode as ErrorCode
    from .errors import IllegalMove as IllegalMove
    from .errors import RecordError as RecordError
    from .version import __version__ as __version__

_WHERE = {
    ".engine.cards": ("CARDS", "CARDS_BY_LEVEL", "LEVELS", "NOBLES", "Card", "Noble"),
    ".engine.game": ("Game", "Hidden", "Position", "Seat", "Standing", "Status"),
    ".engine.moves": ("Buy", "Move", "Pass", "Reserve", "Take", "parse_move"),
    ".engine.rules": ("BASE", "Rules"),
    ".engine.setup": ("Setup", "starting_bank"),
    ".engine.tokens": ("GEMS", "Colour", "Tokens"),
    ".errors": ("ErrorCode", "IllegalMove", "RecordError"),
    ".version": ("__version__",),
}
_MODULE_OF = {name: module for module, names in _WHERE.items() for name in names}

__all__ = sorted(name for name in _MODULE_OF if name != "__version__")


def __getattr__(name: str) -> object:
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value  # the next use is a plain lookup
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_MODULE_OF})
