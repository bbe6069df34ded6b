"""A person against the expert, only through taps, in English and French: the
level chosen on the new-game screen, its moves shown and made on the table, then the end
screen's Game review opened, a costly move stepped to, and the game stepped through move by
move. The whole game runs at the table's budget (long); the default run plays a few moves
at a small budget and reviews a finished game against the expert."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest

from companion.ai import make
from companion.ai.words import explained
from companion.coach.plan import Plan
from companion.coach.play import play
from companion.engine.game import Game
from companion.engine.simulate import DEFAULT_NAMES, Dealer, random_setup
from companion.i18n import set_language
from companion.journal.seats import level_word
from companion.journal.store import GameState
from companion.records.movelog import foretell
from companion.records.record import Record
from ui.i18n import tr
from ui.screens.analysis import AnalysisScreen
from ui.screens.review import ReviewScreen

from .driver import Driver
from .playing import (
    analysis_screen,
    new_game_against_the_companion,
    pick_card,
    play_through_taps,
    reviewed,
    shown_move,
)

EXPERT_TAPS = 4  # the seat's button: a person, easy, medium, hard, then expert
PREFERS = {"en": "was the companion's choice", "fr": "était le choix du compagnon"}


def _expert_game(d: Driver, moves: int | None) -> Game:
    """Zoé, a person playing as the easy level would, against the expert, through taps,
    until ``moves`` moves are played or the game is over."""
    table = d.app.table_screen
    plan = table.companion.plan
    assert plan.levels == (None, "expert")
    game = table.game
    dealer = Dealer(game, random.Random(11))
    person = make("easy", seed=3)
    seat = f"{tr('Companion')} ({level_word('expert')})"
    while not game.over and (moves is None or len(game.moves) < moves):
        assert len(game.moves) < 300
        d.frames(2)
        if game.to_act == 0:
            play_through_taps(d, dealer.deal(person.choose(game)))
            continue
        assert d.top() is table, d.top()
        expected = plan.choose(game)  # the same seed: the move the table shows
        assert shown_move(d) == expected
        told = foretell(game, expected, seat)  # the move in a sentence, its seat named
        said = explained(told, game, expected)  # and why, where the panel has the room
        assert table.panel.title.text in (said, told), table.panel.title.text
        d.press(tr("Done"), exact=True)
        played = dealer.deal(expected)
        if played.reveal is not None:
            pick_card(d, played.reveal)
        assert game.moves[-1].player == 1
    return game


def _analysis(d: Driver, playouts: int) -> AnalysisScreen:
    """The end screen's Game review, computed at ``playouts`` a move, to its end."""
    screen = analysis_screen(d)
    screen.playouts = playouts
    d.press(tr("Game review"))
    assert d.app.manager.current == "analysis"
    reviewed(d, screen, seconds=300)
    assert screen.done is not None and screen.rows
    return screen


def _step_through(
    d: Driver, screen: AnalysisScreen, moves: int, every: bool, language: str
) -> None:
    """A costly move tapped: the table as it was before it; then the game stepped through
    with Next (``every`` move, else a few), and back to the review."""
    number, row = screen.rows[0]
    d.tap(row)
    review = d.app.manager.get_screen("review")
    assert isinstance(review, ReviewScreen)
    assert d.app.manager.current == "review" and review.at == number - 1
    assert PREFERS[language] in review.status.text
    d.press(tr("Start"), exact=True)
    assert review.at == 0
    for step in range(1, (moves if every else 3) + 1):
        d.press(tr("Next"), exact=True)
        assert review.at == step
        assert tr("Move {n} of {total}, round {round}").split("{n}")[0] in review.status.text
    d.press(tr("Previous"), exact=True)
    d.press(tr("Back"), exact=True)
    assert d.app.manager.current == "analysis"


@pytest.mark.long
@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_whole_game_against_the_expert_through_taps_then_its_review(
    tmp_path: Path, language: str
) -> None:
    d = Driver(tmp_path / "data", language=language)
    try:
        new_game_against_the_companion(d, EXPERT_TAPS, suggest=False)
        game = _expert_game(d, None)
        assert game.over and d.app.manager.current == "end"
        assert f". {game.seats[1].name} ({tr('expert')}), " in d.texts()
        screen = _analysis(d, 12)
        d.screenshot_to(tmp_path / f"expert-review-{language}.png")
        _step_through(d, screen, len(game.moves), True, language)
        d.press(tr("Back"), exact=True)
        assert d.app.manager.current == "end"
    finally:
        d.close()
        set_language("en")


def test_a_few_moves_against_the_expert_through_taps(tmp_path: Path) -> None:
    d = Driver(tmp_path / "data", language="en")
    try:
        # A game just begun, resumed (the new-game screen's taps are the long test's).
        plan = Plan((None, "expert"), seed=4, think=0.05)
        setup = random_setup(random.Random(5), [DEFAULT_NAMES[0], "Companion"])
        record = Record(setup, [], {"app": plan.app()})
        d.app.resume(d.app.store.import_record(record, GameState.of(Game(setup))))
        d.frames(2)
        game = _expert_game(d, 4)
        assert [m.player for m in game.moves] == [0, 1, 0, 1]
    finally:
        d.close()


def test_a_finished_game_against_the_expert_is_reviewed_and_stepped_through(
    tmp_path: Path,
) -> None:
    d = Driver(tmp_path / "data", language="fr")
    try:
        # Zoé against the expert (at a test's budget), from the past games' end screen.
        plan = Plan((None, "expert"), seed=4, think=0.01)
        done = play([make("easy", seed=3), make("expert", seed=4, rollouts=4)], seed=8)
        record = Record(
            dataclasses.replace(done.setup, players=(DEFAULT_NAMES[0], tr("Companion"))),
            list(done.moves),
            {"app": plan.app()},
        )
        gid = d.app.store.import_record(record, GameState.of(done))
        d.app.show_past_game(gid)
        d.frames(3)
        assert f"{tr('Companion')} ({tr('expert')})" in d.texts()
        screen = _analysis(d, 4)
        # The chart's legend names the companion's seat with its level, as the lists do.
        drawn = [" ".join(e.lines) for e in screen.chart.legend]
        assert any(f"{tr('Companion')} ({tr('expert')})" in t for t in drawn), drawn
        _step_through(d, screen, len(done.moves), False, "fr")
    finally:
        d.close()
        set_language("en")
