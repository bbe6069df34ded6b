"""One person against the companion, a whole game only through taps, in English
and French: the companion's move is shown, made on the table, confirmed with one tap."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from kivy.uix.button import Button

from companion.ai import make
from companion.ai.words import explained
from companion.coach.plan import Plan
from companion.engine.moves import Buy, Reserve, Take
from companion.engine.simulate import Dealer
from companion.i18n import set_language
from companion.journal.seats import level_word
from companion.records.movelog import foretell
from ui.i18n import tr

from .driver import Driver
from .legible import measure
from .playing import new_game_against_the_companion, pick_card, play_through_taps, shown_move


@pytest.mark.parametrize(
    ("language", "level_taps", "level"),
    [
        # English against the companion through taps is also the expert's quick test
        pytest.param("en", 1, "easy", marks=pytest.mark.long),
        ("fr", 2, "medium"),
    ],
)
def test_one_person_against_the_companion_a_whole_game_through_taps(
    tmp_path: Path, language: str, level_taps: int, level: str
) -> None:
    d = Driver(tmp_path / "data", language=language)
    try:
        new_game_against_the_companion(d, level_taps, suggest=True)
        table = d.app.table_screen
        game = table.game
        plan = Plan.of(table.session.record.extra, 2)  # type: ignore[union-attr]
        assert plan.levels == (None, level) and plan.suggest
        rng = random.Random(11)
        dealer = Dealer(game, rng)
        person = make("easy", seed=3)
        shots = 0
        undone = False
        while not game.over:
            assert len(game.moves) < 300
            d.frames(2)
            if game.to_act == 1:
                # Its move, on the panel beside the board (no dialog over the table).
                assert d.top() is table, d.top()
                expected = plan.choose(game)
                assert shown_move(d) == expected
                # Its move in a sentence; its seat kept the companion's own name: said
                # once, with the level.
                level = level_word(plan.levels[1] or "")
                told = foretell(game, expected, f"{tr('Companion')} ({level})")
                said = explained(told, game, expected)  # and why, where the panel has room
                assert table.panel.title.text in (said, told), table.panel.title.text
                if shots < 3 and isinstance(expected, Take | Buy | Reserve):
                    faults, _ = measure(table)  # two players, one line each, readable
                    assert not faults, "; ".join(faults)
                    d.screenshot_to(tmp_path / f"companion-{language}-{shots}.png")
                    shots += 1
                d.press(tr("Done"), exact=True)
                played = dealer.deal(expected)
                if played.reveal is not None:
                    pick_card(d, played.reveal)
                assert game.moves[-1].player == 1
                assert game.moves[-1].returned == expected.returned
                if not undone and len(game.moves) > 6:
                    # Undo across the companion's move: the same move is shown again.
                    d.press(tr("Undo"), exact=True)
                    d.frames(2)
                    assert shown_move(d) == expected
                    undone = True
                continue
            assert table.panel.parent is None  # a person's turn: the take bar is back
            if len(game.moves) == 2:
                d.press(tr("Suggest"), exact=True)
                assert table.panel.parent is not None  # thinking, then the hint, docked
                hint = shown_move(d)
                assert hint == plan.suggestion(game)
                assert d.top() is table
                # Five buttons in the bottom bar now: none breaks a word ("Sugg/érer").
                faults, _ = measure(table)
                assert not faults, "; ".join(faults)
                d.screenshot_to(tmp_path / f"suggestion-{language}.png")
                d.press(tr("Close"), exact=True)
                assert table.panel.parent is None
            if len(game.moves) == 4:
                # A suggestion says so (never as if played) and is played as the
                # companion's move is: made on the table, then Done.
                d.press(tr("Suggest"), exact=True)
                hint = shown_move(d)
                assert table.panel.title.text.startswith(tr("Suggested:"))
                dealt = dealer.deal(hint)
                d.press(tr("Done"), exact=True)
                if dealt.reveal is not None:
                    pick_card(d, dealt.reveal)
                assert game.moves[-1] == dealt, (game.moves[-1], dealt)
                continue
            play_through_taps(d, dealer.deal(person.choose(game)))
        assert d.app.manager.current == "end"
        # The end screen, straight from the table, says which level played its seat.
        assert f". {game.seats[1].name} ({tr(level)}), " in d.texts()
        assert shots >= 1
    finally:
        d.close()
        set_language("en")


def test_a_table_of_companions_alone_is_refused_and_a_companion_seat_gets_a_name(
    driver: Driver,
) -> None:
    d = driver
    d.press("New game")
    for _ in range(2):
        seats = [b for b in d.walk() if isinstance(b, Button) and b.text == "Person"]
        d.tap(seats[0])  # each tap: the first seat still a person's becomes the companion
    screen = d.app.manager.current_screen
    assert screen.levels == ["easy", "easy"]
    assert screen.names == ["Companion", "Companion 2"]
    d.press("Next: lay out the table")
    assert d.app.manager.current == "newgame"
    assert "At least one seat is a person's" in d.texts()
