"""The other screens a table uses: demo, past games, export to a USB stick, settings, language."""

from __future__ import annotations

import contextlib
import json
import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from companion.engine.cards import CARDS, NOBLES
from companion.engine.naming import card_words
from companion.engine.simulate import simulate
from companion.journal.store import GameState
from companion.records.record import Record, read, replay
from ui.media import removable_media

from .driver import Driver


def store_finished(d: Driver, seeds: list[int]) -> None:
    for seed in seeds:
        game = simulate(players=3, seed=seed)
        d.app.store.import_record(Record.of(game), GameState.of(game))


def test_demo_opens_a_three_player_game_in_progress(tmp_path: Path) -> None:
    d = Driver(tmp_path / "data", demo=True)
    try:
        assert d.app.manager.current == "table"
        session = d.app.table_screen.session
        assert session is not None
        assert len(session.game.names) == 3
        assert len(session.game.moves) > 0
        # The demo keeps out of the table's own games.
        assert not (tmp_path / "data" / "games.sqlite3").exists()
    finally:
        d.close()


def test_demo_4_opens_a_four_player_game_in_progress(tmp_path: Path) -> None:
    from splendor_companion.program import build_parser

    assert build_parser().parse_args(["--demo", "4"]).demo == 4
    assert build_parser().parse_args(["--demo"]).demo == 3
    d = Driver(tmp_path / "data", demo=4)
    try:
        assert d.app.manager.current == "table"
        session = d.app.table_screen.session
        assert session is not None
        assert session.game.names == ("Ada", "Ben", "Cleo", "Dev")
        assert session.game.round > 3 and not session.game.over
    finally:
        d.close()


def test_export_without_a_usb_stick_says_so_clearly(driver: Driver) -> None:
    d = driver
    store_finished(d, [1])
    d.app.show_history()
    d.frames(2)
    if removable_media():
        return  # a real stick is plugged into this machine: nothing to check here
    d.press("Export all")
    assert "No USB stick found: plug one in and try again." in d.texts()


def test_export_writes_records_and_charts_to_the_stick(driver: Driver, tmp_path: Path) -> None:
    d = driver
    store_finished(d, [1, 2])
    stick = tmp_path / "stick"
    stick.mkdir()
    ok, message = d.app.export_to_media(stick / "splendor-games")
    assert ok, message
    assert "2 games exported" in message
    files = sorted(p.suffix for p in (stick / "splendor-games").iterdir())
    assert files == [".csv", ".csv"] + [".json"] * 4 + [".png", ".png", ".txt", ".txt"]
    for path in (stick / "splendor-games").glob("*_g?.json"):
        assert replay(read(path.read_text(encoding="utf-8"))).valid
    png = next((stick / "splendor-games").glob("*.png")).read_bytes()
    assert png.startswith(b"\x89PNG") and len(png) > 5000  # a drawn chart, not an empty image


def test_export_to_the_stick_leaves_a_link_alone_and_writes_the_rest(
    driver: Driver, tmp_path: Path
) -> None:
    from companion.reports.export import file_stem

    d = driver
    store_finished(d, [1, 2])
    stems = [file_stem(info) for info in d.app.store.games()]
    journal = d.app.store.path
    before = journal.read_bytes()
    folder = tmp_path / "stick" / "splendor-games"
    folder.mkdir(parents=True)
    (folder / f"{stems[0]}.png").symlink_to(journal)
    (folder / f"{stems[1]}.csv").symlink_to(journal)
    ok, message = d.app.export_to_media(folder)
    assert not ok
    # The game whose chart alone was refused counts as exported: its records are there.
    assert message.startswith(f"1 game exported to {folder}. cannot write {folder}/")
    assert "it is a link, not a file: remove it or export to another folder" in message
    assert journal.read_bytes() == before
    regular = sorted(p.suffix for p in folder.iterdir() if not p.is_symlink())
    assert regular == [".csv", ".json", ".json", ".json", ".json", ".png", ".txt", ".txt"]


def test_settings_are_never_written_through_a_link(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    victim = tmp_path / "games.sqlite3"
    victim.write_text("[companion]\nhints = 0\n")
    (data / "settings.ini").symlink_to(victim)
    d = Driver(data)
    try:
        d.app.toggle_hints()
        d.frames(2)
        assert "settings.ini: it is a link, not a file: remove it or choose another" in d.texts()
        assert victim.read_text() == "[companion]\nhints = 0\n"
        assert (data / "settings.ini").is_symlink()
    finally:
        d.close()


def test_removable_media_are_found_from_the_mount_table(tmp_path: Path) -> None:
    sys_block = tmp_path / "sys"
    (sys_block / "sda").mkdir(parents=True)
    (sys_block / "sda" / "removable").write_text("1\n")
    (sys_block / "sda" / "sda1").mkdir()
    (sys_block / "sda1").symlink_to(sys_block / "sda" / "sda1")
    (sys_block / "mmcblk0p2").mkdir()
    (sys_block / "mmcblk0p2" / "removable").write_text("0\n")
    stick = tmp_path / "media" / "pi" / "MY STICK"
    stick.mkdir(parents=True)
    mounts = tmp_path / "mounts"
    mounts.write_text(
        "/dev/mmcblk0p2 / ext4 rw,noatime 0 0\n"
        f"/dev/sda1 {str(stick).replace(' ', chr(92) + '040')} vfat rw,relatime 0 0\n"
        "proc /proc proc rw 0 0\n"
    )
    found = removable_media(mounts, sys_block, roots=(str(tmp_path / "media"),))
    assert found == [stick]


def test_history_lists_games_and_opens_a_summary(driver: Driver) -> None:
    d = driver
    store_finished(d, [4])
    d.app.show_history()
    d.frames(2)
    winner = simulate(players=3, seed=4).winners()[0]
    (row,) = d.app.history_screen.rows.values()
    assert [c.text for c in row.cells][1:3] == ["Ada, Ben, Cleo", winner]
    d.tap(row)
    assert d.app.manager.current == "end"
    assert "Final standings" in d.texts()
    d.press("Back")
    assert d.app.manager.current == "history"


def test_language_switches_at_run_time(driver: Driver) -> None:
    d = driver
    d.app.show_start()
    d.frames(2)
    assert "New game" in d.texts()
    d.app.config.set("companion", "language", "it")
    d.app.on_config_change(d.app.config, "companion", "language", "it")
    d.frames(2)
    assert "Nuova partita" in d.texts()
    assert "New game" not in d.texts()


def test_the_app_starts_with_its_start_screen_alone_and_makes_each_other_when_shown(
    driver: Driver,
) -> None:
    """A small Pi starts on the start screen without making the ten others; a screen
    first shown after the language changed reads in the new language, and a screen is
    made once (what it held is still there when it comes back)."""
    from ui.i18n import tr
    from ui.settings_screen import Tile

    d = driver
    assert [s.name for s in d.app.manager.screens] == ["start"]
    d.press("Settings")
    d.tap(d.find(Tile, lambda t: t.key == "language"))
    d.tap(d.find(Tile, lambda t: t.value == "fr"))
    d.press(tr("Back"))
    assert d.app.manager.current == "start"
    d.press(tr("Past games"))
    assert d.app.manager.current == "history"
    assert tr("Past games") != "Past games" and tr("Back") in d.texts()
    history = d.app.history_screen
    d.press(tr("Back"))
    d.press(tr("Past games"))
    assert d.app.history_screen is history
    assert sorted(s.name for s in d.app.manager.screens) == ["history", "settings", "start"]


def test_settings_open_in_the_app(driver: Driver) -> None:
    d = driver
    d.press("Settings")
    d.frames(3)
    assert d.app.manager.current == "settings", "the settings screen is shown"
    d.screenshot("settings-800x480-en")
    d.press("Back")
    assert d.app.manager.current == "start"


def test_hints_highlight_the_cards_the_player_can_afford(driver: Driver) -> None:
    d = driver
    game = simulate(players=2, seed=6, max_moves=30)
    gid = d.app.store.import_record(Record.of(game), GameState.of(game))
    d.app.resume(gid)
    d.frames(2)
    table = d.app.table_screen
    views = [v for row in table.rows for v in row if v.card is not None]
    assert not any(v.highlight for v in views)
    d.press("Menu")
    d.press("Hints: off")
    affordable = {v.card.id for v in views if game.can_afford(game.to_act, v.card)}
    assert {v.card.id for v in views if v.highlight} == affordable


def test_bank_audit_says_which_colour_differs_and_changes_nothing(driver: Driver) -> None:
    d = driver
    d.app.start_game(simulate(players=2, seed=1, max_moves=0).setup)
    d.frames(2)
    session = d.app.table_screen.session
    assert session is not None
    position = session.game.position()
    d.press("Menu")
    d.press("Bank audit")
    # Every pile starts blank: the table counts it, tap by tap (one red fewer than expected).
    plus = [b for b in d.walk() if getattr(b, "text", None) == "+"]
    minus = [b for b in d.walk() if getattr(b, "text", None) == "-"]
    by_x = sorted(range(len(plus)), key=lambda i: plus[i].x)
    for colour, i in enumerate(by_x):
        for _ in range(session.game.bank[colour] - (1 if colour == 3 else 0)):
            d.tap(plus[i])
        if not session.game.bank[colour] - (1 if colour == 3 else 0):
            d.tap(sorted(minus, key=lambda b: b.x)[colour])  # counted: none
    d.press("Check")
    assert "red: 1 missing from the bank" in d.texts()
    assert session.game.position() == position
    d.press("Close")


def rewrite_move_3(journal: Path, game_id: int, move: dict[str, Any]) -> None:
    """Move 3 of a game replaced in the journal's file, as a stranger's program might."""
    with contextlib.closing(sqlite3.connect(journal)) as raw, raw:
        raw.execute(
            "UPDATE moves SET move = ? WHERE game_id = ? AND seq = 3",
            (json.dumps(move), game_id),
        )


def test_a_journal_that_cannot_be_replayed_is_reported_not_a_crash(driver: Driver) -> None:
    d = driver
    game = simulate(players=2, seed=2, max_moves=8)
    gid = d.app.store.import_record(Record.of(game), GameState.of(game))
    rewrite_move_3(d.app.store.path, gid, {"player": 0, "action": "take", "gems": {"red": 3}})
    d.restart()  # the companion is started again on that journal
    d.press("Resume")
    assert d.app.manager.current == "start"
    assert "cannot be resumed: its move 3 is illegal" in d.texts()
    assert len(d.app.store.moves(gid)) == 8  # nothing was thrown away


def test_a_journal_refused_over_a_card_names_the_card_in_words(driver: Driver) -> None:
    d = driver
    game = simulate(players=2, seed=2, max_moves=8)
    seen = {c for row in game.setup.market for c in row} | {m.reveal for m in game.moves}
    card = next(c for c in CARDS.values() if c.level == 3 and c.id not in seen)
    gid = d.app.store.import_record(Record.of(game), GameState.of(game))
    rewrite_move_3(d.app.store.path, gid, {"player": 0, "action": "buy", "card": card.id})
    d.restart()
    d.press("Resume")
    assert "cannot be resumed: its move 3 is illegal" in d.texts()
    # The engine's reason inside says the card as the table does, not by its record id.
    assert card_words(card) in d.texts()
    assert not (set(CARDS) | set(NOBLES)) & set(re.findall(r"\w+", d.texts()))


def test_the_kiosks_reader_settings_come_from_its_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SPLENDOR_RFID_PORT", "/dev/ttyUSB7")
    monkeypatch.setenv("SPLENDOR_RFID_READER", "lines")
    d = Driver(tmp_path / "data")
    try:
        assert d.app.setting("rfid_port") == "/dev/ttyUSB7"
        assert d.app.setting("rfid_reader") == "lines"
        # A port that does not exist: reported, the app goes on (taps still work).
        assert d.app.hardware is not None and d.app.hardware.reader is not None
        d.press("New game")
        assert d.app.manager.current == "newgame"
    finally:
        d.close()
