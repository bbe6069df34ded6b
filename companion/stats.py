"""Statistics per player name across the finished games of the journal.

>>> import tempfile, pathlib
>>> from companion.store import Store
>>> player_stats(Store(pathlib.Path(tempfile.mkdtemp()) / "g.sqlite3"))
[]
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from .record import replay
from .store import Store
from .tokens import Colour


@dataclass(frozen=True, slots=True)
class PlayerStats:
    name: str
    games: int
    wins: int
    average_points: float
    average_rounds: float
    favourite_bonus: Colour | None  # the colour of the most cards bought, over all games


def player_stats(store: Store) -> list[PlayerStats]:
    """One line per player name, most wins first (then most games, then name)."""
    games: Counter[str] = Counter()
    wins: Counter[str] = Counter()
    points: Counter[str] = Counter()
    rounds: Counter[str] = Counter()
    bonuses: dict[str, Counter[Colour]] = {}
    for info in store.games():
        if not info.finished:
            continue
        game = replay(store.record(info.id)).game
        winners = set(game.winners())
        for seat in game.seats:
            name = seat.name
            games[name] += 1
            wins[name] += name in winners
            points[name] += seat.points
            rounds[name] += game.round
            bonuses.setdefault(name, Counter()).update(c.bonus for c in seat.cards)
    lines = []
    for name, n in games.items():
        favourite = bonuses[name].most_common(1)
        lines.append(
            PlayerStats(
                name=name,
                games=n,
                wins=wins[name],
                average_points=points[name] / n,
                average_rounds=rounds[name] / n,
                favourite_bonus=favourite[0][0] if favourite else None,
            )
        )
    lines.sort(key=lambda s: (-s.wins, -s.games, s.name))
    return lines
