"""A game move by move, as people tell it: who did what, what it changed, the score.

Built by replaying a record, so it is exactly what the engine saw. Exports, statistics
and the app's points chart all read it.

>>> from companion.engine.simulate import simulate
>>> from companion.records.record import Record
>>> steps = timeline(Record.of(simulate(players=2, seed=3)))
>>> steps[0].number, steps[0].round, steps[0].seat
(1, 1, 0)
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine.cards import Card, Noble
from ..engine.game import Game
from ..engine.moves import Buy, Move, Reserve, action_name
from ..engine.tokens import Tokens
from .record import Record, replay


@dataclass(frozen=True, slots=True)
class Step:
    number: int  # 1-based move number
    round: int  # 1-based
    seat: int
    player: str
    move: Move
    gained: Tokens  # tokens the player received (taken, gold for a reserve)
    spent: Tokens  # tokens the player gave back (payment and returns)
    card: Card | None  # the card bought or reserved, when known
    revealed: str | None
    noble: Noble | None  # the noble that visited at the end of this turn
    points_after: int

    @property
    def action(self) -> str:
        return action_name(self.move)


def timeline(record: Record) -> list[Step]:
    """Every legal move of the record, told. Stops at the first illegal move, if any."""
    steps: list[Step] = []
    game = Game(record.setup)
    before: list[Tokens] = []
    nobles_before: list[int] = []

    def remember(g: Game) -> None:
        seat = g.to_act
        before.append(g.seat(seat).tokens)
        nobles_before.append(len(g.seat(seat).nobles))

    remember(game)

    def told(g: Game, move: Move) -> None:
        steps.append(_told(g, move, before[-1], nobles_before[-1]))
        remember(g)

    replay(record, on_move=told)
    return steps


def _told(game: Game, move: Move, tokens_before: Tokens, nobles_before: int) -> Step:
    """``move``, the last of ``game``, told: ``tokens_before`` and ``nobles_before`` are
    its player's before it."""
    number = len(game.moves)
    seat = move.player
    now = game.seat(seat)
    net = [a - b for a, b in zip(now.tokens, tokens_before, strict=True)]
    returned = move.returned or Tokens()
    # A return may give back a token just taken: the net change hides both sides.
    kept = [d + r for d, r in zip(net, returned, strict=True)]
    gained = Tokens._make(max(0, k) for k in kept)
    spent = Tokens._make(r + max(0, -k) for r, k in zip(returned, kept, strict=True))
    card = None
    if isinstance(move, Buy):
        card = now.cards[-1]
    elif isinstance(move, Reserve):
        last = now.reserved[-1]
        card = last if isinstance(last, Card) else None
    return Step(
        number=number,
        round=(number - 1) // len(game.names) + 1,
        seat=seat,
        player=game.names[seat],
        move=move,
        gained=gained,
        spent=spent,
        card=card,
        revealed=move.reveal,
        noble=now.nobles[-1] if len(now.nobles) > nobles_before else None,
        points_after=now.points,
    )


def last_step(game: Game) -> Step:
    """The last move of ``game`` told, as :func:`timeline` tells it, without replaying
    the game (the table's status line says each move as it is played or undone).
    ``IndexError`` when no move was played."""
    before = game.copy()
    move = before.undo()
    seat = before.seat(move.player)
    return _told(game, move, seat.tokens, len(seat.nobles))


def points_by_round(record: Record) -> list[list[int]]:
    """Each player's points at the end of each round (index 0: after round 1)."""
    n = len(record.players)
    rounds: list[list[int]] = []
    current = [0] * n
    steps = timeline(record)
    for step in steps:
        current[step.seat] = step.points_after
        if step.seat == n - 1:
            rounds.append(list(current))
    if steps and steps[-1].seat != n - 1:
        rounds.append(list(current))  # the round under way
    return rounds
