"""What a seat can know: the game as its player sees it, and the moves it may choose.

A player never sees the decks' order (the engine does not hold it either: every reveal is
declared) nor another player's blind reserve. The engine may know such a card (an RFID
reader scanned it, or a simulation dealt it); :func:`public_view` forgets it again, so a
companion's decision is the same whatever the card is.
"""

from __future__ import annotations

import random

from ..engine.cards import Card
from ..engine.game import Game
from ..engine.moves import Buy, Move, Reserve, Take, with_parts


def secret_reserves(game: Game, seat: int) -> list[int]:
    """Indexes of the moves where another seat reserved blind a card the engine knows and
    that seat still holds: cards ``seat`` has not seen."""
    held = {
        s.seat: {c.id for c in s.reserved if isinstance(c, Card)}
        for s in game.seats
        if s.seat != seat
    }
    return [
        i
        for i, m in enumerate(game.moves)
        if isinstance(m, Reserve)
        and m.deck is not None
        and m.card is not None
        and m.player != seat
        and m.card in held[m.player]
    ]


def public_view(game: Game, seat: int) -> Game:
    """``game`` as ``seat`` knows it: the same game, or a copy where the blind reserves of
    others that the engine knows are face down again (their cards back among the unseen)."""
    secret = set(secret_reserves(game, seat))
    if not secret:
        return game
    view = Game(game.setup, game.rules, start=game.start)  # a game set up from a position too
    for i, move in enumerate(game.moves):
        view.push(with_parts(move, card=None) if i in secret else move)
    return view


def choices(game: Game, blind: bool) -> list[Move]:
    """The legal moves a companion may pick: blind reserves only when the card can reach it
    unseen by anyone else (``blind``: an RFID reader scans it face down)."""
    moves = list(game.legal_moves())
    if not blind:
        kept = [m for m in moves if not (isinstance(m, Reserve) and m.deck is not None)]
        if kept:
            return kept
    return moves


def stuck(game: Game) -> bool:
    """Three rounds with nothing bought or reserved, every take handing tokens back: the
    hands are full and the bank short, and careful players could shuffle tokens forever."""
    n = 3 * len(game.seats)
    recent = game.moves[-n:]
    return len(recent) == n and all(
        m.returned is not None and not isinstance(m, Buy | Reserve) for m in recent
    )


def unstick(game: Game, moves: list[Move], rng: random.Random) -> Move:
    """A move that changes the hands when the table is stuck: a buy or reserve if any, else
    a take at random among those that do not give back what they take."""
    progress = [m for m in moves if isinstance(m, Buy | Reserve)]
    if progress:
        return rng.choice(progress)
    moving = [
        m
        for m in moves
        if not isinstance(m, Take)
        or m.returned is None
        or all(min(m.gems[c], m.returned[c]) == 0 for c in range(5))
    ]
    return rng.choice(moving or moves)


def dealt(game: Game, move: Move, rng: random.Random) -> Move:
    """``move`` with what the table would declare, drawn from the cards this game has not
    seen: the reveal that refills the market, the card of one's own blind reserve."""
    if isinstance(move, Reserve) and move.deck is not None and move.card is None:
        move = with_parts(move, card=rng.choice(game.unseen(move.deck)).id)
    level = game.reveal_due(move)
    if level is not None:
        move = with_parts(move, reveal=rng.choice(game.unseen(level)).id)
    return move
