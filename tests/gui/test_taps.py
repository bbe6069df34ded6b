"""Taps a whole game costs (issue 34, item 9): the seeded two-player game against the
companion of ``python -m ui.tapcount``, played through the app, its taps counted by what
they were for. A person's move costs 3 taps a move or fewer on average, with every
confirmation that guards against a mistaken tap kept (a take of two, a buy, a reserve,
tokens given back), and Undo one tap.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.engine.simulate import simulate
from companion.journal.store import GameState
from companion.records.record import Record
from ui.dialogs import CardPicker
from ui.i18n import tr
from ui.tapcount import play
from ui.taps import card_taps

from .conftest import WINDOW
from .driver import Driver

PERSON_GOAL = 3.0  # taps a move of the person, on average over a whole game

pytestmark = pytest.mark.skipif(WINDOW != "800x480", reason="counted on the 7-inch screen")


@pytest.mark.long
def test_a_whole_game_against_the_companion_costs_at_most_3_taps_a_move(tmp_path: Path) -> None:
    d = Driver(tmp_path / "data")
    try:
        tally = play(d.app, d.tap, d.frames)
        print("\n".join(tally.lines()))
        assert d.app.table_screen.session is not None
        assert d.app.manager.current == "end"  # played to its end
        assert tally.per_move("person") <= PERSON_GOAL, tally.lines()
        assert tally.setup <= 30, tally.lines()
        # The confirmations are kept: a take of two is three taps, a buy or a reserve of
        # a face-up card at least three (the card, Buy or Reserve, the card turned up).
        for (who, kind), taps in tally.taps.items():
            moves = tally.moves[(who, kind)]
            if who == "person" and kind in ("take 2 of a colour", "buy a face-up card"):
                assert taps >= 3 * moves, (kind, taps, moves)
    finally:
        d.close()


def test_the_card_turned_face_up_is_one_tap_where_its_level_shows_at_once(
    tmp_path: Path,
) -> None:
    """The reveal after a level-1 card is reserved (the level with the most cards): every
    card at once on the 7-inch screen, the card one tap (it was the colour, then the
    card); Reserve still confirms the card tapped."""
    d = Driver(tmp_path / "data")
    try:
        game = simulate(players=2, seed=3, max_moves=6)
        gid = d.app.store.import_record(Record.of(game), GameState.of(game))
        d.app.resume(gid)
        d.frames(3)
        table = d.app.table_screen
        view = next(v for row in table.rows for v in row if v.card and v.card.level == 1)
        d.tap(view)
        d.press(tr("Reserve"), exact=True)  # the confirmation stays
        d.frames(2)
        assert isinstance(d.top(), CardPicker)
        reveal = table.game.unseen(1)[-1]
        taps = list(card_taps(d.app, reveal.id))
        assert len(taps) == 1, taps  # the card itself, no colour first
        d.tap(taps[0])
        d.frames(2)
        assert table.game.moves[-1].reveal == reveal.id
        assert d.top() is table
    finally:
        d.close()
