"""Every player's holdings at a glance while the table is busiest (issue 34, item 2): with
four players in the final round on the 7-inch screen (800x480), the companion's move
docked beside the players and a refusal of two lines take room from the players' column;
each of the other players still shows, without a tap, per colour the tokens held and the
bonuses owned, the token total, the reserved cards and nobles counted and the points,
every number at the 14 px text floor or more, nothing drawn over them; the player to act
keeps the larger counts.
"""

from __future__ import annotations

import dataclasses
import math
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from unittest.mock import patch

import pytest

from companion import i18n
from companion.coach.plan import Plan
from companion.engine.game import Game, Seat
from companion.engine.simulate import simulate
from companion.engine.tokens import Colour
from companion.journal.store import GameState
from companion.records.record import Record, replay
from ui.scale import SCALE
from ui.screens.table import players
from ui.screens.table.players import PlayerPanel
from ui.widgets import drawing
from ui.widgets.text import draw_text

from . import covered, legible
from .conftest import MAIN_DISPLAYS, set_window
from .driver import Driver
from .playing import shown_move
from .tablewalk import FINAL, open_piles

FLOOR = 14.0  # px at 800x480: the text floor


@pytest.fixture(params=["en", "fr"])
def final_round(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Driver, Game]]:
    """Four players in the final round at 800x480, in English (the refusal on two lines)
    and French (on three)."""
    set_window((800, 480))
    d = Driver(tmp_path / "data", language=request.param)
    try:
        yield d, simulate(players=4, seed=FINAL[0], max_moves=FINAL[1])
    finally:
        set_window(MAIN_DISPLAYS[0])
        d.close()


def put(d: Driver, game: Game, plan: Plan | None = None) -> Any:
    extra: dict[str, Any] = {} if plan is None else {"app": plan.app()}
    record = Record(game.setup, list(game.moves), extra)
    gid = d.app.store.import_record(record, GameState.of(replay(record).game))
    d.app.resume(gid)
    d.frames(3)
    return d.app.table_screen


def expected(seat: Seat) -> list[str]:
    """The numbers a player's holdings draw, in their order: per colour the tokens held
    (none: a dot) and the bonuses owned (none: an empty square), then the total."""
    numbers = []
    for colour in Colour:
        if seat.tokens[colour]:
            numbers.append(str(seat.tokens[colour]))
        if colour != Colour.GOLD and seat.bonuses[colour]:
            numbers.append(str(seat.bonuses[colour]))
    return [*numbers, f"{seat.tokens.total}/{seat.rules.token_limit}"]


def drawn(widget: Any) -> list[tuple[str, float]]:
    """The numbers ``widget`` draws, in order, with their sizes in pixels (each one: the
    legibility check's renderer sees a text drawn twice at one size once)."""
    seen: list[tuple[str, float]] = []

    def record(canvas: Any, text: str, *args: Any, **kw: Any) -> None:
        size = float(args[5] if len(args) > 5 else kw["size"])
        seen.append((text, max(float(int(size)), math.ceil(SCALE.min_text))))
        draw_text(canvas, text, *args, **kw)

    with patch.object(drawing, "draw_text", record), patch.object(players, "draw_text", record):
        widget.redraw()
    return [(text, size) for text, size in seen if text.strip()]


def counts(widget: Any) -> list[float]:
    """The sizes of the numbers ``widget`` draws (not its words: "tokens")."""
    return [size for text, size in drawn(widget) if text.replace("/", "").isdigit()]


def others_in_view(table: Any, state: str) -> list[str]:
    """What of each other player's holdings is not in view at the floor, in ``state``."""
    game = table.game
    faults = []
    panels = {p.seat_index: p for p in table.players.panels if p.parent is not None}
    for seat in (game.seat(i) for i in range(len(game.names)) if i != game.to_act):
        panel: PlayerPanel | None = panels.get(seat.seat)
        if panel is None or not legible.shown(panel.holdings):
            faults.append(f"{state}: {seat.name}'s holdings are a tap away")
            continue
        numbers = drawn(panel.holdings)
        if [t for t, _ in numbers] != expected(seat):
            faults.append(f"{state}: {seat.name} shows {numbers}, not {expected(seat)}")
        counted = drawn(panel.counts)
        wanted = [str(n) for n in (len(seat.reserved), len(seat.nobles)) if n]
        if [t for t, _ in counted] != wanted:
            faults.append(f"{state}: {seat.name}'s reserve and nobles read {counted}")
        points = panel.points_label
        if points.text != str(seat.points) or not legible.shown(points):
            faults.append(f"{state}: {seat.name}'s points not shown ({points.text!r})")
        small = [(t, s) for t, s in numbers + counted if s < FLOOR - 0.01]
        small += [(points.text, points.font_size)] if points.font_size < FLOOR else []
        if small:
            faults.append(f"{state}: {seat.name}'s counts under {FLOOR:.0f} px: {small}")
    # The player to act's counts stay the largest: none under the others' least.
    active = panels.get(game.to_act)
    others = [s for p in panels.values() if not p.active for s in counts(p.holdings)]
    mine = counts(active.holdings) if active is not None else []
    if mine and others and min(mine) < min(others) - 0.01:
        faults.append(f"{state}: the player to act's counts ({min(mine):.1f} px) are smaller")
    return faults


def look(d: Driver, state: str, folder: Path | None) -> list[str]:
    d.frames(3)
    table = d.app.table_screen
    panel = table.players.panels[table.game.to_act]
    found = others_in_view(table, state)
    found += legible.faults(state, table)
    found += covered.faults(state, table, (panel.name_label, panel.points_label))
    if folder is not None:
        name = state.replace(" ", "-").replace("'", "")
        d.screenshot_to(folder / f"{name}-{i18n.language()}.png")
    return found


SHOTS = os.environ.get("SPLENDOR_OTHERS_SHOTS")  # a folder to look at the states in


def test_the_others_holdings_stay_in_view_beside_the_companions_move_and_a_refusal(
    final_round: tuple[Driver, Game],
) -> None:
    d, game = final_round
    folder = Path(SHOTS) if SHOTS else None
    found: list[str] = []
    # A refusal in the final round: two tokens chosen, then the gold pile.
    table = put(d, game)
    assert table.banner.height > 0, "not the final round"
    piles = open_piles(table)
    d.tap(piles[0])
    d.tap(piles[1])
    d.tap(table.bank[Colour.GOLD])
    assert table.notice.opacity == 1 and table.notice.error
    found += look(d, "a refusal", folder)
    # The companion to act in the final round, its move shown beside the players.
    names = list(game.names)
    names[game.to_act] = "Robo"
    levels = tuple("hard" if s == game.to_act else None for s in range(4))
    renamed = dataclasses.replace(game.setup, players=tuple(names))
    companion = replay(Record(renamed, list(game.moves))).game
    table = put(d, companion, Plan(levels, seed=5, think=0.05))
    shown_move(d)
    found += look(d, "the companion's move", folder)
    assert not found, "\n".join(found)
