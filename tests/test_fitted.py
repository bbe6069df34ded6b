"""The expert's judgement fitted to game outcomes (companion/ai/fitted.py) and the command
that fits it (companion/coach/fit.py)."""

from __future__ import annotations

import contextlib
import io
import math
import random
import re

import pytest

from companion.ai import fitted
from companion.ai.fitted import PLACES_AT, TURN, WEIGHTS, WEIGHTS_AT, outlooks
from companion.ai.players import make
from companion.coach import fit
from companion.coach.fit import Sample
from companion.coach.play import play
from tests.helpers import Hand, position


def test_a_finished_game_is_judged_by_its_result_not_by_the_board() -> None:
    game = play([make("medium", seed=3), make("easy", seed=4)], seed=3)
    assert game.over
    winners = {s.seat for s in game.standings() if s.rank == 1}
    chances = outlooks(game)
    assert [seat for seat, p in enumerate(chances) if p == 1.0] == sorted(winners)
    assert sum(chances) == pytest.approx(1.0)


def test_between_equal_tableaux_the_seat_to_act_is_a_move_ahead() -> None:
    ada, ben = outlooks(position(Hand(), Hand()))
    assert ada > 0.5 > ben
    assert ada + ben == pytest.approx(1.0)
    ada, ben = outlooks(position(Hand(), Hand(), to_act=1))
    assert ben > ada


def test_more_bonuses_and_points_are_judged_ahead_of_tokens_alone() -> None:
    builder = Hand(cards="1W5 1U5 1G5 2R5")  # four bonuses, 1 point
    saver = Hand(tokens="WWUUGRRK")  # eight tokens, nothing built
    built, saved = outlooks(position(saver, builder, to_act=0))[::-1]
    assert built > saved
    three = outlooks(position(builder, saver, Hand(), to_act=2))
    assert three[0] == max(three)


@pytest.mark.parametrize("size", [2, 4])
def test_the_fit_finds_the_weights_that_made_the_outcomes(size: int) -> None:
    rng = random.Random(7)
    truth = (1.0, -0.5)
    data = []
    for _ in range(3000):
        seats = tuple((rng.uniform(-3, 3), rng.uniform(-3, 3)) for _ in range(size))
        scores = [math.exp(truth[0] * a + truth[1] * b) for a, b in seats]
        winner = rng.choices(range(size), weights=scores)[0]
        data.append(Sample(seats, winner, tuple(1 / size for _ in seats)))
    found = fit.fit(data)
    assert found == pytest.approx(truth, abs=0.15)


@pytest.mark.parametrize("size", [2, 3, 4])
def test_a_games_samples_hold_every_seat_in_turn_order_and_name_its_winner(size: int) -> None:
    found = [s for n in range(4) for s in fit.samples(n, size)]
    assert found
    assert {s.winner for s in found} <= set(range(size))
    assert len({s.winner for s in found}) > 1  # not always the seat to act
    for s in found:
        assert len(s.seats) == size
        assert all(len(x) == len(fitted.FEATURES) + size - 1 for x in s.seats)
        # the places: the seat to act first, then the next; the last place has no input
        places = [x[len(fitted.FEATURES) :] for x in s.seats]
        assert places == [tuple(float(i == k) for i in range(size - 1)) for k in range(size)]
        assert sum(s.hand) == pytest.approx(1.0)


def test_at_a_larger_table_the_chances_add_up_and_follow_the_turn_order() -> None:
    for size in (3, 4):
        hands = [Hand() for _ in range(size)]
        for to_act in range(size):
            chances = outlooks(position(*hands, to_act=to_act))
            assert sum(chances) == pytest.approx(1.0)
            # with equal tableaux, the seat to act is ahead, the seat just before it last
            assert max(chances) == chances[to_act]
            assert min(chances) == chances[(to_act - 1) % size]


@pytest.mark.long
def test_the_fit_prints_the_weights_the_expert_plays_with() -> None:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert fit.main([]) == 0
    text = out.getvalue()
    for size in fit.SIZES:
        block = text.split(f"WEIGHTS[{size}] = (")[1].split(")")[0]
        weights = [float(w) for w in re.findall(r"^    (-?\d+\.\d+),", block, re.M)]
        assert weights == list(WEIGHTS_AT[size])
        places = ", ".join(f"{p:.4f}" for p in PLACES_AT[size])
        assert f"PLACES[{size}] = ({places})" in text
    assert PLACES_AT[2] == (TURN, 0.0)
    assert WEIGHTS_AT[2] == WEIGHTS
