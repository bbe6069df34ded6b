"""The companion at a live table: its plan kept in the journal, its moves made
through the same turn steps as anyone's, undo across them."""

from __future__ import annotations

import random
from pathlib import Path

from companion.coach.plan import Plan, fill
from companion.engine.game import Game
from companion.engine.moves import Move
from companion.engine.simulate import Dealer, random_setup
from companion.journal.declaring import CONFIRM, REVEAL, Turn
from companion.journal.session import Session
from companion.journal.store import Store


def _person(game: Game) -> Move:
    return next(iter(game.legal_moves()))


def test_a_person_against_the_companion_through_the_turn_steps_with_undo(tmp_path: Path) -> None:
    store = Store(tmp_path / "games.sqlite3")
    rng = random.Random(3)
    setup = random_setup(rng, ["Zoé", "Companion"])
    plan = Plan.new([None, "hard"], think=0.05)
    session = Session.start(store, setup, {"app": plan.app()})
    dealer = Dealer(session.game, rng)
    turn = Turn(session)
    companion_moves = 0
    while not session.game.over and len(session.game.moves) < 400:
        game = session.game
        move = plan.choose(game)
        if move is None:
            session.play(dealer.deal(_person(game)))
            continue
        assert game.to_act == 1
        fill(turn, move)
        if turn.step == REVEAL:
            assert turn.due is not None and turn.due.reveal is not None
            turn.declare_reveal(dealer.deal(move).reveal or "")
        assert turn.step == CONFIRM
        played = turn.commit()
        assert (played.returned, played.noble) == (move.returned, move.noble)
        companion_moves += 1
        if companion_moves == 5:
            # Undo across the companion's move: the same move is proposed again.
            session.undo()
            assert plan.choose(session.game) == move
            session.redo()
    assert session.game.over
    assert companion_moves > 5, "the companion's move was never undone and redone"
    # The plan is in the journal: the record names the seats, and a resumed game has it.
    record = store.record(session.game_id)
    again = Plan.of(record.extra, 2)
    assert again == plan
    assert record.extra["app"]["seats"] == ["person", "hard"]
    store.close()


def test_a_plan_from_a_strangers_record_falls_back_to_persons_and_defaults() -> None:
    plan = Plan.of({"app": {"seats": ["hard"], "seed": "x", "think": -1, "blind": "yes"}}, 2)
    assert plan == Plan((None, None))
    assert not plan.any and not plan.suggest
    assert Plan.of({}, 3).levels == (None, None, None)
    assert Plan.of({"app": {"seats": ["person", "easy"], "suggest": True}}, 2).suggest
