"""The companion thinks in a worker thread (the screen stays alive): the same move as on the
caller's thread, the live game untouched, a stale or cancelled answer never delivered."""

from __future__ import annotations

import queue
import threading

from companion.ai.search import Stopped
from companion.ai.thinking import Thinking
from companion.coach.plan import Plan
from companion.engine.game import Game
from companion.engine.moves import Move
from companion.engine.simulate import simulate


def _midgame(seed: int, moves: int = 12) -> Game:
    return simulate(players=3, seed=seed, max_moves=moves)


def test_the_move_thought_in_a_thread_is_the_move_chosen_on_the_callers_thread() -> None:
    for seed in range(4):
        game = _midgame(seed, 10 + seed)
        plan = Plan(tuple(("hard" if s == game.to_act else None) for s in range(3)), seed, 0.1)
        before = game.text(), tuple(game.moves)
        answers: queue.Queue[Thinking] = queue.Queue()
        thinking = Thinking(game, plan.choose, answers.put).start()
        done = answers.get(timeout=60)
        assert done is thinking and done.error is None
        assert done.move == plan.choose(game)
        assert (game.text(), tuple(game.moves)) == before  # the live game is never touched
        assert thinking.answers(game)


def test_an_answer_for_a_position_that_changed_is_stale() -> None:
    game = _midgame(7)
    plan = Plan(tuple(("medium" if s == game.to_act else None) for s in range(3)), 7)
    thinking = Thinking(game, plan.choose, lambda t: None).start()
    assert thinking.wait(60)
    assert thinking.answers(game)
    game.push(next(iter(game.legal_moves())))
    assert not thinking.answers(game)
    game.undo()
    assert thinking.answers(game)


def test_a_cancelled_search_gives_up_and_delivers_nothing() -> None:
    game = _midgame(3)
    # A budget of minutes: only the stop ends it.
    plan = Plan(tuple(("hard" if s == game.to_act else None) for s in range(3)), 3, 60.0)
    started = threading.Event()
    delivered: list[Thinking] = []

    def decide(copy: Game, stop: object) -> Move | None:
        started.set()
        return plan.choose(copy, stop)  # type: ignore[arg-type]

    thinking = Thinking(game, decide, delivered.append).start()
    assert started.wait(60)
    thinking.cancel()
    assert thinking.wait(60)
    assert thinking.move is None and thinking.error is None
    assert delivered == [] and not thinking.answers(game)


def test_a_failure_in_the_worker_is_handed_back_not_lost() -> None:
    game = _midgame(2)
    got: queue.Queue[Thinking] = queue.Queue()

    def broken(copy: Game, stop: object) -> Move | None:
        raise ValueError("no move")

    Thinking(game, broken, got.put).start()
    assert isinstance(got.get(timeout=60).error, ValueError)


def test_the_stop_never_changes_the_move_while_it_says_no() -> None:
    game = _midgame(5)
    plan = Plan(tuple(("hard" if s == game.to_act else None) for s in range(3)), 5, 0.1)
    asked = []

    def never() -> bool:
        asked.append(1)
        return False

    assert plan.choose(game, never) == plan.choose(game)
    assert asked  # it was asked between playouts
    try:
        plan.choose(game, lambda: True)
    except Stopped:
        pass
    else:
        raise AssertionError("a search told to stop went on")
