"""Helpers for the rules tests: hand-built positions and legal / illegal move checks.

The engine's state is a pure function of a setup and the moves played. Most tests reach
their position through real moves; when that would take too long, :func:`position` builds
a :class:`Game` from a setup and then sets its internal state directly, keeping what the
companion has seen (``_seen``) and the deck sizes consistent with the cards on the table
and in the players' hands.

>>> game = position(Hand(tokens="RRK*", cards="1W5 1W6"), Hand(), bank=Tokens(gold=5))
>>> game.seat(0).bonuses, game.seat(0).tokens.total, game.deck_size(1)
((2, 0, 0, 0, 0), 4, 34)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import pytest

from companion import (
    CARDS,
    CARDS_BY_LEVEL,
    LEVELS,
    NOBLES,
    Card,
    ErrorCode,
    Game,
    Hidden,
    IllegalMove,
    Move,
    Setup,
    Tokens,
)
from companion.moves import with_parts

NAMES = ("Ada", "Ben", "Cleo", "Dan")
MARKET = ("1W1 1U1 1G1 1R1", "2W1 2U1 2G1 2R1", "3W1 3U1 3G1 3R1")
"""The default face-up cards: the first white, blue, green and red card of each level."""

EMPTY = "-"
"""In a market row given to :func:`position`, an empty slot (A6)."""


def new_game(
    players: int = 2, nobles: Sequence[str] | None = None, market: Sequence[str] = MARKET
) -> Game:
    """A fresh game of ``players`` (Ada, Ben, ...) with nobles N1.. unless given."""
    if nobles is None:
        nobles = [f"N{i}" for i in range(1, players + 2)]
    return Game(Setup.of(NAMES[:players], nobles, market))


def play(game: Game, *moves: str) -> Game:
    """Push moves in text form, each for the player to act; returns the game."""
    for text in moves:
        game.push(text)
    return game


@dataclass(frozen=True)
class Hand:
    """One seat of a hand-built position.

    ``tokens`` in letters (``"RRK*"``); ``cards`` (purchased), ``reserved`` and ``nobles``
    as space-separated ids, ``L1?`` in ``reserved`` for a blind-reserved card of level 1
    whose identity is unknown (:class:`Hidden`). Bonuses come from ``cards``; ``points``
    defaults to the points of the cards and nobles held.
    """

    tokens: str = ""
    cards: str = ""
    reserved: str = ""
    nobles: str = ""
    points: int | None = None

    def purchased(self) -> list[Card]:
        return [CARDS[c] for c in self.cards.split()]

    def held_in_reserve(self) -> list[Card | Hidden]:
        return [_reserved(word) for word in self.reserved.split()]


def _reserved(word: str) -> Card | Hidden:
    if word.startswith("L") and word.endswith("?"):
        return Hidden(int(word[1:-1]))
    return CARDS[word]


def _rows(market: Sequence[str]) -> list[list[Card | None]]:
    rows = []
    for level, row in zip(LEVELS, market, strict=True):
        cards = [None if word == EMPTY else CARDS[word] for word in row.split()]
        assert len(cards) == 4, f"level {level}: give 4 slots"
        assert all(c is None or c.level == level for c in cards), f"level {level}: wrong level"
        rows.append(cards)
    return rows


def position(
    *seats: Hand,
    bank: Tokens | None = None,
    market: Sequence[str] = MARKET,
    nobles: str | None = None,
    decks: tuple[int, int, int] | None = None,
    to_act: int = 0,
) -> Game:
    """A game of ``len(seats)`` players (2 if none given) set directly to a position.

    ``bank`` defaults to the starting bank; ``market`` rows may hold ``-`` for an empty slot;
    ``nobles`` are the ones on the table (default: N1.. minus those held); ``decks`` default
    to what is left of each level once the cards on the table and in hands are counted.
    The cards seen are the face-up, purchased and known reserved ones.
    """
    hands = list(seats) or [Hand(), Hand()]
    n = len(hands)
    rows = _rows(market)
    held = {noble for hand in hands for noble in hand.nobles.split()}
    if nobles is None:
        table = [f"N{i}" for i in range(1, 11) if f"N{i}" not in held][: n + 1]
    else:
        table = nobles.split()
    # The setup itself only has to be valid: fill gaps with cards and nobles nobody holds.
    located: list[Card | Hidden] = [c for row in rows for c in row if c is not None]
    for hand in hands:
        located += hand.purchased() + hand.held_in_reserve()
    known = [c for c in located if isinstance(c, Card)]
    assert len({c.id for c in known}) == len(known), "a card is in two places"
    setup_market = [_fill(row, level, known) for level, row in zip(LEVELS, rows, strict=True)]
    setup_nobles = (table + [x for x in NOBLES if x not in table])[: n + 1]
    game = Game(Setup.of(NAMES[:n], setup_nobles, setup_market))

    game._bank = list(bank if bank is not None else game.bank)
    for player, hand in zip(game._players, hands, strict=True):
        cards = hand.purchased()
        nobles_held = [NOBLES[x] for x in hand.nobles.split()]
        player.tokens = list(Tokens.parse(hand.tokens))
        player.cards = cards
        player.bonuses = [sum(1 for c in cards if c.bonus == g) for g in range(5)]
        player.reserved = hand.held_in_reserve()
        player.nobles = nobles_held
        player.points = (
            hand.points
            if hand.points is not None
            else sum(c.points for c in cards) + sum(x.points for x in nobles_held)
        )
    game._market = rows
    game._nobles = [NOBLES[x] for x in table]
    game._seen = {c.id for c in known}
    game._seen_log = []
    if decks is None:
        decks = _decks_left(located)
    game._decks = list(decks)
    game._to_act = to_act
    return game


def _fill(row: list[Card | None], level: int, known: list[Card]) -> list[str]:
    """The row's ids, empty slots filled with cards of ``level`` that are nowhere else."""
    spare = iter(c.id for c in CARDS_BY_LEVEL[level] if c not in known)
    return [c.id if c is not None else next(spare) for c in row]


def _decks_left(located: Iterable[Card | Hidden]) -> tuple[int, int, int]:
    counts = [len(CARDS_BY_LEVEL[level]) for level in LEVELS]
    for c in located:
        counts[c.level - 1] -= 1
    return (counts[0], counts[1], counts[2])


# ------------------------------------------------------------------ move checks


def as_move(game: Game, move: Move | str) -> Move:
    return game.parse(move) if isinstance(move, str) else move


def listed(game: Game) -> set[str]:
    """The text of every move ``legal_moves()`` lists (they carry no ``reveal``)."""
    return {str(m) for m in game.legal_moves()}


def as_listed(move: Move) -> Move:
    """How ``legal_moves()`` lists ``move``: without the ``reveal`` the table declares, and
    a buy with the default payment."""
    move = with_parts(move, reveal=None)
    if getattr(move, "payment", None) is not None:
        move = with_parts(move, payment=None)
    return move


def assert_legal(game: Game, move: Move | str, *, push: bool = True) -> Move:
    """``move`` is legal, listed by ``legal_moves()`` (reveal and payment aside) and, unless
    ``push`` is false, pushed."""
    move = as_move(game, move)
    assert game.explain(move) is None, f"{move} should be legal: {game.explain(move)}"
    assert game.is_legal(move)
    assert as_listed(move) in list(game.legal_moves()), f"{move} is legal but not listed"
    if push:
        game.push(move)
    return move


def assert_illegal(
    game: Game, move: Move | str, code: ErrorCode, *, unlisted: bool = True
) -> IllegalMove:
    """``move`` is refused with ``code``, by ``explain`` and by ``push``; the refused push
    changes nothing; and ``legal_moves()`` does not list it (reveal aside: a move refused
    for its reveal alone, or with ``unlisted`` false, may well be listed)."""
    move = as_move(game, move)
    before = game.position()
    played = game.moves
    err = game.explain(move)
    assert err is not None, f"{move} should be illegal ({code})"
    assert err.code == code, f"{move}: expected {code}, got {err.code} ({err})"
    assert not game.is_legal(move)
    with pytest.raises(IllegalMove) as info:
        game.push(move)
    assert info.value.code == code
    assert game.position() == before
    assert game.moves == played
    if unlisted and code not in (ErrorCode.REVEAL_MISSING, ErrorCode.REVEAL_INVALID):
        shown = with_parts(move, reveal=None)
        assert shown not in list(game.legal_moves()), f"{move} is illegal but listed"
    return info.value


def assert_listed_moves_legal(game: Game) -> None:
    """Every move ``legal_moves()`` lists is legal once the table declares its reveal."""
    for move in game.legal_moves():
        level = game.reveal_due(move)
        if level is not None:
            move = with_parts(move, reveal=game.unseen(level)[0].id)
        assert game.explain(move) is None, f"listed {move} is illegal: {game.explain(move)}"
