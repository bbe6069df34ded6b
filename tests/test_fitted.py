"""The expert's judgement fitted to game outcomes (companion/ai/fitted.py) and the command
that fits it (companion/coach/fit.py)."""

from __future__ import annotations

import contextlib
import io
import random
import re

import pytest

from companion.ai import fitted
from companion.ai.fitted import TURN, WEIGHTS, outlooks
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


def test_the_fit_finds_the_weights_that_made_the_outcomes() -> None:
    rng = random.Random(7)
    truth = (1.0, -0.5)
    data = []
    for _ in range(3000):
        x = (rng.uniform(-3, 3), rng.uniform(-3, 3))
        z = truth[0] * x[0] + truth[1] * x[1]
        data.append(Sample(x, float(rng.random() < fit.logistic(z)), 0.5))
    found = fit.fit(data)
    assert found == pytest.approx(truth, abs=0.15)


def test_a_games_samples_are_seen_from_both_seats_and_labelled_by_its_winner() -> None:
    found = [s for n in range(6) for s in fit.samples(n)]
    assert {s.won for s in found} == {0.0, 1.0}
    assert {s.x[-1] for s in found} == {1.0, -1.0}  # whose turn: both
    assert all(len(s.x) == len(fitted.FEATURES) + 1 for s in found)


@pytest.mark.long
def test_the_fit_prints_the_weights_the_expert_plays_with() -> None:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert fit.main([]) == 0
    text = out.getvalue()
    weights = [float(w) for w in re.findall(r"^    (-?\d+\.\d+),", text, re.M)]
    assert weights == list(WEIGHTS)
    assert f"TURN = {TURN:.4f}" in text
