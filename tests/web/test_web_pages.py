"""The web page over HTTP, as a phone or another program meets it: what it shows, what
it refuses, what it never lets out."""

from __future__ import annotations

import hashlib
import json
import re
import sqlite3
from pathlib import Path
from typing import Any

from aiohttp.test_utils import TestClient
from webtools import blind_game, play, serve

from companion.ai.players import make
from companion.coach.plan import Plan
from companion.coach.play import play as ai_play
from companion.engine.rules import BASE
from companion.engine.simulate import simulate
from companion.i18n import set_language
from companion.journal.session import Session
from companion.journal.store import Store, resolve
from companion.reports import bgstats
from companion.reports.export import FORMAT, export_file
from web import views

HOSTILE = ('<script>alert("x")</script>', 'Ann "O\'Hara" & <b>co</b>')


def test_every_page_answers_with_the_safety_headers(journal: Store) -> None:
    session = play(journal, moves=12)

    async def check(client: TestClient[Any, Any]) -> list[tuple[str, int, str, str]]:
        seen = []
        for path in (
            "/",
            "/live/table",
            "/games",
            f"/games/{session.game_id}",
            f"/games/{session.game_id}?move=3",
            "/stats",
            "/api/v1/table",
            "/api/v1/games",
            f"/api/v1/games/{session.game_id}",
            "/static/style.css",
            "/no/such/page",
        ):
            response = await client.get(path)
            seen.append(
                (
                    path,
                    response.status,
                    response.headers.get("Content-Security-Policy", ""),
                    response.headers.get("X-Content-Type-Options", ""),
                )
            )
        return seen

    for path, status, policy, sniff in serve(journal.path, check):
        assert status == (404 if path == "/no/such/page" else 200), path
        assert policy.startswith("default-src 'self'"), path
        assert sniff == "nosniff", path


def test_only_get_and_head_are_answered(journal: Store) -> None:
    play(journal, moves=2)

    async def check(client: TestClient[Any, Any]) -> list[tuple[int, str]]:
        out = []
        for method, path in (
            ("POST", "/"),
            ("PUT", "/api/v1/games"),
            ("DELETE", "/games/1"),
            ("PATCH", "/no/such/page"),
            ("OPTIONS", "/"),
        ):
            response = await client.request(method, path, data=b"x" * 10)
            out.append((response.status, response.headers.get("Allow", "")))
        head = await client.head("/")
        out.append((head.status, "HEAD"))
        return out

    results = serve(journal.path, check)
    assert results[:-1] == [(405, "GET, HEAD")] * 5
    assert results[-1] == (200, "HEAD")


def test_a_game_number_is_a_bounded_whole_number(journal: Store) -> None:
    session = play(journal, moves=4)

    async def check(client: TestClient[Any, Any]) -> dict[str, int]:
        paths = (
            "/games/0",
            "/games/999",
            "/games/9223372036854775808",
            "/games/99999999999999999999999",
            "/games/-1",
            "/games/1e3",
            "/api/v1/games/999",
            f"/games/{session.game_id}?move=abc",
            f"/games/{session.game_id}?move=-1",
            f"/games/{session.game_id}?move=99999999",
            f"/games/{session.game_id}?move=9999",
            f"/games/{session.game_id}/export/exe",
        )
        return {p: (await client.get(p)).status for p in paths}

    found = serve(journal.path, check)
    assert found.pop(f"/games/{session.game_id}?move=9999") == 200  # the last move shown
    for path in (f"/games/{session.game_id}?move={v}" for v in ("abc", "-1", "99999999")):
        assert found.pop(path) == 400
    assert set(found.values()) == {404}, found


def test_no_path_from_a_request_reaches_the_filesystem(journal: Store) -> None:
    play(journal, moves=2)

    async def check(client: TestClient[Any, Any]) -> list[tuple[int, str]]:
        out = []
        for path in (
            "/static/../../pyproject.toml",
            "/static/%2e%2e/%2e%2e/pyproject.toml",
            "/static/..%2fserver.py",
            "/static/server.py",
            "/static/",
            "/static",
            "/static/style.css/",
            "/templates/base.html",
        ):
            response = await client.get(path)
            out.append((response.status, await response.text()))
        return out

    for status, body in serve(journal.path, check):
        assert status == 404
        assert "import" not in body and "[project]" not in body and "{%" not in body


def test_hostile_names_show_as_text(journal: Store) -> None:
    session = play(journal, players=2, moves=6)
    # Names the new-game screen refuses, as an old journal or a foreign tool may hold them:
    # written into the file directly.
    with sqlite3.connect(journal.path) as db:
        db.execute(
            "UPDATE games SET players = ? WHERE id = ?",
            (json.dumps(["Eve\u202etxt.exe", HOSTILE[0]]), session.game_id),
        )
    other = Session.start(journal, play_setup(HOSTILE))
    other.play("take WUG")

    async def check(client: TestClient[Any, Any]) -> list[str]:
        return [
            await (await client.get(path)).text()
            for path in ("/", "/games", f"/games/{other.game_id}", "/api/v1/table", "/api/v1/games")
        ]

    for body in serve(journal.path, check):
        assert "<script>alert" not in body
        assert "<b>co</b>" not in body
        assert "\u202e" not in body and "\\u202e" not in body
    live, games, game, api, _games = serve(journal.path, check)
    assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;" in live
    assert "Ann &#34;O&#39;Hara&#34; &amp; &lt;b&gt;co&lt;/b&gt;" in game
    assert "Evetxt.exe" in games
    assert json.loads(api)["table"]["players"][0]["name"] == HOSTILE[0]


def play_setup(names: tuple[str, ...]) -> Any:
    from companion.engine.setup import Setup

    return Setup.of(
        list(names),
        ["N1", "N2", "N3"],
        ["1W1 1W2 1W3 1W4", "2W1 2W2 2W3 2W4", "3W1 3W2 3W3 3W4"],
    )


def test_a_blind_reserve_never_leaves_the_kiosk(journal: Store) -> None:
    session, card = blind_game(journal)

    async def check(client: TestClient[Any, Any]) -> list[str]:
        return [
            await (await client.get(path)).text()
            for path in (
                "/",
                "/live/table",
                "/api/v1/table",
                f"/games/{session.game_id}",
                f"/api/v1/games/{session.game_id}",
            )
        ]

    bodies = serve(journal.path, check)
    for body in bodies:
        assert card not in body
    reserved = [p["reserved"] for p in json.loads(bodies[2])["table"]["players"]]
    assert {"level": int(card[0]), "hidden": True} in [c for r in reserved for c in r]


def test_downloads_are_the_export_files_byte_for_byte(journal: Store, tmp_path: Path) -> None:
    session = play(journal, players=3, seed=4)
    assert session.game.over
    journal.merge_name("Ben", "Benjamin")  # the BG Stats play names the person

    async def check(client: TestClient[Any, Any]) -> dict[str, tuple[bytes, str]]:
        out = {}
        for lang in ("en", "fr"):
            for fmt in FORMAT:
                response = await client.get(f"/games/{session.game_id}/export/{fmt}?lang={lang}")
                assert response.status == 200
                out[f"{lang}-{fmt}"] = (
                    await response.read(),
                    response.headers["Content-Disposition"],
                )
        return out

    got = serve(journal.path, check)
    record = journal.record(session.game_id, with_journal=True)
    aliases = journal.aliases()
    for lang in ("en", "fr"):
        set_language(lang)
        for fmt in FORMAT:
            path = tmp_path / f"{lang}.{FORMAT[fmt].suffix}"
            export_file(record, fmt, path, lambda n: resolve(aliases, n))
            body, disposition = got[f"{lang}-{fmt}"]
            assert hashlib.sha256(body).digest() == hashlib.sha256(path.read_bytes()).digest()
            assert disposition.startswith("attachment;")
    set_language("en")
    assert got["fr-txt"][0] != got["en-txt"][0]  # in the page's language


def test_a_game_being_played_offers_no_download(journal: Store) -> None:
    session = play(journal, moves=10)

    async def check(client: TestClient[Any, Any]) -> tuple[int, str]:
        response = await client.get(f"/games/{session.game_id}/export/json")
        page = await (await client.get(f"/games/{session.game_id}")).text()
        return response.status, page

    status, page = serve(journal.path, check)
    assert status == 404
    assert "/export/" not in page


def test_the_bg_stats_link_is_the_end_screens(journal: Store) -> None:
    session = play(journal, players=2, seed=2)
    assert session.game.over

    async def check(client: TestClient[Any, Any]) -> str:
        return await (await client.get(f"/games/{session.game_id}")).text()

    page = serve(journal.path, check)
    link = bgstats.link(bgstats.stored_play(journal, session.game_id))
    escaped = link.replace("&", "&amp;").replace('"', "&#34;")
    assert f'href="{escaped}"' in page
    assert bgstats.read_link(link) == bgstats.stored_play(journal, session.game_id)


def test_the_language_follows_the_browser_and_the_address(journal: Store) -> None:
    play(journal, moves=3)

    async def check(client: TestClient[Any, Any]) -> list[str]:
        return [
            await (await client.get("/", headers={"Accept-Language": "fr-CH, en;q=0.5"})).text(),
            await (await client.get("/?lang=sv", headers={"Accept-Language": "fr"})).text(),
            await (await client.get("/?lang=xx")).text(),
        ]

    french, swedish, english = serve(journal.path, check)
    assert '<html lang="fr">' in french and "Tour de table" in french
    assert '<html lang="sv">' in swedish and 'href="/games?lang=sv"' in swedish
    assert '<html lang="en">' in english and "Round" in english


def test_the_api_is_versioned_json(journal: Store) -> None:
    session = play(journal, players=3, moves=7)

    async def check(client: TestClient[Any, Any]) -> list[Any]:
        out = []
        for path in ("/api/v1/table", "/api/v1/games", f"/api/v1/games/{session.game_id}?move=2"):
            response = await client.get(path)
            assert response.content_type == "application/json"
            out.append(await response.json())
        return out

    table, games, game = serve(journal.path, check)
    assert table["api"] == games["api"] == game["api"] == 1
    assert table["table"]["move"] == 7 and table["table"]["round"] == 3
    assert table["running"] is True  # the journal's writer (the app) is open
    assert [g["id"] for g in games["games"]] == [session.game_id]
    assert game["table"]["move"] == 2 and len(game["table"]["log"]) == 2
    assert sum(table["table"]["bank"].values()) + sum(
        p["token_count"] for p in table["table"]["players"]
    ) == sum(table["table"]["bank"].values()) + sum(
        sum(p["tokens"].values()) for p in table["table"]["players"]
    )
    text = json.dumps([table, games, game])
    assert "sqlite" not in text and str(Path.home()) not in text


def test_no_path_or_setting_is_shown(journal: Store) -> None:
    play(journal, moves=3)
    (journal.path.parent / "settings.ini").write_text("[companion]\nrfid_port = /dev/secret\n")

    async def check(client: TestClient[Any, Any]) -> list[str]:
        return [await (await client.get(p)).text() for p in ("/", "/games", "/stats", "/x")]

    for body in serve(journal.path, check, settings_file=journal.path.parent / "settings.ini"):
        assert str(journal.path.parent) not in body
        assert "secret" not in body and "games.sqlite3" not in body


def test_a_language_link_never_leads_elsewhere(journal: Store) -> None:
    play(journal, moves=1)

    async def check(client: TestClient[Any, Any]) -> list[str]:
        return [
            await (await client.get(path)).text()
            for path in ("/%2Fevil.example/x", "/no/page?x=%22%3E&lang=fr", "/games/1?move=1&z=1")
        ]

    for body in serve(journal.path, check):
        assert "evil.example" not in body and "z=1" not in body and "?x=" not in body
        assert 'href="/?lang=sv"' in body or 'href="/games/1?move=1&amp;lang=sv"' in body


def test_a_game_under_other_rules_says_its_own_winning_points(journal: Store) -> None:
    short = BASE.variant(reserve_limit=1, winning_points=10, token_limit=9)
    game = ai_play([make("medium", seed=5), make("easy", seed=5)], seed=5, rules=short)
    session = Session.start(journal, game.setup)
    for move in game.moves[:-1]:  # Ada has 10 points: Ben plays the last turn
        session.play(move)

    async def check(client: TestClient[Any, Any]) -> tuple[str, Any]:
        page = await (await client.get("/")).text()
        api = await (await client.get("/api/v1/table")).json()
        return page, api

    page, api = serve(journal.path, check)
    assert "Final round: a player has 10 points; the round is played to its end." in page
    assert re.search(r">\d+/9</span>", page) and "/10</span>" not in page  # each hand's total
    assert api["table"]["final_round"] and api["table"]["winning_points"] == 10
    session.play(game.moves[-1])
    chart = views.chart(journal.record(session.game_id))
    assert chart["goal"] == 10 and chart["top"] == 10  # the line at 10, the top at the best


def test_the_statistics_are_the_kiosks(journal: Store) -> None:
    """Per player, head to head, and against the companion level by level: the figures
    of ``splendor-companion stats``, games with the companion counted apart."""
    first, second = play(journal, seed=1), play(journal, seed=2)
    game = simulate(players=2, seed=3)
    against = Session.start(journal, game.setup, {"app": Plan.new([None, "hard"]).app()})
    for move in game.moves:
        against.play(move)
    wins = [s.game.winners() for s in (first, second)]

    async def check(client: TestClient[Any, Any]) -> tuple[str, str]:
        page = await (await client.get("/stats")).text()
        head = await (await client.get("/stats?a=Ada&b=Ben")).text()
        return page, head

    page, head = (" ".join(re.sub("<[^>]+>", " ", t).split()) for t in serve(journal.path, check))
    per_player = page.split("Head to head")[0]
    ada_wins = sum("Ada" in w for w in wins)
    # The game against the companion is not among Ada's: it is counted under its level.
    # (Each figure follows its label, which a phone shows and a wide screen leaves to the
    # table's head.)
    assert f"Ada Games 2 Wins {ada_wins} ({ada_wins * 50}%)" in per_player
    assert "Companion (hard): 1 game, won by the people:" in page
    assert "Ada against Ben: 2 games together" in head


def test_times_are_the_kiosks_local_time_written_the_languages_way(
    journal: Store, monkeypatch: Any
) -> None:
    """The journal keeps UTC; a page shows the kiosk's own time (the server runs on the
    kiosk), written as each language writes a date (Babel)."""
    import time
    from datetime import UTC, datetime

    journal.clock = lambda: datetime(2026, 11, 21, 20, 15, tzinfo=UTC)
    session = play(journal, moves=4)
    monkeypatch.setenv("TZ", "Europe/Paris")  # UTC+1 in November
    time.tzset()
    try:

        async def check(client: TestClient[Any, Any]) -> list[str]:
            return [
                await (await client.get(path)).text()
                for path in (
                    "/games?lang=en",
                    f"/games/{session.game_id}?lang=fr",
                    "/games?lang=sv",
                )
            ]

        games_en, game_fr, games_sv = serve(journal.path, check)
    finally:
        monkeypatch.undo()
        time.tzset()
    assert "Nov 21, 2026, 9:15\u202fPM" in games_en  # CLDR writes a narrow space before PM
    assert "21 nov. 2026, 21:15" in game_fr and "UTC" not in game_fr
    assert "21 nov. 2026 21:15" in games_sv
    assert 'datetime="2026-11-21T20:15:00Z"' in games_en  # the moment itself, for a machine
