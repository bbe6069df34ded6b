"""Moves: small immutable values with a text form.

Every move names the seat that plays it and may carry the end-of-turn parts the table
declares with it: the ``reveal`` that refills the market (A6), the tokens ``returned``
to end at 10 (T1) and the ``noble`` that visits (N1).

>>> move = parse_move("buy 2R3 pay RR* reveal 2G1", player=1)
>>> move.card, move.payment, move.reveal
('2R3', Tokens(white=0, blue=0, green=0, red=2, black=0, gold=1), '2G1')
>>> str(move)
'buy 2R3 pay RR* reveal 2G1'
>>> str(parse_move("take WUG return K noble N3", player=0))
'take WUG return K noble N3'
>>> str(parse_move("reserve L2", player=0))
'reserve L2'
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TypeAlias

from ..errors import ErrorCode, TextError
from .tokens import Tokens


@dataclass(frozen=True, slots=True, kw_only=True)
class _Turn:
    player: int
    reveal: str | None = None
    returned: Tokens | None = None
    noble: str | None = None

    def _suffix(self) -> str:
        parts = []
        if self.reveal is not None:
            parts.append(f" reveal {self.reveal}")
        if self.returned is not None:
            parts.append(f" return {self.returned}")
        if self.noble is not None:
            parts.append(f" noble {self.noble}")
        return "".join(parts)


@dataclass(frozen=True, slots=True)
class Take(_Turn):
    """Take gem tokens (A1-A3)."""

    gems: Tokens

    def __str__(self) -> str:
        return f"take {self.gems}{self._suffix()}"


@dataclass(frozen=True, slots=True)
class Reserve(_Turn):
    """Reserve a face-up ``card``, or blind from the ``deck`` of a level (A4).

    A blind reserve may name its ``card`` too when the writer knows it (a simulated game).
    """

    card: str | None = None
    deck: int | None = None

    @property
    def blind(self) -> bool:
        return self.deck is not None

    def __str__(self) -> str:
        if self.deck is None:
            return f"reserve {self.card}{self._suffix()}"
        known = f":{self.card}" if self.card else ""
        return f"reserve L{self.deck}{known}{self._suffix()}"


@dataclass(frozen=True, slots=True)
class Buy(_Turn):
    """Buy a face-up or reserved card (A5); without ``payment``, the default payment."""

    card: str
    payment: Tokens | None = None

    def __str__(self) -> str:
        pay = f" pay {self.payment}" if self.payment is not None else ""
        return f"buy {self.card}{pay}{self._suffix()}"


@dataclass(frozen=True, slots=True)
class Pass(_Turn):
    """No legal action (A7)."""

    def __str__(self) -> str:
        return f"pass{self._suffix()}"


Move: TypeAlias = Take | Reserve | Buy | Pass
_FIELDS = {
    cls: tuple(f.name for f in dataclasses.fields(cls)) for cls in (Take, Reserve, Buy, Pass)
}


def with_parts(move: Move, **changes: object) -> Move:
    """A copy with ``reveal``, ``returned``, ``noble`` or another field changed.

    >>> str(with_parts(parse_move("buy 2R3", player=0), reveal="2G1"))
    'buy 2R3 reveal 2G1'
    """
    # Several times faster than dataclasses.replace, and this runs for every dealt move.
    cls = move.__class__
    new = object.__new__(cls)
    for name in _FIELDS[cls]:
        value = changes.pop(name) if name in changes else getattr(move, name)
        object.__setattr__(new, name, value)
    if changes:
        raise TypeError(f"a {cls.__name__.lower()} has no field {next(iter(changes))!r}")
    return new


_new = object.__new__
_set = object.__setattr__
_OWN = {cls: tuple(n for n in names if n not in _Turn.__slots__) for cls, names in _FIELDS.items()}


def with_reveal(move: Move, reveal: str | None) -> Move:
    """``move`` with its ``reveal`` set: :func:`with_parts` for the one field the table
    declares after most turns, written out (a simulated game deals one at every buy).

    >>> str(with_reveal(parse_move("reserve 1W1 return W", player=0), "1K2"))
    'reserve 1W1 reveal 1K2 return W'
    """
    cls = move.__class__
    new = _new(cls)
    _set(new, "player", move.player)
    _set(new, "reveal", reveal)
    _set(new, "returned", move.returned)
    _set(new, "noble", move.noble)
    for name in _OWN[cls]:
        _set(new, name, getattr(move, name))
    return new


def with_ending(move: Move, returned: Tokens | None, noble: str | None) -> Move:
    """``move`` with the tokens ``returned`` (T1) and the ``noble`` (N1) set: written out as
    :func:`with_reveal` is, for the completions of a turn."""
    cls = move.__class__
    new = _new(cls)
    _set(new, "player", move.player)
    _set(new, "reveal", move.reveal)
    _set(new, "returned", returned)
    _set(new, "noble", noble)
    for name in _OWN[cls]:
        _set(new, name, getattr(move, name))
    return new


def action_name(move: Move) -> str:
    """The record's ``action``: ``take``, ``reserve``, ``buy`` or ``pass``."""
    return type(move).__name__.lower()


def parse_move(text: str, player: int) -> Move:
    """Read the text form. Raises :class:`TextError` (:attr:`~ErrorCode.MALFORMED_MOVE`)
    naming the word that is wrong."""
    words = text.split()
    if not words:
        raise TextError(
            ErrorCode.MALFORMED_MOVE, 'empty move: write "take", "reserve", "buy" or "pass"'
        )
    action, rest = words[0].lower(), words[1:]
    extras: dict[str, object] = {}
    tail = rest
    for i, word in enumerate(rest):
        if word in ("reveal", "return", "noble", "pay"):
            tail = rest[:i]
            pairs = rest[i:]
            if len(pairs) % 2:
                raise TextError(
                    ErrorCode.MALFORMED_MOVE, "{word} needs a value after it", word=repr(pairs[-1])
                )
            for key, value in zip(pairs[::2], pairs[1::2], strict=True):
                if key == "reveal":
                    extras["reveal"] = value
                elif key == "return":
                    extras["returned"] = Tokens.parse(value)
                elif key == "noble":
                    extras["noble"] = value
                elif key == "pay":
                    extras["payment"] = Tokens.parse(value)
                else:
                    raise TextError(
                        ErrorCode.MALFORMED_MOVE, "{word} is not a part of a move", word=repr(key)
                    )
            break
    if "payment" in extras and action != "buy":
        raise TextError(ErrorCode.MALFORMED_MOVE, "only a buy has a payment")
    payment = extras.pop("payment", None)
    reveal = extras.get("reveal")
    returned = extras.get("returned")
    noble = extras.get("noble")
    assert reveal is None or isinstance(reveal, str)
    assert returned is None or isinstance(returned, Tokens)
    assert noble is None or isinstance(noble, str)
    common = {"player": player, "reveal": reveal, "returned": returned, "noble": noble}
    if action == "take" and len(tail) == 1:
        return Take(Tokens.parse(tail[0]), **common)  # type: ignore[arg-type]
    if action == "reserve" and len(tail) == 1:
        word = tail[0]
        if word[:1].upper() == "L" and word[1:2].isdigit():
            level, _, card = word[1:].partition(":")
            if not (level.isascii() and level.isdigit() and len(level) < 4):
                raise _unreadable(text)
            return Reserve(card=card or None, deck=int(level), **common)  # type: ignore[arg-type]
        return Reserve(card=word, **common)  # type: ignore[arg-type]
    if action == "buy" and len(tail) == 1:
        assert payment is None or isinstance(payment, Tokens)
        return Buy(tail[0], payment, **common)  # type: ignore[arg-type]
    if action == "pass" and not tail:
        return Pass(**common)  # type: ignore[arg-type]
    raise _unreadable(text)


def _unreadable(text: str) -> TextError:
    return TextError(
        ErrorCode.MALFORMED_MOVE,
        'cannot read {text}: write "take WUG", "take RR", "reserve 2R3", "reserve L2", '
        '"buy 2R3", "buy 2R3 pay RR*" or "pass"',
        text=repr(text),
    )
