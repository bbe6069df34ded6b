"""Read from a chair: at 800x480 with four players, no text on the table screen or in its
dialogs is drawn under 14 px, the numbers read across the table (points, token and bonus
counts) are larger, nothing tappable is under 44x44 px, no word is broken across lines, and
no record id is shown.

Text comes two ways: Label widgets, and numbers drawn straight on a canvas. Both go
through Kivy's text provider, so the test records what the provider renders (its text and
font size) while each drawn widget draws itself again.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from kivy.core.text import LabelBase
from kivy.core.window import Window
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from companion.record import Record
from companion.simulate import simulate
from companion.store import GameState
from companion.tokens import Colour
from ui import widgets
from ui.dialogs import CardPicker, NoblePicker, ReturnPicker
from ui.screens.table.players import Holdings, PlayerPanel

from .conftest import WINDOW
from .driver import Driver

MIN_TEXT = 14
ACROSS_THE_TABLE = 18  # points, token and bonus counts
MIN_TARGET = 44

pytestmark = pytest.mark.skipif(WINDOW != "800x480", reason="measured on the 7-inch screen")


@contextmanager
def rendered() -> Iterator[list[tuple[str, float]]]:
    """Every text Kivy's provider renders meanwhile, with its font size in pixels."""
    seen: list[tuple[str, float]] = []
    original = LabelBase.refresh

    def refresh(self: Any) -> None:
        seen.append((self.text, float(self.options["font_size"])))
        original(self)

    LabelBase.refresh = refresh  # type: ignore[method-assign]
    widgets._texture.cache_clear()  # drawn text is cached: make it render again
    try:
        yield seen
    finally:
        LabelBase.refresh = original  # type: ignore[method-assign]


def shown(widget: Widget) -> bool:
    """On screen: not hidden, not collapsed, inside the window."""
    node: Any = widget
    while node is not None and node is not Window:
        if getattr(node, "opacity", 1) == 0:
            return False
        node = node.parent
    if widget.width < 1 or widget.height < 1:
        return False
    x, y = widget.to_window(widget.x, widget.y)
    return x < Window.width and y < Window.height and x + widget.width > 0 and y + widget.height > 0


def broken(label: Label) -> str | None:
    """A word too wide for the label's wrapping width, which Kivy breaks mid-word
    ("Rétabli / r"); ``None`` when every word fits."""
    for word in label.text.split():
        if "[" in word:  # markup: not measured as drawn
            continue
        if widgets.widest_word(word, label.font_size, label.bold) > label.text_size[0] + 1:
            return word
    return None


RECORD_ID = re.compile(r"\b([123][WUGRK]\d{1,2}|N(10|[1-9]))\b")


def measure(root: Widget) -> tuple[list[str], list[tuple[str, float]]]:
    """What is too small under ``root``, and any record id (``1U5``, ``N8``) shown to the
    players: a list of faults; and the numbers drawn across the table."""
    faults: list[str] = []
    across: list[tuple[str, float]] = []
    for w in root.walk(restrict=True):
        if not shown(w):
            continue
        if isinstance(w, ButtonBehavior) and (
            w.width < MIN_TARGET - 0.5 or w.height < MIN_TARGET - 0.5
        ):
            faults.append(f"target {type(w).__name__} {getattr(w, 'text', '')!r} {w.size}")
        if isinstance(w, Label) and w.text.strip() and w.font_size < MIN_TEXT:
            faults.append(f"label {w.text!r} at {w.font_size:.1f} px")
        if isinstance(w, Label) and w.text_size[0] and (word := broken(w)):
            faults.append(f"{word!r} broken across lines in {w.text!r}")
        if isinstance(w, Label) and RECORD_ID.search(w.text):
            faults.append(f"a record id in {w.text!r}")
        redraw = getattr(w, "redraw", None)
        if redraw is not None:
            with rendered() as seen:
                redraw()
            for text, size in seen:
                if text.strip() and size < MIN_TEXT:
                    faults.append(f"drawn {text!r} at {size:.1f} px in {type(w).__name__}")
                if RECORD_ID.search(text):
                    faults.append(f"a record id drawn: {text!r}")
                if isinstance(w, Holdings) and text.isdigit():
                    across.append((text, size))
    return faults, across


@pytest.fixture(params=["en", "fr"])
def four(request: pytest.FixtureRequest, tmp_path: Any) -> Iterator[Driver]:
    d = Driver(tmp_path / "data", language=request.param)
    game = simulate(players=4, seed=9, max_moves=113)  # the final round; Ben holds gold
    gid = d.app.store.import_record(Record.of(game), GameState.of(game))
    d.app.resume(gid)
    d.frames(3)
    yield d
    d.close()


def close(d: Driver) -> None:
    d.top().dismiss()
    d.frames(2)


def check(d: Driver, what: str) -> None:
    d.frames(3)
    faults, _ = measure(d.top())
    assert not faults, f"{what}: " + "; ".join(faults)


def test_the_table_reads_from_a_chair(four: Driver) -> None:
    d = four
    table = d.app.table_screen
    assert table.banner.height > 0 and table.banner.label.text
    faults, across = measure(table)
    assert not faults, "; ".join(faults)
    assert across and min(size for _, size in across) >= ACROSS_THE_TABLE, across
    for panel in table.players.panels:
        assert panel.points_label.font_size >= ACROSS_THE_TABLE + 4, panel.points_label.font_size
    # Each panel shows the token total against the limit of 10, compact ones too.
    for panel in table.players.panels:
        if panel.full:
            assert any(f"/{10}" in t for t, _ in _drawn(panel.holdings))
        else:
            assert "/10" in panel.summary.text


def _drawn(widget: Any) -> list[tuple[str, float]]:
    with rendered() as seen:
        widget.redraw()
    return seen


def test_every_dialog_of_the_table_reads_from_a_chair(four: Driver) -> None:
    d = four
    table = d.app.table_screen
    game = table.game
    card = next(v for row in table.rows for v in row if v.card is not None)
    d.tap(card)
    check(d, "buy dialog")
    d.press(d.top().buttons.children[-1].text)  # the first button: Cancel
    d.tap(table.decks[0])
    check(d, "deck dialog")
    d.press(d.top().buttons.children[-1].text)
    compact = next(p for p in table.players.panels if not p.full)
    d.tap(compact)
    check(d, "player dialog")
    close(d)
    d.tap(table.menu_button)
    check(d, "menu")
    close(d)
    d.tap(table.log_button)
    check(d, "move log")
    close(d)
    table.audit()
    check(d, "bank audit")
    close(d)
    seat = game.seat(game.to_act)
    table._open(ReturnPicker("give back", seat.tokens, 2, lambda t: None, on_cancel=lambda: None))
    check(d, "give back")
    close(d)
    table._open(NoblePicker("noble", game.nobles, lambda n: None, on_cancel=lambda: None))
    check(d, "noble choice")
    close(d)
    for level in (1, 2, 3):
        picker = CardPicker("which card", game.unseen(level), lambda c: None)
        table._open(picker)
        d.frames(2)
        picker.show_colour(max(Colour, key=lambda c: sum(x.bonus == c for x in game.unseen(level))))
        check(d, f"card picker level {level}")
        picker.dismiss()
    d.frames(2)
    assert isinstance(table.players.panels[0], PlayerPanel)


@pytest.mark.parametrize("players", [2, 3])
def test_the_table_reads_from_a_chair_with_fewer_players(players: int, tmp_path: Any) -> None:
    d = Driver(tmp_path / "data")
    try:
        game = simulate(players=players, seed=6, max_moves=30)
        gid = d.app.store.import_record(Record.of(game), GameState.of(game))
        d.app.resume(gid)
        d.frames(3)
        table = d.app.table_screen
        faults, across = measure(table)
        assert not faults, "; ".join(faults)
        assert min(size for _, size in across) >= ACROSS_THE_TABLE, across
        full = [p.full for p in table.players.panels]
        assert all(full) if players == 2 else full.count(True) == 1
    finally:
        d.close()
