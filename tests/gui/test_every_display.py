"""Every screen and dialog off the table, at every display of the README's table, in
English and French, with four players: nothing a person would see as wrong (text or a
tap target under the floor, a word broken or cut, two things over each other, something
spilling out of the window, a record id).

One app a language and screen group: each state is brought about once and the window is
resized through every display while it shows, so each state is also laid out again
after a resize (a rotation), never rebuilt from scratch. A failure names the screen,
its state, the window's size and the widget (``legible.faults``).
"""

from __future__ import annotations

import gc
import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from kivy.core.window import Window
from kivy.uix.modalview import ModalView
from kivy.uix.widget import Widget
from plays import AGAINST_COMPANION, KNOWN, Known, against, import_known

from companion import i18n
from companion.engine.simulate import simulate
from companion.engine.tokens import Colour
from companion.journal.declaring import NewGame
from companion.journal.store import GameState
from companion.records.record import Record, replay
from ui.dialogs import CardPicker, NoblePicker, ReturnPicker
from ui.i18n import tr
from ui.screens.setup.pickers import LevelPicker
from ui.screens.table.movelog import MoveLog
from web import address as web_address

from . import codes
from .conftest import MAIN_DISPLAYS, OTHER_DISPLAYS, WINDOW, set_window
from .driver import Driver
from .legible import faults
from .playing import analysis_screen, reviewed

SHOTS = os.environ.get("SPLENDOR_SHOTS_DIR")
FRAMES = int(os.environ.get("SPLENDOR_FRAMES", "1"))
pytestmark = pytest.mark.skipif(WINDOW != "800x480", reason="resizes through every display")

# Four seats with long names (a compound name, an accented one, the companion at a
# level): what makes columns and legends too narrow.
LONG = ("Marie-Christine", "Jean Baptiste", "Zoé", "Companion")
FOUR = against(
    Known(11, ("a", "b", "c", "d"), (0, 0, 0, 0), (), 0),
    LONG,
    ("person", "person", "person", "hard"),
)


def store_games(d: Driver) -> tuple[int, int]:
    """The known games, the companion's, a finished and an unfinished four-player game;
    the ids of the last two."""
    import_known(d.app.store, KNOWN)
    import_known(d.app.store, AGAINST_COMPANION)
    record = FOUR.record()
    finished = d.app.store.import_record(record, GameState.of(replay(record).game))
    playing = simulate(players=4, seed=9, max_moves=30)
    unfinished = d.app.store.import_record(Record.of(playing), GameState.of(playing))
    return finished, unfinished


# The default run walks French, whose words are the longest, on the two smallest screens
# (where a code has the fewest pixels a module and words the least room); the table's
# state walk (test_table_states) takes French through the portrait and the largest
# screen's arrangements in the default run too. The long run walks English and French on
# every display.
SMALL = [size for size in MAIN_DISPLAYS if size[0] * size[1] <= 800 * 480]
LARGE = [size for size in MAIN_DISPLAYS if size not in SMALL]
LONG_RUN = pytest.mark.long
WALKS = [
    pytest.param(("fr", SMALL), id="fr-small"),
    pytest.param(("en", LARGE), id="en-large", marks=LONG_RUN),
    pytest.param(("en", SMALL), id="en-small", marks=LONG_RUN),
    pytest.param(("fr", LARGE), id="fr-large", marks=LONG_RUN),
    pytest.param(("en", OTHER_DISPLAYS), id="en-other", marks=LONG_RUN),
    pytest.param(("fr", OTHER_DISPLAYS), id="fr-other", marks=LONG_RUN),
]


@pytest.fixture(params=WALKS)
def app(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Driver]:
    global SIZES, PICTURES
    language, SIZES = request.param
    PICTURES = tmp_path
    # The kiosk serving its page, at a host name as long as an address: the start and end
    # screens show its code beside BG Stats'.
    monkeypatch.setenv("SPLENDOR_WEB", "yes")
    monkeypatch.setattr(web_address, "host_name", lambda avahi=None: "192.168.100.200")
    d = Driver(tmp_path / "data", language=language)
    try:
        yield d
    finally:
        set_window(tuple(int(v) for v in WINDOW.split("x")))  # type: ignore[arg-type]
        d.close()
        # A closed app's widgets follow the window's scale until they are collected (weak
        # references): collected now, the next test's resizes lay out its app alone.
        gc.collect()


# The displays the test running walks, and its folder for the QR codes' screenshots (set
# by ``app``).
SIZES = MAIN_DISPLAYS
PICTURES = Path()

Step = Callable[[Driver], Any]


def every_size(d: Driver, where: str, root: Callable[[], Widget] | None = None) -> list[str]:
    """The faults of what shows now, at every display (resized while it shows)."""
    found: list[str] = []
    for size in SIZES:
        Window.size = size
        d.frames(FRAMES)
        found += faults(where, root() if root else d.top())
        found += codes.faults(d, PICTURES, where)  # every code read back, as a phone would
        if SHOTS:  # to look at: SPLENDOR_SHOTS_DIR=folder
            name = re.sub(r"\W+", "-", where).strip("-")
            d.screenshot_to(Path(SHOTS) / f"{name}-{size[0]}x{size[1]}-{i18n.language()}.png")
    set_window((800, 480))
    d.frames(1)
    return found


def report(found: list[str]) -> None:
    if os.environ.get("SPLENDOR_REPORT"):
        print("\n".join(found))
        print(f"{len(found)} faults")
        return
    assert not found, f"{len(found)} faults:\n" + "\n".join(found[:60])


def test_start_and_new_game(app: Driver) -> None:
    d = app
    store_games(d)
    d.app.notices[:] = ["A line the table must read: the journal was moved aside."]
    d.app.show_start()
    d.app.start_screen.refresh()
    d.frames(2)
    found = every_size(d, "start")
    d.app.notices.clear()
    screen = d.app.new_game_screen
    d.app.show_new_game()
    d.frames(2)
    for name in LONG[:3]:
        screen.use_name(name)
    screen.cycle_level(3)
    screen.cycle_level(3)
    screen.cycle_level(3)
    d.frames(2)
    found += every_size(d, "new game, four seats")
    screen.start_typing()  # the 3.5-inch screen's keyboard; elsewhere the same screen
    found += every_size(d, "new game, typing a name")
    screen.stop_typing()
    screen.remove(3)  # three seats: a fourth can be added
    levels = list(screen.levels)
    screen.levels = ["easy"] * 3
    screen.next()  # refused: the companion needs a person at the table
    screen.levels = levels
    assert d.app.manager.current == "newgame" and screen.message.text
    found += every_size(d, "new game, three seats, a refusal")
    report(found)


def test_setup_and_its_pickers(app: Driver) -> None:
    d = app
    setup = simulate(players=4, seed=7, max_moves=0).setup
    draft = NewGame(list(LONG))
    d.app.show_setup(draft)
    d.frames(3)
    found = every_size(d, "setup, the nobles asked")
    for item in [*setup.nobles, *setup.market[2]]:
        draft.declare(item)
    d.app.setup_screen.close_picker()
    d.app.setup_screen.open_next()
    d.frames(2)
    found += every_size(d, "setup, level 2 asked")
    for card in setup.market[1]:
        draft.declare(card)
    d.app.setup_screen.close_picker()
    d.app.setup_screen.open_next()
    d.frames(2)
    found += every_size(d, "setup, level 1 asked")
    picker = d.top()
    assert isinstance(picker, LevelPicker)
    picker.show_colour(Colour.BLUE)
    d.frames(2)
    found += every_size(d, "setup, level 1, blue shown")
    d.tap(picker.cancel)
    for card in setup.market[0]:
        draft.declare(card)
    d.app.setup_screen.declare(setup.market[2][0])  # scanned twice: refused, said
    d.frames(1)
    assert draft.complete and d.app.setup_screen.message.text
    found += every_size(d, "setup, laid out, a refusal")
    report(found)


def test_history_and_statistics(app: Driver) -> None:
    d = app
    store_games(d)
    d.app.show_history()
    d.frames(2)
    no_stick = tr("No USB stick found: plug one in and try again.")
    d.app.history_screen.refresh(no_stick, ok=False)  # said in a line under the games
    found = every_size(d, "past games, a message")
    stats = d.app.manager.get_screen("stats")
    d.app.history_screen.show_stats()
    d.frames(2)
    stats.choose("Zoé")
    stats.choose("Marc")
    found += every_size(d, "statistics between people, two chosen")
    stats.versus()
    found += every_size(d, "head to head")
    stats.close_panel()
    stats.chosen = ["zoé", "Zoé"]  # never at one table: perhaps one person
    stats.ask_merge()
    assert stats.panel is not None
    found += every_size(d, "same person?")
    stats.merge("zoé", "Zoé")
    stats.show_names()
    found += every_size(d, "merged names")
    stats.close_panel()
    stats.switch()
    found += every_size(d, "statistics against the companion")
    report(found)


def test_end_and_a_past_game_move_by_move(app: Driver) -> None:
    d = app
    finished, _ = store_games(d)
    d.app.show_past_game(finished)
    d.frames(2)
    found = every_size(d, "a past game's end")
    end = d.app.end_screen
    end.from_history = False
    end.refresh()
    found += every_size(d, "the end of a game")
    end.enlarge()
    found += every_size(d, "the code enlarged")
    d.top().dismiss()
    end.review()
    d.frames(2)
    found += every_size(d, "move by move, the setup")
    review = d.app.manager.get_screen("review")
    review.go(len(review.moves) // 2)  # a past game stepped through: mid-game
    found += every_size(d, "move by move, mid-game")
    review.go(len(review.moves))
    found += every_size(d, "move by move, the end")
    report(found)


def test_the_game_review(app: Driver) -> None:
    """The review of a four-player game with long names (a small budget), made, then
    stepped to a costly move; and while it is being made."""
    d = app
    finished, _ = store_games(d)
    d.app.show_past_game(finished)
    d.frames(2)
    screen = analysis_screen(d)
    screen.playouts = 4
    d.app.end_screen.analyse()
    d.frames(2)
    found = every_size(d, "the review under way")
    reviewed(d, screen)
    found += every_size(d, "the review")
    assert screen.rows
    screen.step_to(screen.rows[0][0])
    d.frames(2)
    found += every_size(d, "move by move, a costly move")
    report(found)


def test_enrolment_the_move_log_and_the_dialogs(app: Driver) -> None:
    from hardware.tagmap import TagMap

    d = app
    _, unfinished = store_games(d)
    hardware = d.app.hardware
    assert hardware is not None
    hardware.tags = TagMap(d.app.data_folder() / "tags.json")
    d.app.show_enroll()
    d.app.enroll_screen.start(3)
    d.frames(2)
    screen = d.app.enroll_screen
    screen.tag_read("0A0B0C0D01")
    screen.tag_read("0A0B0C0D01")  # the same tag for the next card: refused, said
    assert screen.error and screen.current is not None
    found = every_size(d, "enrolment, a card asked, a refusal")
    hardware.tags = None
    # The dialogs over the start screen (the table under them is the table's own test).
    d.app.show_start()
    record = d.app.store.record(unfinished, with_journal=True)
    game = replay(record).game
    richest = max(game.seats, key=lambda s: sum(s.tokens))  # tokens to give back
    dialogs: list[tuple[str, Callable[[], ModalView]]] = [
        ("move log", lambda: MoveLog(record)),
        ("card picker, no colour yet", lambda: CardPicker("Which card?", game.unseen(1), print)),
        ("noble picker", lambda: NoblePicker("Which noble?", game.nobles, print, print)),
        (
            "give back",
            lambda: ReturnPicker("Give back", richest.tokens, 2, print, print),
        ),
    ]
    for where, make in dialogs:
        view = make()
        view.open()
        d.frames(2)
        found += every_size(d, where)
        if isinstance(view, CardPicker):
            view.show_colour(Colour.BLUE)
            found += every_size(d, "card picker, blue")
        view.dismiss()
        d.frames(1)
    report(found)
