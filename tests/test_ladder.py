"""The ladder's arithmetic (companion/ai/ladder.py): Elo ratings fitted from results, their
intervals, a match's win rate with its interval. Synthetic results: the figures of real
games are printed by the benchmark, never asserted."""

from __future__ import annotations

import math
import os
import random
import re
import subprocess
import sys

import pytest

from companion.coach.ladder import ANCHOR, bootstrap, fit, interval, round_robin
from companion.coach.tables import TableGame, hero_scores, lineup, pairwise


def games(won: float, n: int) -> list[float]:
    """``n`` games of which the first player won ``won`` (a half: one shared victory)."""
    whole = int(won)
    return [1.0] * whole + ([0.5] if won != whole else []) + [0.0] * (n - math.ceil(won))


def test_two_players_are_rated_apart_by_their_score_with_one_extra_draw() -> None:
    ratings = fit({("a", "b"): games(15, 20)}, "b")
    assert ratings["b"] == ANCHOR
    # 15.5 to 5.5 with the extra draw: 400 log10 of the odds.
    assert ratings["a"] - ANCHOR == pytest.approx(400 * math.log10(15.5 / 5.5))


def test_ratings_follow_the_win_rates_and_even_results_rate_alike() -> None:
    results = {
        ("strong", "middle"): games(14, 20),
        ("middle", "weak"): games(15, 20),
        ("strong", "weak"): games(19, 20),
        ("twin", "middle"): games(10, 20),
    }
    ratings = fit(results, "weak", 500.0)
    assert ratings["weak"] == 500.0
    assert ratings["strong"] > ratings["middle"] > ratings["weak"]
    assert ratings["twin"] == pytest.approx(ratings["middle"], abs=60)
    # A player who lost every game still has a finite rating, below the others.
    swept = fit({("a", "b"): games(0, 10), ("b", "c"): games(5, 10)}, "c")
    assert math.isfinite(swept["a"]) and swept["a"] < swept["b"]


def test_the_intervals_hold_the_fitted_rating_and_narrow_with_more_games() -> None:
    few = {("a", "b"): games(7, 10)}
    many = {("a", "b"): games(70, 100)}
    for results in (few, many):
        low, high = bootstrap(results, "b", random.Random(1))["a"]
        assert low <= fit(results, "b")["a"] <= high
        assert bootstrap(results, "b", random.Random(1))["b"] == (ANCHOR, ANCHOR)
    spread = {
        len(r[("a", "b")]): (lambda lh: lh[1] - lh[0])(bootstrap(r, "b", random.Random(1))["a"])
        for r in (few, many)
    }
    assert spread[100] < spread[10]


def test_a_win_rate_comes_with_its_95_percent_interval() -> None:
    rate, low, high = interval(games(130, 200))
    assert rate == 0.65
    assert low == pytest.approx(0.5815, abs=1e-3) and high == pytest.approx(0.7135, abs=1e-3)
    assert interval(games(0, 10))[1] == 0.0 and interval(games(10, 10))[2] == 1.0


def test_a_round_robin_plays_every_pair_with_seats_alternated() -> None:
    results = round_robin(["easy", "greedy", "medium"], 2, 6, 1)
    assert list(results) == [("easy", "greedy"), ("easy", "medium"), ("greedy", "medium")]
    assert all(len(r) == 2 and set(r) <= {0.0, 0.5, 1.0} for r in results.values())


def test_the_benchmark_refuses_a_match_it_cannot_play() -> None:
    command = [sys.executable, "-m", "companion.coach.bench", "--match", "expert,champion"]
    done = subprocess.run(
        command, capture_output=True, text=True, env={**os.environ, "SPLENDOR_LANG": "en"}
    )
    assert done.returncode == 2
    assert "like expert,hard; not expert,champion" in done.stderr and done.stdout == ""


def test_a_larger_table_rotates_the_heros_seat_over_each_deal() -> None:
    """Three games of a three-player deal: the hero sits once in each seat, the field in the
    others, and each seat's place is kept."""
    played = lineup("easy", "greedy", 3, 3, 6, 1)
    assert [g.players for g in played] == [
        ("easy", "greedy", "greedy"),
        ("greedy", "easy", "greedy"),
        ("greedy", "greedy", "easy"),
    ]
    for g in played:
        assert sorted(g.ranks)[0] == 1 and all(1 <= r <= 4 for r in g.ranks)
    # The hero's score is its seat's: a win, a share of one, or nothing.
    for g, score in zip(played, hero_scores(played, "easy"), strict=True):
        seat = g.players.index("easy")
        winners = g.ranks.count(1)
        assert score == (1 / winners if g.ranks[seat] == 1 else 0.0)


def test_a_table_of_four_counts_every_two_seats_of_different_players() -> None:
    game = TableGame(("expert", "hard", "hard", "hard"), (1, 3, 1, 4))
    assert game.score(0) == 0.5 and game.score(2) == 0.5 and game.score(1) == 0.0
    assert pairwise([game]) == {("expert", "hard"): [1.0, 0.5, 1.0]}


def test_the_benchmark_plays_a_three_player_table_beside_its_fair_share() -> None:
    command = [sys.executable, "-m", "companion.coach.bench", "--players", "3", "--games", "3"]
    command += ["--think", "0.01", "--workers", "1", "--match", "easy,greedy"]
    done = subprocess.run(
        command, capture_output=True, text=True, env={**os.environ, "SPLENDOR_LANG": "en"}
    )
    assert done.returncode == 0, done.stderr
    assert "3 three-player games per match" in done.stdout
    line = next(
        x for x in done.stdout.splitlines() if x.startswith("easy vs greedy in the other 2 seats")
    )
    assert "over 3 games; fair share 33%" in line
    assert re.search(
        r"^easy, time per decision: median [\d.]+ ms, p99 [\d.]+ ms over \d+ decisions \(1 "
        r"process on this machine\)$",
        done.stdout,
        re.M,
    ), done.stdout
    # Each game is told as it ends, with the hero's seat and place: a run cut short still
    # says what it played.
    told = [x for x in done.stderr.splitlines() if x.startswith("game ")]
    assert [x.split(":")[0] for x in told] == ["game 0", "game 1", "game 2"]
    assert told[1].startswith("game 1: easy at seat 2, place ")
    assert told[2].endswith(" of 3 so far")


def test_a_long_table_run_played_in_parts_plays_the_same_games() -> None:
    """Games 2 and 3 of a run from game 2 are games 2 and 3 of a run from 0: a run of 200
    games can be played in parts and its figures added up."""
    whole = lineup("easy", "greedy", 3, 4, 6, 1)
    heard: list[int] = []
    part = lineup("easy", "greedy", 3, 2, 6, 2, first=2, told=lambda n, _g: heard.append(n))
    assert part == whole[2:]
    assert heard == [2, 3]
