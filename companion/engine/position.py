"""A position: everything the rules depend on, frozen, with a one-line text form.

A :class:`Position` is what :meth:`companion.engine.game.Game.position` returns and what
:meth:`~companion.engine.game.Game.from_position` builds a game from. It is immutable (tuples all
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
  written: it is someone holding the winning points while the game is not over.

Names are not part of a position (give them to ``from_text``). The cards seen are the
face-up, purchased and known reserved ones: they never leave the table. A position is read
as written, not checked for being reachable (tests build corner cases with it): its ids,
counts and shape are checked, not that its tokens add up to a starting bank. Each count is
bounded by what a game allows, so that the engine never meets one it was not built for:
the bank holds at most its starting supply of each colour; a hand at most the largest
supply of a colour (7 gems, 5 gold) and the token limit in all (T1, 10 in the base game),
the reserve limit (A4, 3); a
card is in one place only, a noble too, and no more nobles than the table revealed (S2);
a deck holds at most the cards of its level found nowhere else; points are at most every
card's and noble's together; passes at most one per seat; rounds at most
:data:`MAX_ROUND`. Anything else is a :class:`~companion.errors.RecordError` naming the
field, never an error from inside the engine.

>>> start = Position.parse(
...     "W4U4G4R4K4*5 -:-:-:-:0/-:-:-:-:0 1W1,1W2,1W3,1W4/2W1,2W2,2W3,2W4/3W1,3W2,3W3,3W4"
...     " 36,26,16 N1,N2,N3 0 0 1 playing")
>>> start.bank.total, start.deck_sizes, start.seats[1].points
(25, (36, 26, 16), 0)
>>> later = Position.parse(
...     "U3G4R4K4*4 W:1W1,1U2:L2?:-:1/-:-:-:-:0 1R1,-,1W3,1W4/2W1,2W2,2W3,2W4/3W1,3W2,3W3,3W4"
...     " 35,25,16 N1,N2,N3 1 0 1 playing")
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

from ..errors import RecordError
from ..i18n import Counted
from ..text import quoted
from .cards import Card, Noble, card_id_problem
from .rules import BASE, Rules
from .tokens import LETTERS, Colour, Tokens

MAX_ROUND = 9999
"""The last round a position may name: a game of Splendor lasts some 30 rounds, and a
simulated one stops after 2,000 moves."""


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

        >>> from companion.engine.cards import CARDS, NOBLES
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


_TOKENS = re.compile(r"([WUGRK*])(\d{0,3})")
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
        seat_texts = seats_text.split("/")
        problem = rules.players_problem(len(seat_texts))
        if problem is not None:
            raise RecordError("position.seats", problem[0], **problem[1])
        seats = tuple(self.seat(f"position.seats[{i}]", part) for i, part in enumerate(seat_texts))
        rows = market_text.split("/")
        if len(rows) != len(rules.levels):
            raise RecordError("position.market", "give the face-up cards of levels 1, 2 and 3")
        market = tuple(self.row(level, row) for level, row in zip(rules.levels, rows, strict=True))
        deck_texts = decks.split(",")
        if len(deck_texts) != len(rules.levels):
            raise RecordError(
                "position.decks", "give the cards left in the decks of levels 1, 2 and 3"
            )
        deck_sizes = tuple(
            self.number("position.decks", n, rules.deck_size(level))
            for level, n in zip(rules.levels, deck_texts, strict=True)
        )
        seat = self.number("position.to-act", to_act, MAX_ROUND)
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
                '{text} is not a game status ("playing", "over" or "stalled")',
                text=quoted(status),
            )
        position = Position.build(
            bank=self.tokens("position.bank", bank_text, rules.starting_bank(len(seats))),
            seats=seats,
            market=market,
            deck_sizes=deck_sizes,
            nobles=tuple(self.noble("position.nobles", x) for x in self.items(nobles)),
            to_act=seat,
            passes=self.number("position.passes", passes, len(seats)),
            round=max(1, self.number("position.round", round_, MAX_ROUND)),
            over=status == Status.OVER,
        )
        self.check_places(position)
        if position.status != status:
            raise RecordError(
                "position.status",
                "{text} does not match {passes} passes in a row by {n} players",
                text=quoted(status),
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
        rules = self.rules
        held = self.tokens(f"{where}.tokens", tokens, self.most_tokens)
        if held.total > rules.token_limit:
            raise RecordError(
                f"{where}.tokens",
                "a player holds at most {limit} tokens between turns, not {n}",
                limit=rules.token_limit,
                n=held.total,
            )
        kept = tuple(self.reserved(f"{where}.reserved", x) for x in self.items(reserved))
        if len(kept) > rules.reserve_limit:
            raise RecordError(
                f"{where}.reserved",
                "a player holds at most {limit} reserved cards, not {n}",
                limit=rules.reserve_limit,
                n=len(kept),
            )
        return seat_state(
            held,
            tuple(self.card(f"{where}.cards", x) for x in self.items(cards)),
            kept,
            tuple(self.noble(f"{where}.nobles", x) for x in self.items(nobles)),
            self.number(f"{where}.points", points, self.most_points),
        )

    @property
    def most_tokens(self) -> Tokens:
        """The most of each colour a hand may hold: the largest supply of any table."""
        rules = self.rules
        gems = max(rules.gems_per_colour.values())
        return Tokens(gems, gems, gems, gems, gems, rules.gold)

    @property
    def most_points(self) -> int:
        """Every card's points and every noble's together: no player can have more."""
        rules = self.rules
        return sum(c.points for c in rules.cards.values()) + sum(
            n.points for n in rules.nobles.values()
        )

    def check_places(self, position: Position) -> None:
        """A card in one place, a noble too; no more nobles than revealed (S2); no deck
        holding more cards than its level has left (the engine deals from what is left)."""
        cards: set[str] = set()
        nobles: set[str] = set()
        hidden = [0] * len(self.rules.levels)
        things: list[tuple[str, Card | Hidden | Noble]] = [
            (f"position.market.{level}", c)
            for level, row in zip(self.rules.levels, position.market, strict=True)
            for c in row
            if c is not None
        ]
        things += [("position.nobles", n) for n in position.nobles]
        for i, seat in enumerate(position.seats):
            place = f"position.seats[{i}]"
            things += [(f"{place}.cards", c) for c in seat.cards]
            things += [(f"{place}.reserved", c) for c in seat.reserved]
            things += [(f"{place}.nobles", n) for n in seat.nobles]
        for where, thing in things:
            if isinstance(thing, Hidden):
                hidden[thing.level - 1] += 1
                continue
            seen = nobles if isinstance(thing, Noble) else cards
            if thing.id in seen:
                raise RecordError(where, "{id} is in two places", id=thing.id)
            seen.add(thing.id)
        n = len(position.seats)
        if len(nobles) > self.rules.nobles_revealed(n):
            raise RecordError(
                "position.nobles",
                "{players} players reveal {want} nobles, not {n}",
                players=n,
                want=self.rules.nobles_revealed(n),
                n=len(nobles),
            )
        for i, level in enumerate(self.rules.levels):
            level_cards = self.rules.cards_by_level[level]
            left = len(level_cards) - hidden[i] - sum(1 for c in level_cards if c.id in cards)
            if position.deck_sizes[i] > left:
                raise RecordError(
                    "position.decks",
                    "the deck of level {level} cannot hold {n} cards: {left} are left once "
                    "the cards on the table and in hands are counted",
                    level=level,
                    n=position.deck_sizes[i],
                    left=max(left, 0),
                )

    def row(self, level: int, text: str) -> tuple[Card | None, ...]:
        where = f"position.market.{level}"
        slots = text.split(",")
        if len(slots) != self.rules.market_slots:
            raise RecordError(
                where,
                "level {level} shows {cards}, not {n}",
                level=level,
                cards=Counted("{n} card", "{n} cards", self.rules.market_slots),
                n=len(slots),
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
    def tokens(where: str, text: str, most: Tokens) -> Tokens:
        """Tokens in letters and counts, each colour at most ``most`` of it."""
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
                    "{text} is not a token count: colour letters W U G R K and * for gold, "
                    "each followed by its count when above 1 (W4U4*5)",
                    text=quoted(text),
                )
        for colour, (n, limit) in enumerate(zip(counts, most, strict=True)):
            if n > limit:
                raise RecordError(
                    where,
                    "{n} {colour:many} tokens: the game has {most} of them",
                    n=n,
                    colour=Colour(colour),
                    most=limit,
                )
        return Tokens._make(counts)

    @staticmethod
    def number(where: str, text: str, most: int) -> int:
        """A whole number from 0 to ``most`` (its digits counted before it is read: Python
        refuses to read one of more than 4,300)."""
        if not text.isascii() or not text.isdigit() or len(text) > len(str(most)) + 2:
            raise RecordError(
                where, "{text} is not a whole number from 0 to {most}", text=quoted(text), most=most
            )
        value = int(text)
        if value > most:
            raise RecordError(
                where, "{text} is not a whole number from 0 to {most}", text=quoted(text), most=most
            )
        return value

    def card(self, where: str, card_id: str) -> Card:
        card = self.rules.cards.get(card_id)
        if card is None:
            template, params = card_id_problem(self.rules.cards, card_id)
            raise RecordError(where, template, **params)
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
            raise RecordError(where, "{id} is not a noble (N1 to N10)", id=quoted(noble_id))
        return noble
