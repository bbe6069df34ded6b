"""The game review on the screen: opened on a past game, computed in the background with
its progress said, legible at 800x480 and portrait 720x1280, a tap on a costly move shows
the table before it; kept once made; stopped when the screen is left. A small budget."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from plays import blunder

from companion import i18n
from companion.journal.store import GameState
from companion.records.record import Record, replay
from ui.i18n import tr
from ui.launch import window_size

from .conftest import WINDOW, set_window
from .driver import Driver
from .legible import faults
from .playing import analysis_screen, reviewed

WORDS = {
    "en": ("Game review", "Move {n},", "was the companion's choice"),
    "fr": ("Analyse de la partie", "Coup {n},", "était le choix du compagnon"),
}


@pytest.fixture(params=["en"])
def past(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Driver, int, int]]:
    """The app on the end screen of a past game where Ben, a person, passed up the buy
    that won: the driver, the game's number and the move."""
    d = Driver(tmp_path / "data", language=request.param)
    record, number, _ = blunder()
    game = replay(record).game
    game_id = d.app.store.import_record(record, GameState.of(game))
    d.app.show_past_game(game_id)
    d.frames(3)
    try:
        yield d, game_id, number
    finally:
        set_window(window_size(WINDOW))
        d.close()


@pytest.mark.parametrize("past", ["en", "fr"], indirect=True)
def test_the_review_of_a_past_game_steps_to_a_costly_move(past: tuple[Driver, int, int]) -> None:
    d, _, number = past
    language = i18n.language()
    title, move, prefers = WORDS[language]
    screen = analysis_screen(d)
    screen.playouts = 12
    d.press(title)
    assert d.app.manager.current == "analysis"
    said: list[str] = []  # every status line the screen showed while it worked
    screen.status.bind(text=lambda _label, text: said.append(text))
    d.frames(2)
    assert screen.job is not None  # in the background: the screen answers meanwhile
    reviewed(d, screen)
    assert screen.done is not None
    # After the moves, the costliest are checked by a deeper search, the screen says so.
    checking = tr("Checking the costliest moves with a deeper search: {n} of {total}")
    assert any(t.startswith(checking.split("{n}")[0]) for t in said), said
    for size in [(800, 480), (720, 1280)]:
        set_window(size)
        d.frames(3)
        assert not faults(f"review {language}", screen)
    set_window((800, 480))
    d.frames(3)
    rows = [row for n, row in screen.rows if n == number]
    assert rows, [n for n, _ in screen.rows]
    assert rows[0].cells[0].text.startswith(move.format(n=number))
    d.tap(rows[0])
    moves = d.app.manager.get_screen("review")
    assert d.app.manager.current == "review" and moves.at == number - 1
    assert prefers in moves.status.text
    d.press("Back" if language == "en" else "Retour")
    assert d.app.manager.current == "analysis"


def test_a_review_is_kept_and_leaving_stops_it(past: tuple[Driver, int, int]) -> None:
    d, game_id, _ = past
    screen = analysis_screen(d)
    screen.playouts = 100_000  # far too long: it is stopped before it ends
    d.press("Game review")
    d.frames(2)
    job = screen.job
    assert job is not None and "Reviewing: move" in d.texts()
    d.press("Back")
    assert job.stopped and d.app.manager.current == "end"
    assert job.wait(60) and job.result is None
    screen.playouts = 8
    d.press("Game review")
    reviewed(d, screen)
    made = screen.done
    # Opened again, the journal's review is shown at once: nothing is computed.
    d.press("Back")
    d.app.show_past_game(game_id)
    d.frames(3)
    d.press("Game review")
    assert screen.job is None and screen.done == made
    record: Record = d.app.store.record(game_id)
    assert len(made.moves) == len(record.moves) if made is not None else False


def test_a_four_player_game_of_100_moves_is_reviewed_with_its_progress_and_exported(
    tmp_path: Path,
) -> None:
    """Four people, 100 moves (the benchmark's four-player game, a small budget): the
    screen says its progress move by move, then its checks; each person's three costliest
    moves are listed, and the text export names the same ones."""
    from companion.coach.review import mistakes
    from companion.coach.verify import table_game
    from companion.reports.export import to_text

    record = table_game(11)  # four medium players, a whole game of 100 moves
    assert len(record.players) == 4 and len(record.moves) == 100
    d = Driver(tmp_path / "data", language="en")
    try:
        game_id = d.app.store.import_record(record, GameState.of(replay(record).game))
        d.app.show_past_game(game_id)
        d.frames(3)
        screen = analysis_screen(d)
        screen.playouts = 6
        d.press("Game review")
        said: list[str] = []
        screen.status.bind(text=lambda _label, text: said.append(text))
        reviewed(d, screen)
        done = screen.done
        assert done is not None and len(done.moves) == 100
        assert "Reviewing: move 100 of 100" in said, said[-5:]
        assert any(t.startswith("Checking the costliest moves") for t in said)
        listed = [n for n, _row in screen.rows]
        expected = [j.number for seat in range(4) for j in done.costly(seat)]
        assert sorted(listed) == sorted(expected)
        assert all(len(done.costly(seat)) == 3 for seat in range(4))
        assert not faults("review 4p en", screen)
        d.screenshot_to(tmp_path / "review-4p.png")
        text = to_text(d.app.store.record(game_id, with_journal=True))
        for seat, name in enumerate(record.players):
            assert f"{name}: 25 moves reviewed" in text
            for m in mistakes(record, done, seat):
                assert f"Move {m.judged.number}, round {m.step.round}:" in text
    finally:
        d.close()
