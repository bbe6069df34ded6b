"""Every screen, at the 7-inch touchscreen's 800x480 and at 1280x720, in English and French.

The pictures go to a temporary folder: the suite never rewrites tracked files.
``python tools/screenshots.py`` runs this file with SPLENDOR_SCREENSHOTS=docs/screenshots
to regenerate the README's pictures; the journal's clock is fixed (tests/gui/driver.py),
so they are the same from run to run. Each test also checks what a person would notice:
the screen's words are in the chosen language and nothing spills out.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from kivy.uix.button import Button
from kivy.uix.label import Label

from companion.demo import demo_game
from companion.record import Record
from companion.simulate import simulate
from companion.store import GameState
from companion.table import NewGame
from ui.dialogs import CardPicker
from ui.movelog import MoveLog
from ui.setuppicker import LevelPicker

from .conftest import WINDOW
from .driver import SCREENSHOTS, Driver

WORDS = {"en": ("New game", "Past games"), "fr": ("Nouvelle partie", "Parties")}


@pytest.fixture(params=["en", "fr"])
def shots(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Driver, str]]:
    language = request.param
    d = Driver(tmp_path / "data", language=language)
    yield d, f"{WINDOW}-{language}"
    d.close()


def test_every_screen_at_1280x720_too() -> None:
    if WINDOW != "800x480":
        pytest.skip("this process is the 1280x720 one")
    env = {**os.environ, "SPLENDOR_TEST_WINDOW": "1280x720"}
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            f"{__file__}::test_every_screen",
            "-q",
            "-p",
            "no:cacheprovider",
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        check=False,
    )
    assert result.returncode == 0, result.stdout[-3000:]
    assert "2 passed" in result.stdout


def test_the_suite_writes_no_picture_into_the_repository() -> None:
    root = Path(__file__).resolve().parents[2]
    if os.environ.get("SPLENDOR_SCREENSHOTS"):
        pytest.skip("tools/screenshots.py names the folder")
    assert root not in SCREENSHOTS.resolve().parents


def assert_fits(d: Driver) -> None:
    """No text wider than its button or label: cut-off words are a bug a person sees."""
    for widget in d.walk():
        if isinstance(widget, Button | Label) and widget.text and widget.width > 0:
            widget.texture_update()
            if widget.text_size[0] is None:
                assert widget.texture_size[0] <= widget.width + 2, widget.text


def test_every_screen(shots: tuple[Driver, str]) -> None:
    d, tag = shots
    language = tag.rsplit("-", 1)[1]
    app = d.app
    # A finished game for the history and the end screen, an unfinished one to resume.
    finished = simulate(players=3, seed=4)
    app.store.import_record(Record.of(finished), GameState.of(finished))
    unfinished = simulate(players=4, seed=9, max_moves=40)
    app.store.import_record(Record.of(unfinished), GameState.of(unfinished))

    app.show_start()
    app.start_screen.refresh()  # already showing: the games just stored are read again
    d.frames(3)
    assert WORDS[language][0] in d.texts()
    assert_fits(d)
    d.screenshot(f"start-{tag}")

    d.press(WORDS[language][0])
    d.press("1.")
    for letter in "ADA":
        d.press(letter, exact=True)
    assert_fits(d)
    d.screenshot(f"new-game-{tag}")

    draft = NewGame(["Ada", "Ben", "Cleo", "Dev"])
    for item in ["N1", "N5", "N7", "N2", "N9", "3K1", "3G2", "3U1", "3W4", "2R2", "1W1"]:
        draft.declare(item)
    app.show_setup(draft)
    d.frames(3)
    picker = d.top()
    assert isinstance(picker, LevelPicker)  # the next empty place asks by itself
    assert_fits(d)
    d.screenshot(f"setup-picker-{tag}")
    d.tap(picker.cancel)
    assert_fits(d)
    d.screenshot(f"setup-{tag}")

    # Level 1's forty cards: at once where they are legible, else the colour first.
    for item in ["2R2", "2G1", "2U3", "2K4"]:
        if item not in draft.market[2]:
            draft.declare(item)
    app.show_setup(draft)
    d.frames(3)
    picker = d.top()
    assert isinstance(picker, LevelPicker) and "1" in picker.title.text
    assert_fits(d)
    d.screenshot(f"setup-level-1-{tag}")
    if picker.colours is not None:
        d.tap(picker.colours.children[-2])  # blue: the second colour
        d.frames(2)
        assert_fits(d)
        d.screenshot(f"setup-level-1-blue-{tag}")
    d.tap(picker.cancel)

    demo = demo_game(app.store, 4)
    app.resume(demo)
    app.config.set("companion", "hints", "1")
    app.table_screen.refresh()
    d.frames(3)
    assert_fits(d)
    d.screenshot(f"table-{tag}")

    table = app.table_screen
    card = next(v for row in table.rows for v in row if v.card is not None)
    d.tap(card)
    d.screenshot(f"card-{tag}")
    d.press("Cancel" if language == "en" else "Annuler")

    d.tap(table.log_button)
    log = d.top()
    assert isinstance(log, MoveLog)
    d.frames(3)
    assert_fits(d)
    d.screenshot(f"log-{tag}")
    log.dismiss()
    d.frames(2)

    game = table.session.game if table.session else None
    assert game is not None
    level = next(lv for lv in (1, 2, 3) if game.deck_size(lv))
    table._open(CardPicker("Level 1", game.unseen(level), lambda c: None))
    d.frames(2)
    picker = d.top()
    assert isinstance(picker, CardPicker)
    picker.show_colour(game.unseen(level)[0].bonus)
    d.screenshot(f"picker-{tag}")
    picker.dismiss()
    d.frames(2)

    app.show_past_game(next(g.id for g in app.store.games() if g.finished))
    d.frames(3)
    assert finished.winners()[0] in d.texts()
    d.screenshot(f"end-{tag}")

    app.show_history()
    d.frames(3)
    assert WORDS[language][1].split()[0] in d.texts()
    d.screenshot(f"history-{tag}")
