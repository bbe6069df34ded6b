"""Every screen at the 7-inch touchscreen's 800x480, at 1024x600, at 1280x720 and on the
portrait Touch Display 2 (720x1280), in English and French: one app a language, each
screen photographed at each size in turn (the window resized while it shows, as a
rotation does).

The pictures go to a temporary folder: the suite never rewrites tracked files.
``python tools/screenshots.py`` runs this file with SPLENDOR_SCREENSHOTS=docs/screenshots
to regenerate the README's pictures; the journal's clock is fixed (tests/gui/driver.py),
so they are the same from run to run. Each test also checks what a person would notice:
the screen's words are in the chosen language and nothing spills out.
"""

from __future__ import annotations

import dataclasses
import gc
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from kivy.core.window import Window
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from plays import blunder

from companion.ai import make
from companion.coach.plan import Plan
from companion.coach.play import play
from companion.demo import demo_game
from companion.engine.simulate import simulate
from companion.engine.tokens import Colour
from companion.journal.declaring import NewGame
from companion.journal.store import GameState
from companion.records.record import Record, replay
from ui.dialogs import CardPicker
from ui.i18n import tr
from ui.launch import window_size
from ui.screens.analysis import AnalysisScreen
from ui.screens.setup.pickers import LevelPicker
from ui.screens.table.movelog import MoveLog

from .conftest import WINDOW, set_window
from .driver import SCREENSHOTS, Driver
from .playing import a_player, analysis_screen, reviewed, shown_move

WORDS = {"en": ("New game", "Past games"), "fr": ("Nouvelle partie", "Parties")}


# The sizes photographed: the 7-inch screen, a 1024x600 one, a 1280x720 one, and the
# 720x1280 portrait Touch Display 2.
SIZES = [(800, 480), (1024, 600), (1280, 720), (720, 1280)]
# The states a player meets, on the displays that show every arrangement: the 7-inch
# screen, the portrait one and the 3.5-inch one.
STATE_SIZES = [(800, 480), (720, 1280), (480, 320)]


@pytest.fixture(params=["en", "fr"])
def shots(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Driver, str]]:
    language = request.param
    d = Driver(tmp_path / "data", language=language)
    try:
        yield d, language
    finally:
        set_window(window_size(WINDOW))
        d.close()
        gc.collect()  # a closed app's widgets no longer follow the window's scale


def shoot(
    d: Driver, name: str, language: str, fits: bool = True, sizes: list[tuple[int, int]] = SIZES
) -> None:
    """``name`` photographed at every size of ``sizes`` (``name-800x480-en.png``),
    checked first for words spilling out (``fits``); the window then as it was."""
    for width, height in sizes:
        Window.size = (width, height)
        d.frames(1)  # laid out again at once; the picture draws two frames more
        if fits:
            assert_fits(d)
        d.screenshot(f"{name}-{width}x{height}-{language}")
    set_window((800, 480))
    d.frames(2)


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


# Every screen rendered and written at four sizes in two languages: the pictures of the
# docs, made by tools/screenshots.py; in the long run, since test_every_display.py and
# test_displays.py check the same screens at every display without rendering them.
@pytest.mark.long
def test_every_screen(shots: tuple[Driver, str]) -> None:
    d, language = shots
    app = d.app
    set_window((800, 480))
    # A finished game for the history and the end screen, an unfinished one to resume.
    finished = simulate(players=3, seed=4)
    # With its start and end, as a game played here: its BG Stats code then holds the
    # date and the length that docs/exports.md promises.
    times = {"started_at": "2026-11-21T19:30:00Z", "ended_at": "2026-11-21T20:15:00Z"}
    app.store.import_record(Record.of(finished, **times), GameState.of(finished))
    unfinished = simulate(players=4, seed=9, max_moves=40)
    app.store.import_record(Record.of(unfinished), GameState.of(unfinished))

    app.show_start()
    app.start_screen.refresh()  # already showing: the games just stored are read again
    d.frames(3)
    assert WORDS[language][0] in d.texts()
    shoot(d, "start", language)

    d.press(WORDS[language][0])
    d.press("1.")
    for letter in "ADA":
        d.press(letter, exact=True)
    # Kivy shows a tapped key pressed for a moment (its min_state_time) after the finger
    # lifts: the picture is of the keyboard at rest, however fast the frames came.
    d.wait(0.1)
    shoot(d, "new-game", language)

    draft = NewGame(["Ada", "Ben", "Cleo", "Dev"])
    for item in ["N1", "N5", "N7", "N2", "N9", "3K1", "3G2", "3U1", "3W4", "2R2", "1W1"]:
        draft.declare(item)
    app.show_setup(draft)
    d.frames(3)
    picker = d.top()
    assert isinstance(picker, LevelPicker)  # the next empty place asks by itself
    shoot(d, "setup-picker", language)
    d.tap(picker.cancel)
    shoot(d, "setup", language)

    # Level 1's forty cards: at once where they are legible, else the colour first.
    for item in ["2R2", "2G1", "2U3", "2K4"]:
        if item not in draft.market[2]:
            draft.declare(item)
    app.show_setup(draft)
    d.frames(3)
    picker = d.top()
    assert isinstance(picker, LevelPicker) and "1" in picker.title.text
    shoot(d, "setup-level-1", language)
    if picker.colours is not None:  # the colour first, at 800x480
        d.tap(picker.colours.children[-2])  # blue: the second colour
        d.frames(2)
        for width, height in SIZES:  # where the colour comes first: its cards
            set_window((width, height))
            d.frames(2)
            if picker.colours is not None:
                assert_fits(d)
                d.screenshot(f"setup-level-1-blue-{width}x{height}-{language}")
        set_window((800, 480))
        d.frames(2)
    d.tap(picker.cancel)

    demo = demo_game(app.store, 4)
    app.resume(demo)
    app.config.set("companion", "hints", "1")
    app.table_screen.refresh()
    d.frames(3)
    shoot(d, "table", language)

    table = app.table_screen
    card = next(v for row in table.rows for v in row if v.card is not None)
    d.tap(card)
    shoot(d, "card", language, fits=False)
    d.press("Cancel" if language == "en" else "Annuler")

    d.tap(table.buttons.log_button)
    log = d.top()
    assert isinstance(log, MoveLog)
    d.frames(3)
    shoot(d, "log", language)
    log.dismiss()
    d.frames(2)

    game = table.session.game if table.session else None
    assert game is not None
    level = next(lv for lv in (1, 2, 3) if game.deck_size(lv))
    CardPicker("Level 1", game.unseen(level), lambda c: None).open()
    d.frames(2)
    picker = d.top()
    assert isinstance(picker, CardPicker)
    picker.show_colour(game.unseen(level)[0].bonus)
    shoot(d, "picker", language, fits=False)
    picker.dismiss()
    d.frames(2)

    app.show_past_game(next(g.id for g in app.store.games() if g.finished))
    d.frames(3)
    assert finished.winners()[0] in d.texts()
    shoot(d, "end", language, fits=False)

    app.show_history()
    d.frames(3)
    assert WORDS[language][1].split()[0] in d.texts()
    shoot(d, "history", language, fits=False)


def _review(d: Driver, game_id: int, record: Record) -> AnalysisScreen:
    """Past game ``game_id``'s review, made and shown, opened from its end screen."""
    d.app.show_past_game(game_id)
    d.frames(3)
    screen = analysis_screen(d)
    screen.playouts = 40  # smoother lines than the tests' budget
    screen.show(game_id, d.app.end_screen.record or record, back_to="end")
    d.app.manager.current = "analysis"
    reviewed(d, screen, seconds=600)
    assert screen.rows
    return screen


@pytest.mark.long
def test_the_game_review(shots: tuple[Driver, str]) -> None:
    """A past game's review (a small budget), and the table before a costly move."""
    d, language = shots
    app = d.app
    set_window((800, 480))
    record, number, _ = blunder()
    game_id = app.store.import_record(record, GameState.of(replay(record).game))
    screen = _review(d, game_id, record)
    shoot(d, "review", language, fits=False)
    screen.step_to(number)
    d.frames(3)
    shoot(d, "review-move", language, fits=False)


@pytest.mark.long
def test_a_game_against_the_expert(shots: tuple[Driver, str]) -> None:
    """The table while the expert plays (its move on the panel), and the review of a
    whole game against it."""
    d, language = shots
    app = d.app
    set_window((800, 480))
    plan = Plan((None, "expert"), seed=4, think=0.25)
    done = play([make("easy", seed=3), make("expert", seed=4, think=0.25)], seed=8)
    names = ("Zoé", tr("Companion"))
    for moves in (21, len(done.moves)):  # the expert to act, then the game over
        record = Record(
            dataclasses.replace(done.setup, players=names),
            list(done.moves[:moves]),
            {"app": plan.app()},
        )
        game = replay(record).game
        game_id = app.store.import_record(record, GameState.of(game))
        if not game.over:
            app.resume(game_id)
            d.frames(2)
            shown_move(d)
            d.frames(3)
            shoot(d, "expert-table", language, fits=False)
    _review(d, game_id, record)
    shoot(d, "expert-review", language, fits=False)


def state(d: Driver, name: str, language: str, size: tuple[int, int]) -> None:
    """The state showing now photographed at ``size`` (set before it was reached: a take
    in progress is not resized): ``state-take-one-800x480-en.png``."""
    d.frames(3)
    d.screenshot(f"state-{name}-{size[0]}x{size[1]}-{language}")


def _dismiss(d: Driver) -> None:
    top = d.top()
    assert isinstance(top, ModalView), top
    top.dismiss()
    d.frames(2)


@pytest.mark.long
def test_the_states_a_player_meets(shots: tuple[Driver, str]) -> None:
    """The states of a game as a table of four meets them, each reached at the display's
    size: a take of one and two tokens, a refusal, the final round, the card dialog,
    every player at a glance, the companion's move, the end and its code enlarged, a past
    game stepped through, past games, statistics, settings and new game."""
    d, language = shots
    app = d.app
    final = simulate(players=4, seed=9, max_moves=113)  # the final round
    final_id = app.store.import_record(Record.of(final), GameState.of(final))
    thinking = simulate(players=4, seed=9, max_moves=41)
    levels = tuple("easy" if s == thinking.to_act else None for s in range(4))
    plan = Plan(levels, seed=5, think=0.05)
    thinking_id = app.store.import_record(
        Record.of(thinking, app=plan.app()), GameState.of(thinking)
    )
    finished = simulate(players=3, seed=4)
    times = {"started_at": "2026-11-21T19:30:00Z", "ended_at": "2026-11-21T20:15:00Z"}
    finished_id = app.store.import_record(Record.of(finished, **times), GameState.of(finished))
    for size in STATE_SIZES:
        set_window(size)
        app.resume(final_id)
        d.frames(3)
        table = app.table_screen
        state(d, "final-round", language, size)
        piles = [t for t in table.bank if not t.dimmed and t.colour != Colour.GOLD]
        d.tap(piles[0])
        state(d, "take-one", language, size)
        d.tap(piles[1])
        state(d, "take-two", language, size)
        d.tap(table.bank[Colour.GOLD])  # gold is not taken: refused, said by the pile
        assert table.notice.opacity == 1 and table.notice.error
        state(d, "refusal", language, size)
        table.taking.clear()
        d.frames(2)
        card = next(v for row in table.rows for v in row if v.card is not None)
        d.tap(card)
        state(d, "card-dialog", language, size)
        _dismiss(d)
        d.tap(a_player(table))
        state(d, "players", language, size)
        _dismiss(d)
        app.resume(thinking_id)
        d.frames(2)
        shown_move(d)
        state(d, "companion-move", language, size)
        app.show_past_game(finished_id)
        d.frames(3)
        state(d, "end", language, size)
        app.end_screen.enlarge()
        state(d, "end-code", language, size)
        _dismiss(d)
        app.end_screen.review()
        review = app.manager.get_screen("review")
        review.go(len(review.moves) // 2)
        state(d, "past-game-step", language, size)
        app.show_history()
        state(d, "past-games", language, size)
        app.manager.get_screen("history").show_stats()
        state(d, "statistics", language, size)
        app.open_settings()
        state(d, "settings", language, size)
        app.show_new_game()
        state(d, "new-game", language, size)
        app.show_start()
    set_window((800, 480))
