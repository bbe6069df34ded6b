"""The move log, opened from the table by a tap: every move in words, with the clock."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from kivy.uix.button import Button
from kivy.uix.label import Label

from companion.engine.cards import CARDS, NOBLES
from companion.engine.simulate import simulate
from ui.screens.table.movelog import MoveLog

from .driver import FIXED_TIME, Driver

WORDS = {
    "en": ("Moves", "Round 1", "takes", "0:40 turn", "4:40 into the game", "Close"),
    "fr": ("Coups", "Tour de table 1", "prend", "tour de 0:40", "4:40 de jeu", "Fermer"),
}


class Ticking:
    def __init__(self) -> None:
        self.moment = FIXED_TIME

    def __call__(self) -> datetime:
        return self.moment


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_log_tells_each_move_newest_first_with_its_turn_time(
    tmp_path: Path, language: str
) -> None:
    clock = Ticking()
    d = Driver(tmp_path / "data", language=language, clock=clock)
    try:
        game = simulate(players=3, seed=4, max_moves=7)
        d.app.start_game(game.setup)
        session = d.app.table_screen.session
        assert session is not None
        for move in game.moves:
            clock.moment += timedelta(seconds=40)
            session.play(move)
        d.app.table_screen.refresh()
        d.frames(2)
        button, first_round, takes, turn, elapsed, close = WORDS[language]
        d.press(button, exact=True)  # on the table, beside Undo and Redo
        log = d.top()
        assert isinstance(log, MoveLog)
        lines = list(log.lines.children)  # Kivy lists children last first
        assert len(lines) == 7
        text = d.texts()
        assert first_round in text and takes in text and turn in text
        # The game's clock is a duration since the first move, never a time of day.
        assert elapsed in text and not re.search(r"\b(?:at|à) 4:40", text)
        # Newest first: the top line is the last move, by its player.
        top = lines[-1]
        last_player = game.setup.players[game.moves[-1].player]
        assert any(last_player in getattr(w, "text", "") for w in top.walk())
        assert not (set(CARDS) | set(NOBLES)) & set(re.findall(r"\w+", text))
        for widget in log.walk():  # legible from a chair, at 800x480 too
            if isinstance(widget, Label) and widget.text:
                assert widget.font_size >= 14, widget.text
            if isinstance(widget, Button):
                assert min(widget.size) >= 44, widget.text
        d.press(close, exact=True)
        assert not d.modals()
    finally:
        d.close()
