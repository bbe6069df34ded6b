"""The companion at a real table: which seats it plays, its move, and the turn it fills in.

A game's plan (:class:`Plan`) lives in the record's ``app`` object, beside the writer's
name: ``seats`` (a level or ``"person"`` per seat), ``seed`` (so a decision made at the
table is made again after an undo, a restart, or from the exported record), ``think``
(seconds on a Raspberry Pi 4), ``blind`` (an RFID reader scans a blind reserve face down)
and ``suggest`` (the "Suggest a move" setting for the persons' seats, off by default).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..ai.players import DEFAULT_THINK, make
from ..engine.game import Game
from ..engine.moves import Move
from ..journal.declaring import Turn
from ..journal.seats import KEY, app_seats, companion_levels
from ..version import __version__


@dataclass(frozen=True)
class Plan:
    levels: tuple[str | None, ...]  # per seat: a level, or None for a person
    seed: int = 0
    think: float = DEFAULT_THINK
    blind: bool = False
    suggest: bool = False

    @classmethod
    def new(
        cls,
        levels: Sequence[str | None],
        blind: bool = False,
        suggest: bool = False,
        think: float = DEFAULT_THINK,
        seed: int | None = None,
    ) -> Plan:
        """A new game's plan; a fresh seed unless given."""
        app_seats(levels)  # checks the levels
        if seed is None:
            seed = random.SystemRandom().randrange(1_000_000)
        return cls(tuple(levels), seed, think, blind, suggest)

    def app(self) -> dict[str, Any]:
        """The record's ``app`` object for this plan."""
        return {
            "name": "splendor-companion",
            "version": __version__,
            KEY: app_seats(self.levels),
            "seed": self.seed,
            "think": self.think,
            "blind": self.blind,
            "suggest": self.suggest,
        }

    @classmethod
    def of(cls, extra: Mapping[str, Any], players: int) -> Plan:
        """The plan a record's extras hold; anything malformed falls back to the defaults
        (every seat a person when the seats themselves are wrong)."""
        app = extra.get("app")
        app = app if isinstance(app, Mapping) else {}
        seed, think = app.get("seed"), app.get("think")
        return cls(
            companion_levels(extra, players),
            seed if isinstance(seed, int) and not isinstance(seed, bool) else 0,
            float(think)
            if isinstance(think, int | float) and not isinstance(think, bool) and 0 < think <= 60
            else DEFAULT_THINK,
            app.get("blind") is True,
            app.get("suggest") is True,
        )

    def level(self, seat: int) -> str | None:
        return self.levels[seat] if 0 <= seat < len(self.levels) else None

    @property
    def any(self) -> bool:
        return any(level is not None for level in self.levels)

    def choose(self, game: Game, stop: Callable[[], bool] | None = None) -> Move | None:
        """The companion's move when it plays the seat to act (``None``: a person's turn).

        The same game, plan and history give the same move. ``stop``: see
        :class:`~companion.ai.search.Stopped`."""
        level = self.level(game.to_act)
        if level is None or game.over:
            return None
        player = make(level, seed=self.seed, blind=self.blind, think=self.think, stop=stop)
        return player.choose(game)

    def suggestion(self, game: Game, stop: Callable[[], bool] | None = None) -> Move:
        """The hard level's choice for the person to act ("Suggest a move")."""
        player = make("hard", seed=self.seed, blind=self.blind, think=self.think, stop=stop)
        return player.choose(game)


def fill(turn: Turn, move: Move) -> None:
    """Declare the companion's ``move`` on ``turn``: its action, and the tokens it gives
    back and the noble it chooses. The card turned face up is still declared by the table
    (tapped or scanned), as for anyone's move; then the turn is confirmed with one tap."""
    turn.start(move)
    turn.returned = move.returned
    turn.noble = move.noble
