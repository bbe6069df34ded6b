"""A position: everything the rules depend on, frozen, with a one-line text form.

A :class:`Position` is what :meth:`companion.game.Game.position` returns and what
:meth:`~companion.game.Game.from_position` builds a game from. It is immutable (tuples all
the way down), hashable, and cheap: the engine keeps one per move played, so undo is
taking the previous one back.

The text form, like chess's FEN, is nine fields separated by single spaces::

    bank seats market decks nobles to-act passes round status

- ``bank``: tokens as colour letters (``W U G R K``, ``*`` for gold), each followed by
  its count when above 1 (``W4U4G4R4K4*5``); ``-`` for none.
- ``seats``: one per player in play order, separated by ``/``; each is five parts
  separated by ``:``: tokens (as the bank), purchased cards, reserved cards (``L1?`` for a
  blind-reserved card nobody has seen), nobles held, points. Lists are comma-separated
  ids, ``-`` when empty. Bonuses are the purchased cards' (never written).
- ``market``: the face-up cards, level 1 first, levels separated by ``/``, slots by
  ``,``; ``-`` for an empty slot (A6).
- ``decks``: the cards left in each level's deck, comma-separated (H3).
- ``nobles``: the nobles still on the table, comma-separated, ``-`` when none.
- ``to-act``: the seat to play, 0 for the first player.
- ``passes``: how many passes were played in a row just before (A7: a whole round of
  them stalls the game), as chess counts moves for its fifty-move rule.
- ``round``: the round being played, from 1.
- ``status``: ``playing``, ``over`` (E1) or ``stalled`` (A7). The final round (E1) is not
  written: it is someone holding 15 points while the game is not over.

Names are not part of a position (give them to ``from_text``). The cards seen are the
face-up, purchased and known reserved ones: they never leave the table. A position is read
as written, not checked for being reachable (tests build corner cases with it): its ids,
counts and shape are checked, not that its tokens add up to a starting bank.

>>> start = Position.parse(
...     "W4U4G4R4K4*5 -:-:-:-:0/-:-:-:-:0 1W1,1W2,1W3,1W4/2W1,2W2,2W3,2W4/3W1,3W2,3W3,3W4"
...     " 36,26,16 N1,N2,N3 0 0 1 playing")
>>> start.bank.total, start.deck_sizes, start.seats[1].points
(25, (36, 26, 16), 0)
>>> later = Position.parse(
...     "U3G4R4K4*4 W:1W1,1U2:L2?:-:1/-:-:-:-:0 1R1,-,1W3,1W4/2W1,2W2,2W3,2W4/3W1,3W2,3W3,3W4"
...     " 36,25,16 N1,N2,N3 1 0 1 playing")
>>> later.seats[0].bonuses, later.seats[0].reserved
((1, 1, 0, 0, 0), (Hidden(level=2),))
>>> Position.parse(later.text()) == later
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from typing import NamedTuple

from .cards import Card, Noble
from .errors import RecordError
from .rules import BASE, Rules
from .tokens import LETTERS, Tokens


class Status(StrEnum):
    """Where a game stands: being played, over (E1), or stalled by a round of passes (A7)."""

    PLAYING = "playing"
    OVER = "over"
    STALLED = "stalled"


@dataclass(frozen=True, slots=True)
class Hidden:
    """A blind-reserved card whose identity the companion has not seen yet (H2)."""

    level: int

    @property
    def id(self) -> str:
        return f"L{self.level}?"

    def __str__(self) -> str:
        return self.id


class SeatState(NamedTuple):
    """One player's tableau in a :class:`Position` (no name: positions have none)."""

    tokens: Tokens
    bonuses: tuple[int, int, int, int, int]
    points: int
    cards: tuple[Card, ...]
    reserved: tuple[Card | Hidden, ...]
    nobles: tuple[Noble, ...]


EMPTY_SEAT = SeatState(Tokens(), (0, 0, 0, 0, 0), 0, (), (), ())


class Position(NamedTuple):
    """Everything the rules depend on, hashable: two equal positions play the same."""

    bank: Tokens
    seats: tuple[SeatState, ...]
    market: tuple[tuple[Card | None, ...], ...]
    deck_sizes: tuple[int, ...]
    nobles: tuple[Noble, ...]
    to_act: int
    passes: int
    round: int
    over: bool
    seen_bits: int
    """The cards seen, as the bits ``1 << card.index`` (see :attr:`seen`): kept for speed."""

    @property
    def seen(self) -> frozenset[str]:
        """The ids of the cards seen: face up, purchased, or known in a reserve (H1)."""
        ids = {c.id for row in self.market for c in row if c is not None}
        for seat in self.seats:
            ids.update(c.id for c in seat.cards)
            ids.update(c.id for c in seat.reserved if isinstance(c, Card))
        return frozenset(ids)

    @property
    def stalled(self) -> bool:
        return not self.over and self.passes >= len(self.seats)

    @property
    def status(self) -> Status:
        if self.over:
            return Status.OVER
        return Status.STALLED if self.stalled else Status.PLAYING

    def text(self) -> str:
        """The one-line text form (see the module's documentation)."""
        seats = "/".join(
            ":".join(
                (
                    _tokens_text(s.tokens),
                    _ids(s.cards),
                    _ids(s.reserved),
                    _ids(s.nobles),
                    str(s.points),
                )
            )
            for s in self.seats
        )
        market = "/".join(",".join(c.id if c else "-" for c in row) for row in self.market)
        fields = (
            _tokens_text(self.bank),
            seats,
            market,
            ",".join(map(str, self.deck_sizes)),
            _ids(self.nobles),
            str(self.to_act),
            str(self.passes),
            str(self.round),
            self.status.value,
        )
        return " ".join(fields)

    @classmethod
    def build(
        cls,
        bank: Tokens,
        seats: tuple[SeatState, ...],
        market: tuple[tuple[Card | None, ...], ...],
        deck_sizes: tuple[int, ...],
        nobles: tuple[Noble, ...],
        to_act: int = 0,
        passes: int = 0,
        round: int = 1,
        over: bool = False,
    ) -> Position:
        """A position from its parts, the cards seen worked out (seats: :func:`seat_state`).

        >>> from companion.cards import CARDS, NOBLES
        >>> ada = seat_state(Tokens(red=2), (CARDS["1W5"],), (), ())
        >>> market = tuple(tuple(CARDS[f"{lv}W{i}"] for i in range(1, 5)) for lv in (1, 2, 3))
        >>> start = Position.build(Tokens(4, 4, 4, 2, 4, 5), (ada, EMPTY_SEAT), market,
        ...                        (35, 26, 16), (NOBLES["N1"], NOBLES["N2"], NOBLES["N3"]))
        >>> start.text().split()[1]
        'R2:1W5:-:-:0/-:-:-:-:0'
        """
        seen = seen_bits(market, seats)
        return cls(bank, seats, market, deck_sizes, nobles, to_act, passes, round, over, seen)

    @classmethod
    def parse(cls, text: str, rules: Rules = BASE) -> Position:
        """Read the text form; :class:`RecordError` names the field that is wrong."""
        return _Reader(rules).position(text)


def seat_state(
    tokens: Tokens,
    cards: tuple[Card, ...],
    reserved: tuple[Card | Hidden, ...],
    nobles: tuple[Noble, ...],
    points: int | None = None,
) -> SeatState:
    """A seat whose bonuses are its cards'; ``points`` default to its cards' and nobles'."""
    b = [0] * 5
    for card in cards:
        b[card.bonus] += 1
    if points is None:
        points = sum(c.points for c in cards) + sum(n.points for n in nobles)
    return SeatState(tokens, (b[0], b[1], b[2], b[3], b[4]), points, cards, reserved, nobles)


def seen_bits(market: tuple[tuple[Card | None, ...], ...], seats: tuple[SeatState, ...]) -> int:
    """The cards seen: face up, purchased, or known in a reserve."""
    bits = 0
    for row in market:
        for card in row:
            if card is not None:
                bits |= 1 << card.index
    for seat in seats:
        for card in seat.cards:
            bits |= 1 << card.index
        for held in seat.reserved:
            if isinstance(held, Card):
                bits |= 1 << held.index
    return bits


def _ids(items: tuple[Card | Hidden | Noble, ...]) -> str:
    return ",".join(x.id for x in items) if items else "-"


def _tokens_text(tokens: Tokens) -> str:
    parts = [LETTERS[c] + (str(n) if n > 1 else "") for c, n in enumerate(tokens) if n]
    return "".join(parts) or "-"


_TOKENS = re.compile(r"([WUGRK*])(\d*)")
_FIELDS = ("bank", "seats", "market", "decks", "nobles", "to-act", "passes", "round", "status")


class _Reader:
    """Reads the text form against ``rules``, naming the field of the first error."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules

    def position(self, text: str) -> Position:
        fields = text.split()
        if len(fields) != len(_FIELDS):
            raise RecordError(
                "position",
                "a position has {want} fields separated by spaces ({fields}), not {n}",
                want=len(_FIELDS),
                fields=" ".join(_FIELDS),
                n=len(fields),
            )
        bank_text, seats_text, market_text, decks, nobles, to_act, passes, round_, status = fields
        rules = self.rules
        seats = tuple(
            self.seat(f"position.seats[{i}]", part) for i, part in enumerate(seats_text.split("/"))
        )
        if len(seats) not in rules.players:
            raise RecordError("position.seats", "a game has 2 to 4 players, not {n}", n=len(seats))
        rows = market_text.split("/")
        if len(rows) != len(rules.levels):
            raise RecordError("position.market", "give the face-up cards of levels 1, 2 and 3")
        market = tuple(self.row(level, row) for level, row in zip(rules.levels, rows, strict=True))
        deck_sizes = tuple(self.number("position.decks", n) for n in decks.split(","))
        if len(deck_sizes) != len(rules.levels):
            raise RecordError(
                "position.decks", "give the cards left in the decks of levels 1, 2 and 3"
            )
        seat = self.number("position.to-act", to_act)
        if seat >= len(seats):
            raise RecordError(
                "position.to-act",
                "there is no seat {seat} in a game of {n} players",
                seat=seat,
                n=len(seats),
            )
        if status not in set(Status):
            raise RecordError(
                "position.status",
                "{text!r} is not a game status (playing, over or stalled)",
                text=status,
            )
        position = Position.build(
            bank=self.tokens("position.bank", bank_text),
            seats=seats,
            market=market,
            deck_sizes=deck_sizes,
            nobles=tuple(self.noble("position.nobles", x) for x in self.items(nobles)),
            to_act=seat,
            passes=self.number("position.passes", passes),
            round=max(1, self.number("position.round", round_)),
            over=status == Status.OVER,
        )
        if position.status != status:
            raise RecordError(
                "position.status",
                "{text!r} does not match {passes} passes in a row by {n} players",
                text=status,
                passes=position.passes,
                n=len(seats),
            )
        return position

    def seat(self, where: str, text: str) -> SeatState:
        parts = text.split(":")
        if len(parts) != 5:
            raise RecordError(
                where,
                "a seat has 5 parts separated by colons (tokens, cards, reserved, nobles, "
                "points), not {n}",
                n=len(parts),
            )
        tokens, cards, reserved, nobles, points = parts
        return seat_state(
            self.tokens(f"{where}.tokens", tokens),
            tuple(self.card(f"{where}.cards", x) for x in self.items(cards)),
            tuple(self.reserved(f"{where}.reserved", x) for x in self.items(reserved)),
            tuple(self.noble(f"{where}.nobles", x) for x in self.items(nobles)),
            self.number(f"{where}.points", points),
        )

    def row(self, level: int, text: str) -> tuple[Card | None, ...]:
        where = f"position.market.{level}"
        slots = text.split(",")
        if len(slots) != self.rules.market_slots:
            raise RecordError(
                where, "level {level} shows 4 cards, not {n}", level=level, n=len(slots)
            )
        row = tuple(None if x == "-" else self.card(where, x) for x in slots)
        for card in row:
            if card is not None and card.level != level:
                raise RecordError(
                    where, "{id} is not a level {level} card", id=card.id, level=level
                )
        return row

    @staticmethod
    def items(text: str) -> list[str]:
        return [] if text in ("", "-") else text.split(",")

    @staticmethod
    def tokens(where: str, text: str) -> Tokens:
        counts = [0] * 6
        if text not in ("", "-"):
            end = 0
            for match in _TOKENS.finditer(text):
                if match.start() != end:
                    break
                counts[LETTERS.index(match[1])] += int(match[2] or 1)
                end = match.end()
            if end != len(text):
                raise RecordError(
                    where,
                    "{text!r} is not a token count: colour letters W U G R K and * for gold, "
                    "each followed by its count when above 1 (W4U4*5)",
                    text=text,
                )
        return Tokens._make(counts)

    @staticmethod
    def number(where: str, text: str) -> int:
        if not text.isascii() or not text.isdigit():
            raise RecordError(where, "{text!r} is not a whole number", text=text)
        return int(text)

    def card(self, where: str, card_id: str) -> Card:
        card = self.rules.cards.get(card_id)
        if card is None:
            raise RecordError(where, "{id!r} is not a card id", id=card_id)
        return card

    def reserved(self, where: str, text: str) -> Card | Hidden:
        if len(text) == 3 and text[0] == "L" and text[2] == "?" and text[1].isdigit():
            level = int(text[1])
            if level in self.rules.levels:
                return Hidden(level)
        return self.card(where, text)

    def noble(self, where: str, noble_id: str) -> Noble:
        noble = self.rules.nobles.get(noble_id)
        if noble is None:
            raise RecordError(where, "{id!r} is not a noble (N1 to N10)", id=noble_id)
        return noble
