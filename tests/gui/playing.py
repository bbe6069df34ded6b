"""Playing at the table as a person does, through taps on the real app: a whole move, a
card picked, what the app asks after an action; the companion's move and the game review
waited for."""

from __future__ import annotations

import random
import time
from typing import Any

from kivy.uix.button import Button
from kivy.uix.widget import Widget

from companion.engine.moves import Move
from companion.engine.simulate import random_setup
from ui.i18n import tr
from ui.scale import SCALE
from ui.screens.analysis import AnalysisScreen
from ui.taps import card_taps, finish_taps, move_taps
from ui.widgets.text import line_height, text_width, wrapped_lines

from .driver import Driver, lay_out_table


def pick_card(d: Driver, card_id: str) -> None:
    """In an open card picker: the bonus colour, then the card (two taps)."""
    for widget in card_taps(d.app, card_id):
        d.tap(widget)


def finish_turn(d: Driver, move: Move) -> None:
    """Answer what the app asks after the action: reveal, returns, noble."""
    for widget in finish_taps(d.app, move):
        d.tap(widget)


def play_through_taps(d: Driver, move: Move) -> None:
    """A whole move made on the table as a player makes it, in the table's language
    (:func:`ui.taps.move_taps`): the action's taps, then what the app asks after it."""
    for widget in move_taps(d.app, move):
        d.tap(widget)


def shown_move(d: Driver) -> Move:
    """Let the app run until the companion's move is on its panel (bounded, not timed)."""
    table = d.app.table_screen
    for _ in range(400):
        if table.panel.move is not None and not table.panel.thinking:
            return table.panel.move
        if table.thinking is not None:
            table.thinking.wait(2)
        d.frames(1)
    raise AssertionError("the companion's move never appeared")


def a_player(table: Any) -> Widget:
    """What a person taps to see every player in full: another player's line, the grid
    of the players' counts (the 3.5-inch screen), or the others' shared line."""
    players = table.players
    lines = [p for p in players.panels if p.parent is not None and not p.active]
    if lines:
        return lines[0]
    return players.grid if players.grid.parent is not None else players.others


def new_game_against_the_companion(d: Driver, level_taps: int, suggest: bool) -> None:
    """From the start screen: Zoé against the companion, at the level reached after
    ``level_taps`` taps on the second seat, on a table laid out from a seeded setup."""
    d.press(tr("New game"))
    d.press("1.")
    for letter in "ZOE":
        d.press(letter, exact=True)
    # The second seat: the companion, at the level reached after ``level_taps`` taps.
    whom = {tr("Person"), tr("easy"), tr("medium"), tr("hard"), tr("expert")}
    for _ in range(level_taps):
        seats = [b for b in d.walk() if isinstance(b, Button) and b.text in whom]
        d.tap(seats[1])
    if suggest:
        d.press(tr("Suggest a move: off"))
    d.press(tr("Next: lay out the table"))
    setup = random_setup(random.Random(5), ["a", "b"])
    lay_out_table(d, list(setup.nobles), [list(r) for r in setup.market])
    d.press(tr("Start the game"))
    assert d.app.manager.current == "table"


def analysis_screen(d: Driver) -> AnalysisScreen:
    """The game review's screen (shown or not)."""
    screen = d.app.manager.get_screen("analysis")
    assert isinstance(screen, AnalysisScreen)
    return screen


def reviewed(d: Driver, screen: AnalysisScreen, seconds: float = 120) -> None:
    """Frames until the review under way on ``screen`` is made (the screen lives
    meanwhile), then a few to draw it; ``seconds`` only bound a review that hangs."""
    deadline = time.monotonic() + seconds
    while screen.job is not None:
        assert time.monotonic() < deadline, "the review never finished"
        d.frames(1)
        time.sleep(0.01)
    d.frames(3)


def caption_faults(panel: Any) -> list[str]:
    """The move panel's captions ("From the bank:") drawn otherwise than whole: cut, on
    more than two lines, under the floor, on two lines where one would fit, or spilling
    out of their group. On the 3.5-inch screen a caption may stay out (the title says it)."""
    found: list[str] = []
    pictures = panel.pictures
    if pictures is None:
        return found
    spare = pictures.width - sum(g.width for g in pictures.groups)
    spare -= pictures.spacing * len(pictures.groups)
    for group in pictures.groups:
        caption = group.caption
        if caption.parent is None or (SCALE.small and not caption.opacity):
            continue
        text, size, width = caption.text, caption.font_size, caption.width
        lines = wrapped_lines(text, size, width)
        if caption.opacity != 1 or caption.shorten or size < SCALE.min_text:
            found.append(f"{text!r} hidden, shortened or at {size:.0f} px")
        if len(lines) > 2 or caption.height < len(lines) * line_height(size):
            found.append(f"{text!r} on {len(lines)} lines in {caption.height:.0f} px")
        if len(lines) == 2 and text_width(text, size) + 2 <= width + max(0.0, spare):
            found.append(f"{text!r} on two lines where the row has room for one")
        if max(text_width(line, size) for line in lines) > width:
            found.append(f"{text!r} wider than its group ({width:.0f} px)")
    return found
