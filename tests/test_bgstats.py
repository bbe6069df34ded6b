"""The play BG Stats reads: the link of the QR code and `export --format bgstats`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from plays import SHARED_VICTORY, TWO_PLAYER_WIN, against, check_play, import_known

from companion.cli import main
from companion.engine.simulate import simulate
from companion.journal.session import Session
from companion.journal.store import GameState, Store
from companion.records.record import read, replay, write
from companion.reports import bgstats
from companion.reports.export import render


def test_two_player_win_written_as_a_bgstats_play(data: Path, tmp_path: Path) -> None:
    with Store(data / "games.sqlite3") as store:
        (game_id,) = import_known(store, (TWO_PLAYER_WIN,))
    out = tmp_path / "play.json"
    assert main(["export", str(game_id), "--format", "bgstats", "--out", str(out)]) == 0
    check_play(json.loads(out.read_text(encoding="utf-8")), TWO_PLAYER_WIN, minutes=40)


def test_shared_victory_marks_every_winner(data: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with Store(data / "games.sqlite3") as store:
        (game_id,) = import_known(store, (SHARED_VICTORY,))
    assert main(["export", str(game_id), "--format", "bgstats"]) == 0
    play = json.loads(capsys.readouterr().out)
    check_play(play, SHARED_VICTORY, minutes=52)
    assert [p["rank"] for p in play["players"]] == [1, 1, 3]


def test_the_link_holds_the_same_play_url_encoded() -> None:
    record = SHARED_VICTORY.record()
    play = bgstats.play(record, duration_min=52)
    url = bgstats.link(play)
    assert url.startswith("https://app.bgstatsapp.com/createPlay.html?data=%7B")
    query = url.split("?data=", 1)[1]
    # Nothing a URL may not carry as it is: no space, quote, brace or non-ASCII letter.
    assert all(c.isascii() and c not in ' "{}<>' for c in query), query
    assert bgstats.read_link(url) == play
    check_play(bgstats.read_link(url), SHARED_VICTORY, minutes=52)


def test_a_game_keeps_its_play_id_so_a_second_scan_is_the_same_play(data: Path) -> None:
    """Exported twice, or moved to another kiosk as a record and imported there: one id."""
    with Store(data / "games.sqlite3") as store:
        first, second = import_known(store, (TWO_PLAYER_WIN, SHARED_VICTORY))
        record = store.record(first, with_journal=True)
        ids = {bgstats.play(store.record(first))["sourcePlayId"] for _ in range(2)}
        other = bgstats.play(store.record(second))["sourcePlayId"]
    with Store(data / "elsewhere.sqlite3") as elsewhere:
        again = read(write(record))
        moved = elsewhere.import_record(again, GameState.of(replay(again).game))
        ids.add(bgstats.play(elsewhere.record(moved))["sourcePlayId"])
    assert len(ids) == 1
    assert other not in ids


def test_duration_comes_from_the_journal_of_a_game_played_here(data: Path) -> None:
    game = simulate(players=2, seed=3)
    with Store(data / "games.sqlite3") as store:
        session = Session.start(store, game.setup)
        for move in game.moves:
            session.play(move)
        play = bgstats.play(store.record(session.game_id, with_journal=True), duration_min=None)
    assert "durationMin" not in play  # nothing said: BG Stats asks
    with Store(data / "games.sqlite3") as store:
        written = json.loads(render(store.record(session.game_id, with_journal=True), "bgstats"))
    assert written["durationMin"] == 1  # the moves were journaled within a minute


def test_merged_names_are_pushed_as_the_person(
    data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with Store(data / "games.sqlite3") as store:
        (game_id,) = import_known(store, (TWO_PLAYER_WIN,))
        store.merge_name("Marc", "Marc D.")
    assert main(["export", str(game_id), "--format", "bgstats"]) == 0
    players = json.loads(capsys.readouterr().out)["players"]
    assert players[1]["name"] == "Marc D." and players[1]["sourcePlayerId"] == "Marc D."


def test_the_companions_seats_are_their_own_players(
    data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """BG Stats has no field for a player who is not a person: the name says it, in the
    kiosk's language, and the id is never a person's, even one called "Companion (hard)"."""
    both = against(SHARED_VICTORY, ("Companion (hard)", "Robo", "Zoé"), ("person", "hard", "hard"))
    with Store(data / "games.sqlite3") as store:
        (game_id,) = import_known(store, (both,))
        # A person merged into the name the companion's seat had: the seat stays the companion.
        store.merge_name("Robo", "Zoé 2")
    assert main(["export", str(game_id), "--format", "bgstats"]) == 0
    players = json.loads(capsys.readouterr().out)["players"]
    assert [(p["name"], p["sourcePlayerId"]) for p in players] == [
        ("Companion (hard)", "Companion (hard)"),  # a person who chose that name
        ("Companion (hard)", "splendor-companion/hard"),
        ("Companion 2 (hard)", "splendor-companion/hard/2"),
    ]
    assert [p["score"] for p in players] == [15, 15, 14]
    assert [p["winner"] for p in players] == [True, True, False]
    # The same in French, in the file `export --all` writes beside the record.
    out = tmp_path / "stick"
    assert main(["--lang", "fr", "export", "--all", "--to", str(out)]) == 0
    (written,) = out.glob("*.bgstats.json")
    names = [p["name"] for p in json.loads(written.read_text(encoding="utf-8"))["players"]]
    assert names == ["Companion (hard)", "Compagnon (difficile)", "Compagnon 2 (difficile)"]
