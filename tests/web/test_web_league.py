"""The phone's league page (/league) over a club's real PostgreSQL."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from aiohttp.test_utils import TestClient
from club.kiosks import cli, named_game, store
from clubdb import ClubDb
from webtools import serve


async def _get(client: TestClient[Any, Any], path: str = "/league") -> tuple[int, str]:
    response = await client.get(path)
    return response.status, await response.text()


def test_the_league_page_shows_the_club_s_standings_and_tables(
    club: ClubDb, tmp_path: Path
) -> None:
    data = tmp_path / "data"
    store(data, named_game(1, ["Ada", "Ben"]), named_game(2, ["Ada", "<b>Cleo</b>", "Ben"]))
    assert cli("club", "join", club.url(), "--name", "Table 1", "--data-dir", str(data))[0] == 0
    cli("club", "tournament", "start", "--data-dir", str(data))
    cli("club", "tournament", "add", "Ada", "Ben", "Dan", "--data-dir", str(data))
    cli("club", "tournament", "pair", "--data-dir", str(data))

    status, html = serve(data / "games.sqlite3", _get)

    assert status == 200
    assert "The club: 2 games from 1 kiosk." in html
    assert "&lt;b&gt;Cleo&lt;/b&gt;" in html and "<b>Cleo" not in html
    assert "Round 1, table 1: " in html and "Ada" in html
    status, html = serve(data / "games.sqlite3", lambda c: _get(c, "/league?lang=fr"))
    assert status == 200 and 'lang="fr"' in html


def test_a_kiosk_without_a_club_says_so_and_a_club_away_is_named(
    club: ClubDb, tmp_path: Path
) -> None:
    data = tmp_path / "data"
    store(data, named_game(3, ["Ada", "Ben"]))
    status, html = serve(data / "games.sqlite3", _get)
    assert status == 200 and "This kiosk has joined no club." in html
    assert cli("club", "join", club.url(), "--data-dir", str(data))[0] == 0
    club.server.halt()
    try:
        status, html = serve(data / "games.sqlite3", _get)
    finally:
        club.server.restart()
    assert status == 200 and "nothing answers at 127.0.0.1, port" in html  # and what to do
