"""At a table of three, the companion's move is told with why, in the table's language:
the rival it keeps a card from is named (issue 37)."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.ai import make
from companion.ai.words import explained, reason
from companion.coach.plan import Plan
from companion.coach.play import play
from companion.engine.game import Game
from companion.engine.moves import Reserve
from companion.i18n import set_language
from companion.journal.seats import seat_title
from companion.journal.store import GameState
from companion.records.movelog import foretell
from companion.records.record import Record
from ui.i18n import tr

from .driver import Driver
from .legible import measure
from .playing import shown_move

WHY = {"en": "Why: keeps it away from Ada", "fr": "Pourquoi\u00a0: "}


@pytest.mark.parametrize("language", ["en", "fr"])
def test_at_a_table_of_three_the_companions_move_says_why_naming_the_rival(
    tmp_path: Path, language: str
) -> None:
    # Ada and Ben are people, Cleo the companion (hard); after 8 moves of a seeded game
    # it reserves a green level-2 card that Ada could buy next.
    plan = Plan((None, None, "hard"), seed=4, think=0.05)
    done = play([make("medium", seed=4 + i) for i in range(3)], seed=4)
    record = Record(done.setup, list(done.moves[:8]), {"app": plan.app()})
    d = Driver(tmp_path / "data", language=language)
    try:
        game = Game(done.setup)
        for move in record.moves:
            game.push(move)
        d.app.resume(d.app.store.import_record(record, GameState.of(game)))
        d.frames(2)
        table = d.app.table_screen
        assert table.game.to_act == 2
        move = shown_move(d)
        assert move == plan.choose(table.game) and isinstance(move, Reserve)
        told = foretell(table.game, move, seat_title("Cleo", "hard"))
        title = table.panel.title.text
        assert title == explained(told, table.game, move), title
        assert title.startswith(told) and WHY[language] in title, title
        assert title.endswith(reason(table.game, move, told=True)) and "Ada" in title
        faults, _ = measure(table)  # the longer sentence still readable, no word broken
        assert not faults, "; ".join(faults)
        d.screenshot_to(tmp_path / f"companion-why-3p-{language}.png")
        d.press(tr("Done"), exact=True)
    finally:
        d.close()
        set_language("en")
