"""A small, known set of finished games, for the BG Stats play and the statistics.

Each is a simulated game (reproducible from its seed) with the names changed: moves name
seats, not people, so the game is the same. The outcomes below were read off each game's
standings (``splendor-companion replay``) and are what the tests compute by hand from.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from companion.ai.players import make
from companion.engine.cards import CARDS
from companion.engine.game import Game
from companion.engine.moves import Buy, Take
from companion.engine.setup import Setup
from companion.engine.simulate import Dealer, random_setup, simulate
from companion.journal.store import GameState, Store
from companion.records.record import Record, replay


@dataclass(frozen=True)
class Known:
    seed: int
    names: tuple[str, ...]
    points: tuple[int, ...]
    winners: tuple[str, ...]
    rounds: int
    extra: dict[str, Any] = field(default_factory=dict)

    def record(self) -> Record:
        game = simulate(players=len(self.names), seed=self.seed)
        setup = Setup(self.names, game.setup.nobles, game.setup.market)
        return Record(setup, list(game.moves), dict(self.extra))


# A 2-player win: Zoé 16 (22 cards), Marc 8, after 35 rounds, 40 minutes.
TWO_PLAYER_WIN = Known(
    3,
    ("Zoé", "Marc"),
    (16, 8),
    ("Zoé",),
    35,
    {"started_at": "2026-11-20T19:00:00Z", "ended_at": "2026-11-20T19:40:00Z"},
)
# A 3-player shared victory: Zoé and Marc 15 points and 18 cards each, Lin 14; 33 rounds.
SHARED_VICTORY = Known(
    162,
    ("Zoé", "Marc", "Lin"),
    (15, 15, 14),
    ("Zoé", "Marc"),
    33,
    {"started_at": "2026-11-21T20:00:00Z", "ended_at": "2026-11-21T20:52:00Z"},
)
# Zoé's name typed in lower case one night: Lin 19 wins, zoé 10; 34 rounds.
LOWER_CASE_ZOE = Known(5, ("zoé", "Lin"), (10, 19), ("Lin",), 34)

KNOWN = (TWO_PLAYER_WIN, SHARED_VICTORY, LOWER_CASE_ZOE)


def import_known(store: Store, games: tuple[Known, ...] = KNOWN) -> list[int]:
    """Store the games as ``import`` would; their ids in order."""
    ids = []
    for known in games:
        record = known.record()
        game = replay(record).game
        assert game.winners() == list(known.winners), known
        ids.append(store.import_record(record, GameState.of(game)))
    return ids


def against(known: Known, names: tuple[str, ...], seats: tuple[str, ...]) -> Known:
    """The same game with other names, some seats the companion's (``app.seats``)."""
    extra = {**known.extra, "app": {"name": "splendor-companion", "seats": list(seats)}}
    winners = tuple(names[known.names.index(w)] for w in known.winners)
    return Known(known.seed, names, known.points, winners, known.rounds, extra)


# The companion's games, each seat as typed at the table and by whom it was played:
#   Zoé 16 beats the companion (hard) 8; 35 rounds.
ZOE_BEATS_HARD = against(TWO_PLAYER_WIN, ("Zoé", "Companion"), ("person", "hard"))
#   The companion (hard) 19 beats Zoé 10; 34 rounds.
HARD_BEATS_ZOE = against(LOWER_CASE_ZOE, ("Zoé", "Companion"), ("person", "hard"))
#   The companion (easy) and Marc share the victory at 15, Zoé 14; 33 rounds.
EASY_SHARES_WITH_MARC = against(
    SHARED_VICTORY, ("Companion", "Marc", "Zoé"), ("easy", "person", "person")
)
AGAINST_COMPANION = (ZOE_BEATS_HARD, HARD_BEATS_ZOE, EASY_SHARES_WITH_MARC)


def blunder() -> tuple[Record, int, str]:
    """A finished game where Ben, a person, could buy the card that wins and took tokens
    instead: the record, the move's number and the card passed up."""
    for seed in range(10, 20):  # the first of these games where Ben can win by a buy
        rng = random.Random(seed)
        game = Game(random_setup(rng, ["Robo", "Ben"]))
        dealer = Dealer(game, rng)
        players = [make("medium", seed=seed), make("medium", seed=seed + 1)]
        passed: tuple[int, str] | None = None
        while not game.over and not game.stalled and len(game.moves) < 200:
            move = players[game.to_act].choose(game)
            seat = game.seat(game.to_act)
            wins = isinstance(move, Buy) and seat.points + CARDS[move.card].points >= 15
            if passed is None and game.to_act == 1 and wins and not game.final_round:
                assert isinstance(move, Buy)
                passed = (len(game.moves) + 1, move.card)
                move = next(m for m in game.legal_moves() if isinstance(m, Take))
            game.push(dealer.deal(move))
        if passed is not None and game.over:
            return Record.of(game, app={"seats": ["hard", "person"]}), *passed
    raise AssertionError("no winning buy for Ben in these games")


def check_play(play: dict[str, object], known: Known, minutes: int) -> None:
    """Every field BG Stats needs, with the values of the game as it was played."""
    assert play["sourceName"] == "Splendor Companion"
    assert isinstance(play["sourcePlayId"], str) and play["sourcePlayId"]
    assert play["playDate"] == known.extra["started_at"].replace("T", " ").rstrip("Z")
    assert play["durationMin"] == minutes
    assert play["game"] == {
        "name": "Splendor",
        "bggId": 148228,
        "highestWins": True,
        "sourceGameId": "splendor",
    }
    players = play["players"]
    assert isinstance(players, list)
    assert [p["name"] for p in players] == list(known.names)
    assert [p["score"] for p in players] == list(known.points)
    assert [p["winner"] for p in players] == [n in known.winners for n in known.names]
    assert [p["startPlayer"] for p in players] == [True] + [False] * (len(known.names) - 1)
    for p in players:
        assert {"name", "score", "winner", "startPlayer", "rank", "sourcePlayerId"} <= set(p)
        assert isinstance(p["winner"], bool) and isinstance(p["startPlayer"], bool)
        assert isinstance(p["score"], int) and isinstance(p["rank"], int)
        assert p["rank"] == 1 if p["winner"] else p["rank"] > 1
