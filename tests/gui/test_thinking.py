"""The companion's turn on the table: it thinks in a worker thread (a spinner at once, the
table answering taps meanwhile, an undo dropping the answer), then its move is shown in a
panel docked beside the board, bank and players, legible at 800x480 with four players;
screenshots at 800x480 and (in a second process) 1280x720 go to a temporary folder."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from companion.ai.words import visiting
from companion.coach.plan import Plan
from companion.engine.simulate import Dealer, simulate
from companion.i18n import language
from companion.journal.store import GameState
from companion.records.record import Record
from ui.i18n import tr
from ui.screens.table.menu import MenuDialog

from .conftest import WINDOW, at_1280x720
from .driver import Driver
from .legible import measure
from .playing import caption_faults, pick_card, shown_move

SLOW = 60.0  # seconds of thought on a Pi: a search that lasts until it is stopped


def _companion_to_act(
    d: Driver, think: float, seed: int = 9, moves: int = 41, level: str = "hard"
) -> Plan:
    """A four-player game where the seat to act is the companion, resumed."""
    game = simulate(players=4, seed=seed, max_moves=moves)
    levels = tuple(level if s == game.to_act else None for s in range(4))
    plan = Plan(levels, seed=5, think=think)
    record = Record.of(game, app=plan.app())
    gid = d.app.store.import_record(record, GameState.of(game))
    d.app.resume(gid)
    return plan


@pytest.fixture(params=["en", "fr"])
def lang(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Driver]:
    d = Driver(tmp_path / "data", language=request.param)
    yield d
    d.close()


def test_thinking_shows_at_once_the_table_answers_and_an_undo_drops_the_answer(
    lang: Driver,
) -> None:
    d = lang
    _companion_to_act(d, SLOW)
    table = d.app.table_screen
    game = table.game
    # The same frame that shows the table shows the thinking: no move yet, a spinner.
    panel = table.panel
    assert panel.parent is not None and panel.thinking and panel.move is None
    assert panel.spinner is not None and table.thinking is not None
    title = panel.title.text
    assert game.names[game.to_act] in title
    d.frames(3)
    first = panel.spinner.angle
    d.wait(0.2)
    assert panel.spinner.angle != first  # it moves: the screen is not frozen
    # The board, the bank and every player stay on screen beside the panel.
    assert all(view.get_root_window() is not None for row in table.rows for view in row)
    assert all(token.get_root_window() is not None for token in table.bank)
    assert len(table.players.panels) == 4
    faults, _ = measure(table)
    assert not faults, "; ".join(faults)
    d.screenshot(f"companion-thinking-{WINDOW}-{language()}")
    # The table answers while it thinks: the menu opens and closes.
    d.tap(table.buttons.menu_button)
    assert isinstance(d.top(), MenuDialog)
    d.top().dismiss()
    d.frames(2)
    # A tap that would start someone's move says whose turn it is, and changes nothing.
    d.tap(table.bank[0])
    assert not any(table.selection)
    assert tr("The companion is thinking: its move appears on the right.") in table.status.text
    # Undo: the previous move is undone, the thinking is dropped, nothing is applied later.
    before = len(game.moves)
    thinking = table.thinking
    d.tap(table.buttons.undo_button)
    assert thinking.cancelled and table.thinking is None
    assert thinking.wait(60)  # the search stops when told to
    d.frames(3)
    assert len(game.moves) == before - 1
    assert table.panel.parent is None and table.panel.move is None  # a person's turn again
    assert table.take_bar.parent is not None


# Three of its moves: a take; a buy that a noble follows; a reserve that gives a token back.
POSITIONS = {"take": ("hard", 9, 41), "buy": ("medium", 2, 84), "reserve": ("medium", 24, 42)}


@pytest.mark.parametrize("kind", list(POSITIONS))
def test_the_move_shown_is_the_synchronous_choice_and_is_made_with_done(
    lang: Driver, kind: str
) -> None:
    d = lang
    level, seed, moves = POSITIONS[kind]
    plan = _companion_to_act(d, 0.25, seed, moves, level)
    table = d.app.table_screen
    game = table.game
    move = shown_move(d)
    assert move == plan.choose(game)  # the thread changes nothing about the choice
    d.frames(3)
    faults, _ = measure(table)
    assert not faults, "; ".join(faults)
    assert table.panel.pictures is not None and table.panel.pictures.groups
    assert not caption_faults(table.panel), caption_faults(table.panel)
    card = getattr(move, "card", None)
    marked = [v.card.id for row in table.rows for v in row if v.selected and v.card is not None]
    assert marked == ([card] if card and any(card in r for r in map(_ids, game.market)) else [])
    assert type(move).__name__.lower() == kind
    d.screenshot(f"companion-{kind}-{WINDOW}-{language()}")
    seat = game.to_act
    noble = visiting(game, move)
    moves = len(game.moves)
    d.press(tr("Done"), exact=True)
    played = Dealer(game, random.Random(1)).deal(move)
    if played.reveal is not None:
        pick_card(d, played.reveal)
    assert len(game.moves) == moves + 1 and game.moves[-1].player == seat
    assert game.moves[-1].returned == move.returned
    if noble is not None:  # the noble it showed visits it
        assert noble in {n.id for n in game.seat(seat).nobles}
    assert table.panel.parent is None  # a person's turn next: the take bar is back


def _ids(row: tuple[object, ...]) -> list[str]:
    return [getattr(c, "id", "") for c in row]


def test_leaving_the_game_while_it_thinks_drops_the_answer(driver: Driver) -> None:
    d = driver
    _companion_to_act(d, SLOW)
    table = d.app.table_screen
    thinking = table.thinking
    assert thinking is not None
    moves = len(table.game.moves)
    d.frames(2)
    d.tap(table.buttons.menu_button)
    d.press(tr("Leave the game (it is saved)"))
    d.frames(3)
    assert d.app.manager.current == "start"
    assert thinking.cancelled and thinking.wait(60)
    d.frames(3)
    assert table.panel.spinner is None  # nothing turns behind the start screen
    assert len(table.game.moves) == moves


# A second process at 1280x720: long, since tests/gui/test_displays.py and
# test_every_display.py walk these screens at every display in this process.
@pytest.mark.long
def test_the_companions_turn_at_1280x720_too() -> None:
    if WINDOW != "800x480":
        pytest.skip("this process is the 1280x720 one")
    result = at_1280x720(__file__, "-k", "thinking_shows or synchronous")
    assert result.returncode == 0, result.stdout[-3000:]
    assert "8 passed" in result.stdout


def test_an_answer_that_comes_after_an_undo_is_never_applied(driver: Driver) -> None:
    d = driver
    _companion_to_act(d, 0.25, level="medium")
    table = d.app.table_screen
    game = table.game
    thinking = table.thinking
    assert thinking is not None and thinking.wait(60)  # answered; not yet on Kivy's thread
    moves = len(game.moves)
    table.undo_pressed()  # the kiosk's undo button, before the answer is handed over
    d.frames(4)
    assert len(game.moves) == moves - 1  # only the undo happened
    assert thinking.move is not None and table.panel.move is None
    assert table.turn is not None and table.turn.action is None  # the stale move not filled
    assert table.panel.parent is None  # a person's turn: the take bar is back


def test_closing_the_app_while_it_thinks_stops_the_search_without_a_crash(
    tmp_path: Path,
) -> None:
    d = Driver(tmp_path / "data")
    _companion_to_act(d, SLOW)
    thinking = d.app.table_screen.thinking
    assert thinking is not None
    d.close()  # the app stops while the companion thinks
    assert thinking.cancelled and thinking.wait(60)
    d.frames(3)  # nothing is delivered to a screen that is gone


def test_the_moves_captions_follow_a_rotation_while_it_is_shown(
    driver: Driver, resized: Callable[[tuple[int, int]], None]
) -> None:
    """The companion's move shown, then the screen turned upright and back: "From the
    bank:" and "Gives back:" read on one line at the new size, as when the move is shown
    there (the caption's width was measured once, at the size it was made: upright, at
    a larger text, "From the / bank:" wrapped in a group too narrow for it)."""
    level, seed, moves = POSITIONS["reserve"]
    _companion_to_act(driver, 0.25, seed, moves, level)
    shown_move(driver)
    table = driver.app.table_screen
    for size in ((720, 1280), (1920, 1080), (800, 480)):
        resized(size)
        driver.frames(3)
        assert table.panel.pictures is not None and len(table.panel.pictures.groups) == 3
        assert not caption_faults(table.panel), (size, caption_faults(table.panel))
