"""The statistics screen's Club view at a club's kiosk: the league from the club's real
PostgreSQL, this kiosk's table on a tournament night, and one tap to set its game up.
Screenshots go to a temporary folder, or to ``SPLENDOR_SHOTS``."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from club.kiosks import cli, named_game, store
from clubdb import ClubDb

from .driver import Driver


def _answered(d: Driver) -> None:
    screen = d.app.manager.get_screen("club")
    end = time.monotonic() + 20
    while screen.asking and time.monotonic() < end:
        d.wait(0.05)
    d.frames(3)
    assert not screen.asking


def test_the_club_view_shows_the_league_and_this_kiosk_s_table(
    club: ClubDb, tmp_path: Path
) -> None:
    data = tmp_path / "data"
    shots = Path(os.environ.get("SPLENDOR_SHOTS", tmp_path / "shots"))
    shots.mkdir(parents=True, exist_ok=True)
    store(data, named_game(1, ["Ada", "Ben"]), named_game(2, ["Ada", "Ben", "Cleo"]))
    assert cli("club", "join", club.url(), "--name", "Table 1", "--data-dir", str(data))[0] == 0
    other = str(tmp_path / "other")
    assert cli("club", "join", club.url("table2"), "--name", "Table 2", "--data-dir", other)[0] == 0
    d = Driver(data)
    try:
        d.app.history_screen.show_stats()
        d.frames(2)
        for size in ((800, 480), (720, 1280), (480, 320)):
            d.resize(*size)
            d.frames(3)
            d.screenshot_to(shots / f"club-stats-{size[0]}x{size[1]}.png")
        d.press("Club")
        assert d.app.manager.current == "club"
        _answered(d)
        texts = d.texts()
        assert "2 games in the club" in texts and "This kiosk: Table 1" in texts
        assert "Ada" in texts and "Cleo" in texts and "0 games waiting for the club" in texts
        for size in ((800, 480), (720, 1280), (480, 320)):
            d.resize(*size)
            d.frames(3)
            d.screenshot_to(shots / f"club-league-{size[0]}x{size[1]}.png")

        cli("club", "tournament", "start", "--data-dir", other)
        cli("club", "tournament", "add", "Ada", "Ben", "Cleo", "Dan", "--data-dir", other)
        d.press("Ask the club again")
        _answered(d)
        d.press("Seat the next round")  # the organiser may seat it from any kiosk
        _answered(d)
        assert "Round 1, table 1: " in d.texts()
        for size in ((800, 480), (720, 1280), (480, 320)):
            d.resize(*size)
            d.frames(3)
            d.screenshot_to(shots / f"club-table-{size[0]}x{size[1]}.png")
        d.press("Start this table's game")
        d.frames(3)
        assert d.app.manager.current == "setup"
        draft = d.app.setup_screen.draft
        assert sorted(draft.players) == ["Ada", "Ben", "Cleo", "Dan"]
    finally:
        d.close()


def test_a_kiosk_without_a_club_shows_no_club_and_starts_no_push(tmp_path: Path) -> None:
    data = tmp_path / "data"
    store(data, named_game(3, ["Ada", "Ben"]))
    d = Driver(data)
    try:
        assert d.app.club_push is None
        d.app.history_screen.show_stats()
        d.frames(2)
        with pytest.raises(LookupError):
            d.button("Club", exact=True)
        assert d.button("Merged names")  # the bar as it always was
    finally:
        d.close()
