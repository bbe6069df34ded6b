"""The end screen names no ids, and its chart says what its axes count and whose line is whose."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.engine.cards import CARDS, NOBLES
from companion.engine.simulate import simulate
from companion.journal.store import GameState
from companion.records.record import Record

from .conftest import forget_drawn
from .driver import Driver

WORDS = {"en": ("Round", "Points", "points"), "fr": ("Tour de table", "Points", "points")}


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_end_screen_tells_the_standings_and_labels_its_chart(
    tmp_path: Path, drawn: list[tuple[str, float]], language: str
) -> None:
    d = Driver(tmp_path / "data", language=language)
    try:
        game = simulate(players=3, seed=4)
        game_id = d.app.store.import_record(Record.of(game), GameState.of(game))
        d.app.show_past_game(game_id)
        d.frames(3)
        forget_drawn(drawn)
        chart = d.app.end_screen.chart
        chart.redraw()
        texts = {t for t, _ in drawn}
        axis, side, points = WORDS[language]
        assert axis in texts and side in texts  # the axes say what they count
        assert {"1", "2", "3"} <= texts  # each line carries its seat's number
        assert not [(t, s) for t, s in drawn if t.strip() and s < 14]
        shown = d.texts()
        assert f"1. {game.winners()[0]}, " in shown and points in shown
        words = set(re.findall(r"\w+", shown + " ".join(texts)))
        assert not (set(CARDS) | set(NOBLES)) & words
    finally:
        d.close()
