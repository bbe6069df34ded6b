"""Gem colours and token counts (rules C1).

>>> Tokens.parse("RR*")
Tokens(white=0, blue=0, green=0, red=2, black=0, gold=1)
>>> str(Tokens(white=1, blue=1, green=1))
'WUG'
>>> Tokens(red=2).to_map()
{'red': 2}
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from enum import IntEnum
from typing import NamedTuple

from ..errors import ErrorCode, TextError
from ..i18n import ColourName, counted_colour


class Colour(IntEnum):
    """A token colour. The five gems come first so a cost indexes the same way."""

    WHITE = 0
    BLUE = 1
    GREEN = 2
    RED = 3
    BLACK = 4
    GOLD = 5

    @property
    def key(self) -> str:
        """The colour's name in the game record: ``white`` ... ``gold``."""
        return self.name.lower()

    @property
    def letter(self) -> str:
        """One letter, as in card ids (``W U G R K``); gold is ``*``, the wild token."""
        return LETTERS[self]

    @classmethod
    def from_key(cls, key: str) -> Colour:
        """``Colour.from_key("red")``; raises ``KeyError`` for anything else."""
        return _BY_KEY[key]

    def localised(self) -> str:
        """The colour's name in the current language, able to agree with a count (see
        :class:`companion.i18n.ColourName`)."""
        return ColourName(self.key)


LETTERS = "WUGRK*"
GEMS: tuple[Colour, ...] = tuple(Colour)[:5]
_BY_KEY = {c.key: c for c in Colour}
_BY_LETTER = {c.letter: c for c in Colour}


class Tokens(NamedTuple):
    """How many tokens of each colour: a hand, a bank, a payment, a take.

    A plain tuple underneath, indexed by :class:`Colour`, so it is cheap and immutable.
    """

    white: int = 0
    blue: int = 0
    green: int = 0
    red: int = 0
    black: int = 0
    gold: int = 0

    @classmethod
    def of(cls, counts: Iterable[int]) -> Tokens:
        return cls._make(counts)

    @classmethod
    def from_map(cls, counts: Mapping[str, int]) -> Tokens:
        """From a record's token map. Colours must be valid keys (``KeyError`` otherwise)."""
        values = [0] * 6
        for key, n in counts.items():
            values[_BY_KEY[key]] += n
        return cls._make(values)

    @classmethod
    def parse(cls, text: str) -> Tokens:
        """From letters, one per token: ``"WUG"``, ``"RR*"``. Raises :class:`TextError`
        (:attr:`~ErrorCode.MALFORMED_MOVE`) naming a letter that is not a token's."""
        values = [0] * 6
        for ch in text.upper():
            colour = _BY_LETTER.get(ch)
            if colour is None:
                raise TextError(
                    ErrorCode.MALFORMED_MOVE,
                    "{letter} is not a token letter: write W U G R K, and * for gold",
                    letter=repr(ch),
                )
            values[colour] += 1
        return cls._make(values)

    def to_map(self) -> dict[str, int]:
        """The record's token map: only colours with a positive count."""
        return {c.key: n for c, n in zip(Colour, self, strict=True) if n}

    @property
    def total(self) -> int:
        return sum(self)

    def localised(self) -> str:
        """``2 red, 1 gold`` in the current language, each colour agreeing with its count."""
        return ", ".join(
            counted_colour(c.key, n).format(n=n) for c, n in zip(Colour, self, strict=True) if n
        )

    def __str__(self) -> str:
        return "".join(c.letter * n for c, n in zip(Colour, self, strict=True))

    def __add__(self, other: object) -> Tokens:
        if not isinstance(other, Tokens):
            return NotImplemented
        return Tokens._make([a + b for a, b in zip(self, other, strict=True)])

    def __sub__(self, other: Tokens) -> Tokens:
        return Tokens._make([a - b for a, b in zip(self, other, strict=True)])


NO_TOKENS = Tokens()
