"""Statistics per player across the finished games of the journal.

A player is a name: the same spelling is the same player, and two spellings of one person
count as one once merged (:meth:`companion.journal.store.Store.merge_name`). Every figure is
computed from :class:`PlayedGame` lines, each a finished game replayed once by the engine; a filter
on those lines (``include``) narrows every statistic at once, for instance to games
without the companion in a seat.

>>> import tempfile, pathlib
>>> from companion.journal.store import Store
>>> player_stats(Store(pathlib.Path(tempfile.mkdtemp()) / "g.sqlite3"))
[]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

from ..engine.tokens import GEMS, Colour
from ..i18n import ngettext, number, percent
from ..i18n import translate as _
from ..journal.seats import LEVELS, companion_levels, companion_title
from ..journal.store import GameInfo, Store, StoreError, resolve
from ..records.playtime import played_minutes
from ..records.record import replay
from ..text import normal_name


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """A finished game as the statistics see it: who sat where, and how it ended."""

    id: int
    started_at: str
    names: tuple[str, ...]  # as typed at the table, in play order
    players: tuple[str, ...]  # the person each name counts as
    points: tuple[int, ...]
    ranks: tuple[int, ...]  # 1: a winner (E2); shared ranks for a shared victory
    bonuses: tuple[tuple[int, ...], ...]  # cards bought per colour, per seat
    rounds: int
    minutes: int | None
    winners: frozenset[str]  # persons
    levels: tuple[str | None, ...] = ()  # per seat, the companion's level; None: a person
    undated: bool = False  # imported from a record with no start: started_at is the import's

    @property
    def against_companion(self) -> bool:
        """The companion played a seat: such games are counted apart, so a
        person's figures against people stay their own."""
        return any(level is not None for level in self.levels)

    def is_companion(self, seat: int) -> bool:
        return bool(self.levels) and self.levels[seat] is not None

    def seat_of(self, person: str) -> int | None:
        """The seat of a person; never the companion's, whatever name it was given."""
        for seat, name in enumerate(self.players):
            if name == person and not self.is_companion(seat):
                return seat
        return None

    @property
    def people_played(self) -> bool:
        """A person sat at the table: a game of companions only (``simulate --seats
        hard,easy``, imported) is nobody's win or loss."""
        return any(not self.is_companion(s) for s in range(len(self.names)))

    @property
    def people_won(self) -> bool:
        """A person won (alone, or sharing the victory with the companion)."""
        return any(r == 1 and not self.is_companion(s) for s, r in enumerate(self.ranks))


@dataclass(frozen=True, slots=True)
class PlayerStats:
    name: str
    games: int
    wins: int
    average_points: float
    average_rounds: float
    favourite_bonus: Colour | None  # the colour of the most cards bought, over all games
    fastest_win: PlayedGame | None = None  # fewest rounds, then fewest minutes

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


@dataclass(frozen=True, slots=True)
class HeadToHead:
    """Two players over the games they played together."""

    a: str
    b: str
    games: int
    a_ahead: int  # games where a finished ranked above b
    b_ahead: int
    a_wins: int  # games a won (alone or shared)
    b_wins: int
    a_points: float  # average points in those games
    b_points: float

    @property
    def level(self) -> int:
        """Games where neither finished above the other (a shared rank)."""
        return self.games - self.a_ahead - self.b_ahead


# A finished game never changes, but an undo from the end screen reopens it: the key
# holds what changes then. Replaying a long history once per process is enough.
_cache: dict[tuple[str, int, str, int], PlayedGame] = {}


def _played(store: Store, info: GameInfo) -> PlayedGame:
    key = (str(store.path), info.id, info.updated_at, info.moves)
    line = _cache.get(key)
    if line is None:
        record = store.record(info.id, with_journal=True)
        game = replay(record).game
        ranks = {s.seat: s.rank for s in game.standings()}
        line = PlayedGame(
            id=info.id,
            started_at=info.started_at,
            names=game.names,
            players=game.names,
            points=tuple(s.points for s in game.seats),
            ranks=tuple(ranks[s.seat] for s in game.seats),
            bonuses=tuple(tuple(s.bonuses)[: len(GEMS)] for s in game.seats),
            rounds=game.round,
            minutes=played_minutes(record),
            winners=frozenset(game.winners()),
            levels=companion_levels(record.extra, len(game.names)),
            undated=info.undated,
        )
        _cache[key] = line
    return line


def spelling(name: str) -> str:
    """A name as the key of a player: ``Zoé`` typed here and ``Zoé`` from a file written
    elsewhere (composed or not, a stray space) are the same spelling. Names are stored so
    since they are normalised on the way in; an older journal's may not be."""
    return normal_name(name)


def persons(store: Store) -> Callable[[str], str]:
    """The person each name counts as: its spelling, then the merges of the journal."""
    aliases = {spelling(k): spelling(v) for k, v in store.aliases().items()}
    return lambda name: resolve(aliases, spelling(name))


def played_games(
    store: Store,
    include: Callable[[PlayedGame], bool] | None = None,
    unreadable: list[StoreError] | None = None,
    known: dict[tuple[int, str, int], PlayedGame] | None = None,
) -> list[PlayedGame]:
    """Every finished game, most recent first, names counted as the persons they are.

    A game whose journal cannot be read is left out rather than hiding every other
    game; why (naming the game) goes to ``unreadable`` when given, so the table can be told.
    ``known``: the lines of an earlier call, by game, last change and moves (replaying
    every game of a club's journal takes seconds; a finished game does not change), kept
    up to date here for the next call: only new or changed games are replayed.
    """
    person = persons(store)
    lines = []
    seen: dict[tuple[int, str, int], PlayedGame] = {}
    for info in store.games():
        if not info.finished:
            continue
        key = (info.id, info.updated_at, info.moves)
        try:
            if info.problem is not None:
                raise info.problem
            found = None if known is None else known.get(key)
            line = _played(store, info) if found is None else found
            seen[key] = line
        except StoreError as err:
            if unreadable is not None:
                unreadable.append(err)
            continue
        # The companion's seats keep the name they were given: a merge of two spellings
        # of a person never turns the companion into that person, nor its win into theirs.
        players = tuple(
            n if line.is_companion(seat) else person(n) for seat, n in enumerate(line.names)
        )
        line = replace(
            line,
            players=players,
            winners=frozenset(
                p for p, n in zip(players, line.names, strict=True) if n in line.winners
            ),
        )
        if include is None or include(line):
            lines.append(line)
    if known is not None:
        known.clear()
        known.update(seen)  # a deleted game's line goes with it
    return lines


def stats_of(games: Iterable[PlayedGame]) -> list[PlayerStats]:
    """One line per player, most wins first (then most games, then name)."""
    played: Counter[str] = Counter()
    wins: Counter[str] = Counter()
    points: Counter[str] = Counter()
    rounds: Counter[str] = Counter()
    bonuses: dict[str, Counter[Colour]] = {}
    fastest: dict[str, PlayedGame] = {}
    for game in games:
        for seat, name in enumerate(game.players):
            if game.is_companion(seat):
                continue  # the companion's seat: not a person's line
            played[name] += 1
            points[name] += game.points[seat]
            rounds[name] += game.rounds
            counts = bonuses.setdefault(name, Counter())
            for colour, n in zip(GEMS, game.bonuses[seat], strict=False):
                counts[colour] += n
            if game.ranks[seat] == 1:  # by seat: a name may also be the companion's
                wins[name] += 1
                best = fastest.get(name)
                if best is None or _speed(game) < _speed(best):
                    fastest[name] = game
    lines = []
    for name, n in played.items():
        favourite = [c for c, k in bonuses[name].most_common(1) if k]
        lines.append(
            PlayerStats(
                name=name,
                games=n,
                wins=wins[name],
                average_points=points[name] / n,
                average_rounds=rounds[name] / n,
                favourite_bonus=favourite[0] if favourite else None,
                fastest_win=fastest.get(name),
            )
        )
    lines.sort(key=lambda s: (-s.wins, -s.games, s.name))
    return lines


def _speed(game: PlayedGame) -> tuple[int, float, int]:
    return (game.rounds, game.minutes if game.minutes is not None else float("inf"), game.id)


def player_stats(
    store: Store, include: Callable[[PlayedGame], bool] | None = None
) -> list[PlayerStats]:
    """One line per player over the finished games (``include``: only those games)."""
    return stats_of(played_games(store, include))


def head_to_head(games: Iterable[PlayedGame], a: str, b: str) -> HeadToHead:
    """``a`` against ``b`` over the games both played."""
    together = 0
    a_ahead = b_ahead = a_wins = b_wins = a_points = b_points = 0
    for game in games:
        sa, sb = game.seat_of(a), game.seat_of(b)
        if sa is None or sb is None or a == b:
            continue
        together += 1
        a_ahead += game.ranks[sa] < game.ranks[sb]
        b_ahead += game.ranks[sb] < game.ranks[sa]
        a_wins += game.ranks[sa] == 1
        b_wins += game.ranks[sb] == 1
        a_points += game.points[sa]
        b_points += game.points[sb]
    n = max(1, together)
    return HeadToHead(a, b, together, a_ahead, b_ahead, a_wins, b_wins, a_points / n, b_points / n)


@dataclass(frozen=True, slots=True)
class CompanionLevel:
    """The people against the companion at one level, counted apart from the
    games between people."""

    level: str
    games: int
    people_wins: int  # games a person won, alone or sharing the victory
    players: tuple[PlayerStats, ...]  # each person's line over those games

    @property
    def win_rate(self) -> float:
        return self.people_wins / self.games if self.games else 0.0


def level_words(level: CompanionLevel) -> str:
    """A level's line, the statistics screen's and the command line's alike:
    ``Companion (hard): 3 games, won by the people: 1 (33%)``."""
    return _("{companion}: {games}, won by the people: {wins} ({rate})").format(
        companion=companion_title(level.level),
        games=ngettext("{n} game", "{n} games", level.games).format(n=number(level.games)),
        wins=number(level.people_wins),
        rate=percent(level.win_rate),
    )


def against_companion(games: Iterable[PlayedGame]) -> list[CompanionLevel]:
    """Per level, easiest first, the games the companion played at it and how the people
    fared. A game with the companion at two levels counts under each: the people played
    both. A game of companions only is left out: no person played against them."""
    by_level: dict[str, list[PlayedGame]] = {}
    for game in games:
        if not game.people_played:
            continue
        for level in dict.fromkeys(lv for lv in game.levels if lv is not None):
            by_level.setdefault(level, []).append(game)
    return [
        CompanionLevel(
            level,
            len(by_level[level]),
            sum(g.people_won for g in by_level[level]),
            tuple(stats_of(by_level[level])),
        )
        for level in LEVELS
        if level in by_level
    ]


def people_and_levels(
    games: Iterable[PlayedGame],
) -> tuple[list[PlayerStats], list[CompanionLevel]]:
    """The statistics' two views, the screen's and the command line's alike: each person's
    line over the games between people, and the games against the companion level by level
    (:func:`against_companion`), counted apart so that a person's figures against people
    stay their own."""
    games = list(games)
    return stats_of(g for g in games if not g.against_companion), against_companion(games)
