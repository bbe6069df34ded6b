"""The app always starts: a data folder it cannot use, no temporary folder
either, settings it cannot take, a damaged game in the journal. Each is said on the
screen and in the log, and play goes on."""

from __future__ import annotations

import logging
import sqlite3
import tempfile
from pathlib import Path

import pytest
from kivy.core.window import Window

from companion.engine.simulate import simulate
from companion.journal.store import GameState
from companion.records.record import Record
from ui.i18n import tr
from ui.settings import DEFAULTS

from .driver import Driver


def started(data: Path) -> Driver:
    d = Driver(data)
    d.app.show_start()
    d.frames(2)
    return d


def play_a_move(d: Driver) -> None:
    """A new game and its first move: what the table does after the start screen."""
    d.app.start_game(simulate(players=2, seed=3, max_moves=0).setup)
    d.frames(2)
    assert d.app.manager.current == "table"
    d.app.table_screen.session.play("take WUG")
    assert d.app.store.moves(d.app.table_screen.session.game_id)


def test_a_data_folder_that_is_a_file_starts_on_a_temporary_journal(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    data = tmp_path / "data"
    data.write_text("not a folder")
    with caplog.at_level(logging.WARNING):
        d = started(data)
    try:
        said = d.texts()
        assert "cannot create the folder" in said
        assert "temporary journal" in said
        assert "The settings cannot be kept" in said
        assert "temporary journal" in caplog.text
        assert d.app.store.saved and d.app.store.path.parent != data
        play_a_move(d)
    finally:
        d.close()
    assert data.read_text() == "not a folder"  # nothing of the person's was touched


def test_with_no_temporary_folder_either_the_app_starts_and_says_play_is_not_saved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    data = tmp_path / "data"
    data.write_text("not a folder")
    nowhere = tmp_path / "tmp"
    nowhere.write_text("not a folder either")
    monkeypatch.setattr(tempfile, "tempdir", str(nowhere))  # TMPDIR unusable
    with caplog.at_level(logging.WARNING):
        d = started(data)
    try:
        assert "the games are not saved" in d.texts()
        assert "the games are not saved" in caplog.text
        assert not d.app.store.saved
        play_a_move(d)  # the table plays on all the same
    finally:
        d.close()


def settings_file(data: Path, **values: str) -> None:
    data.mkdir(parents=True, exist_ok=True)
    lines = "".join(f"{key} = {value}\n" for key, value in values.items())
    (data / "settings.ini").write_text("[companion]\n" + lines)


@pytest.mark.parametrize(
    "values",
    [
        {"rotation": "abc"},
        {"rotation": "45"},
        {"rotation": "9" * 5000},
        {"rfid_baud": "9" * 5000},
        {"dim_after": "nan", "undo_hold": "1e999", "pin_undo": "9" * 5000},
        {"language": "klingon", "hints": "maybe"},
    ],
    ids=["abc", "45", "digits", "baud", "numbers", "words"],
)
def test_a_setting_that_cannot_be_used_falls_back_to_its_default_and_is_said(
    tmp_path: Path, values: dict[str, str], caplog: pytest.LogCaptureFixture
) -> None:
    data = tmp_path / "data"
    settings_file(data, **values)
    with caplog.at_level(logging.WARNING):
        d = started(data)
    try:
        said = d.texts()
        for key in values:
            assert f"The setting {key} = " in said, key
            assert f"The setting {key} = " in caplog.text
            assert d.app.setting(key) == DEFAULTS[key]
        assert "9" * 100 not in said  # a long value is shortened, not poured on the screen
        assert Window.rotation == 0
        play_a_move(d)
    finally:
        d.close()


def test_a_settings_file_that_is_no_settings_file_is_said(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "settings.ini").write_text("rotation = 90\n\x00\x01 no section\n")
    with caplog.at_level(logging.WARNING):
        d = started(data)
    try:
        assert "cannot be read: the defaults are used" in d.texts()
        assert Window.rotation == 0
    finally:
        d.close()


def test_a_bad_rotation_chosen_while_running_is_refused_not_applied(driver: Driver) -> None:
    d = driver
    d.app.config.set("companion", "rotation", "45")
    d.app.on_config_change(d.app.config, "companion", "rotation", "45")
    d.frames(2)
    assert Window.rotation == 0
    assert "The setting rotation = 45" in d.texts()


def test_past_games_list_a_damaged_game_and_open_the_others(driver: Driver, tmp_path: Path) -> None:
    d = driver
    ids = []
    for seed in (1, 2, 3):
        game = simulate(players=2, seed=seed)
        ids.append(d.app.store.import_record(Record.of(game), GameState.of(game)))
    with sqlite3.connect(d.app.store.path) as db:
        db.execute("UPDATE games SET players = '[\"Ada\", ' WHERE id = ?", (ids[1],))
        db.execute("UPDATE games SET record = '{oops' WHERE id = ?", (ids[2],))
    d.press(tr("Past games"))
    rows = d.app.history_screen.rows
    assert set(rows) == set(ids)  # one damaged game never hides the others
    texts = [label.text for label in rows[ids[1]].cells]
    assert texts[1:3] == ["?", "Damaged: kept as it is"]
    assert "left out of the figures" in d.texts()
    d.tap(rows[ids[2]])
    assert d.app.manager.current == "history"
    assert f"Game {ids[2]} in the journal cannot be read: its setup is damaged" in d.texts()
    ok, said = d.app.export_to_media(tmp_path / "usb")  # the USB stick: the others go
    assert not ok and said.startswith("1 game exported to")
    assert f"ame {ids[1]} in the journal cannot be read" in said
    assert {p.suffix for p in (tmp_path / "usb").iterdir()} >= {".json", ".png"}
    d.tap(d.app.history_screen.rows[ids[0]])
    assert d.app.manager.current == "end"
    with sqlite3.connect(d.app.store.path) as db:  # kept, as it was
        kept = db.execute("SELECT players FROM games WHERE id = ?", (ids[1],)).fetchone()
    assert kept == ('["Ada", ',)


@pytest.mark.parametrize("kind", ["not-utf8", "deep", "pipe"])
def test_a_hostile_tag_file_never_stops_the_app_with_a_reader_set(
    tmp_path: Path, kind: str
) -> None:
    """The reader's port set in the settings, and beside the journal a tags file with
    bytes that are not UTF-8, nested 200,000 deep, or a pipe (which would hold whoever
    waits on it): the app reaches its start screen and says so in one line."""
    import os

    data = tmp_path / "data"
    master, slave = os.openpty()
    try:
        settings_file(data, rfid_port=os.ttyname(slave), rfid_reader="rdm6300")
        tags = data / "rfid-tags.json"
        if kind == "pipe":
            os.mkfifo(tags)
        else:
            tags.write_bytes(b"\xff\xfe{" if kind == "not-utf8" else b"[" * 200_000)
        d = started(data)
        try:
            assert d.app.manager.current == "start"
            said = [n for n in d.app.notices if "rfid-tags.json" in n]
            assert len(said) == 1 and "\n" not in said[0], d.app.notices
            assert said[0] in d.texts()  # on the start screen, beside the reader's line
            assert d.app.hardware is not None and d.app.hardware.tags is not None
            play_a_move(d)
        finally:
            d.close()
    finally:
        os.close(master)
        os.close(slave)


def test_a_journal_of_a_newer_companion_is_said_in_the_pages_words(tmp_path: Path) -> None:
    """The app refuses a journal a newer companion wrote (it cannot read it) and plays in
    a temporary one, saying the same sentence as the commands and the web page."""
    from companion.journal.store import JOURNAL_STATES

    data = tmp_path / "data"
    data.mkdir()
    from companion.journal.store import Store

    Store(data / "games.sqlite3").close()
    raw = sqlite3.connect(data / "games.sqlite3")
    raw.execute("PRAGMA user_version=99")  # as a newer companion leaves it
    raw.commit()
    raw.close()
    d = started(data)
    try:
        assert JOURNAL_STATES["newer-journal"] in d.texts()  # type: ignore[index]
        assert "temporary journal" in d.texts()
        play_a_move(d)
    finally:
        d.close()
