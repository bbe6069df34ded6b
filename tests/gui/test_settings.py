"""The app's own settings screen: every setting with its name, its value and a line on
what it does, in the reader's language; choices are big buttons and apply at once (a
language, a rotation) without losing the game in progress; the values stay in
``settings.ini`` under their old keys; legible at 800x480, 480x320 and 720x1280."""

from __future__ import annotations

import configparser
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory
from kivy.core.window import Window
from kivy.tests.common import UnitTestTouch
from kivy.uix.widget import Widget

from companion import i18n
from companion.engine.simulate import simulate
from companion.journal.store import GameState
from companion.records.record import Record
from ui import settings_items
from ui.settings_items import ITEMS, SECTIONS, choices
from ui.settings_screen import Tile

from . import legible
from .driver import Driver, draw

SIZES = [(800, 480), (480, 320), (720, 1280)]


def tr(message: str) -> str:
    return i18n.translate(message)


def open_settings(d: Driver) -> None:
    d.app.show_start()
    d.frames(2)
    d.press(tr("Settings"))
    assert d.app.manager.current == "settings"


def setting(d: Driver, key: str) -> Tile:
    """The tile of ``key`` in the list, its tab tapped first."""
    title = next(title for title, items in SECTIONS if any(i.key == key for i in items))
    d.press(tr(title), exact=True)
    tile: Tile = d.find(Tile, lambda t: t.key == key)
    return tile


def choice(d: Driver, value: str) -> Tile:
    tile: Tile = d.find(Tile, lambda t: t.value == value)
    return tile


def choose(d: Driver, key: str, value: str) -> None:
    d.tap(setting(d, key))
    d.tap(choice(d, value))


def saved(d: Driver) -> configparser.SectionProxy:
    """``settings.ini`` as it is on disk (Kivy's file, read by the standard library)."""
    ini = configparser.ConfigParser()
    ini.read(d.data_dir / "settings.ini", encoding="utf-8")
    return ini["companion"]


def words(tile: Tile) -> list[str]:
    return [line[0] for line in tile.lines]


def game_in_progress(d: Driver) -> int:
    game = simulate(players=3, seed=4, max_moves=20)
    gid = d.app.store.import_record(Record.of(game), GameState.of(game))
    d.app.resume(gid)
    d.frames(2)
    return gid


def tap_turned(d: Driver, widget: Widget) -> None:
    """A tap on a turned screen: the panel reports where the finger is on the glass (its
    own axes, as fractions), Kivy turns it into the picture's (``to_absolute_pos``)."""
    x, y = widget.to_window(*widget.center)
    width, height = Window.size
    across, up = x / (width - 1), y / (height - 1)
    glass = {
        0: (across, up),
        90: (1 - up, across),
        180: (1 - across, 1 - up),
        270: (up, 1 - across),
    }[Window.rotation]
    touch = UnitTestTouch(glass[0] * (width - 1), glass[1] * (height - 1))
    touch.touch_down()
    d.frames(1)
    touch.touch_up()
    d.frames(2)


@pytest.fixture
def rotation() -> Iterator[None]:
    yield
    Window.rotation = 0  # one window for the whole run: upright again for the next test
    for _ in range(3):
        draw()


@pytest.mark.parametrize("language", ["en", "fr"])
def test_every_setting_says_its_name_its_value_and_what_it_does(
    language: str, tmp_path: Path
) -> None:
    d = Driver(tmp_path / "data", language=language)
    try:
        open_settings(d)
        for title, items in SECTIONS:
            d.press(tr(title), exact=True)
            for item in items:
                tile = d.find(Tile, lambda t, key=item.key: t.key == key)
                value = d.app.setting(item.key)
                assert words(tile) == [tr(item.name), item.words(value), tr(item.explain)]
        shown = d.texts()
        assert "Close" not in shown  # Kivy's panel said it in English in every language
        if language == "fr":
            assert "Retour" in shown and "Back" not in shown
            d.press("Général")
            assert words(setting(d, "dim_after"))[1] == "après 5 minutes"
            assert "Langue" in d.texts() and "Language" not in d.texts()
    finally:
        d.close()


def _walks() -> list[object]:
    """Each size in one language by default, as the walks of every screen: French, whose
    words are longest, on the two landscape sizes, English on the portrait one; the other
    pairings in the long run."""
    default = {((800, 480), "fr"), ((480, 320), "fr"), ((720, 1280), "en")}
    return [
        pytest.param(
            language,
            size,
            id=f"{language}-{size[0]}x{size[1]}",
            marks=() if (size, language) in default else pytest.mark.long,
        )
        for size in SIZES
        for language in ("en", "fr")
    ]


@pytest.mark.parametrize(("language", "size"), _walks())
def test_every_view_of_the_settings_reads_and_taps_at_each_size(
    language: str,
    size: tuple[int, int],
    tmp_path: Path,
    resized: Callable[[tuple[int, int]], None],
) -> None:
    d = Driver(tmp_path / "data", language=language)
    try:
        d.app.config.set(
            "companion", "rfid_port", "/dev/serial/by-id/usb-1a86_USB_Serial-if00-port0"
        )
        resized(size)
        open_settings(d)
        found: list[str] = []
        for title, items in SECTIONS:
            d.press(tr(title), exact=True)
            d.frames(2)
            found += legible.faults(f"settings, {title}", d.top())
            for item in items:
                d.tap(d.find(Tile, lambda t, key=item.key: t.key == key))
                d.frames(2)
                assert tr(item.explain) in d.texts()
                found += legible.faults(f"settings, {item.key}", d.top())
                d.press(tr("Back"), exact=True)
        assert not found, "\n".join(found)
    finally:
        d.close()


@pytest.mark.long  # pictures to look at; every view is measured in the default run
def test_settings_screenshots(tmp_path: Path, resized: Callable[[tuple[int, int]], None]) -> None:
    """Pictures of the screen to look at (in a temporary folder): two sizes, two languages."""
    for language in ("en", "fr"):
        d = Driver(tmp_path / f"data-{language}", language=language)
        try:
            for width, height in ((800, 480), (720, 1280)):
                resized((width, height))
                open_settings(d)
                d.frames(2)
                shot = d.screenshot_to(tmp_path / f"settings-{width}x{height}-{language}.png")
                assert shot.stat().st_size > 0
                d.tap(setting(d, "pin_undo"))
                d.screenshot_to(tmp_path / f"settings-pin-{width}x{height}-{language}.png")
                d.press(tr("Back"), exact=True)
                d.press(tr("Back"), exact=True)
        finally:
            d.close()


def test_a_new_language_applies_at_once_and_the_game_goes_on(tmp_path: Path) -> None:
    d = Driver(tmp_path / "data")
    try:
        game_id = game_in_progress(d)
        session = d.app.table_screen.session
        assert session is not None
        moves = len(session.game.moves)
        d.press("Menu")
        d.press("Settings")
        d.tap(setting(d, "language"))
        assert [t.value for t in d.walk() if isinstance(t, Tile)] == list(i18n.LANGUAGES)
        d.tap(choice(d, "fr"))
        # At once: this screen, and every other one, in French; kept for the next start.
        assert i18n.language() == "fr"
        assert words(setting(d, "language"))[:2] == ["Langue", "Français"]
        assert saved(d)["language"] == "fr"
        d.press("Retour", exact=True)
        assert d.app.manager.current == "table"
        assert d.app.table_screen.session is session  # the same game, not reloaded
        assert len(session.game.moves) == moves and session.game_id == game_id
        assert d.app.table_screen.buttons.undo_button.text == "Annuler le coup"
    finally:
        d.close()


def test_a_rotation_applies_at_once_and_the_screen_follows(tmp_path: Path, rotation: None) -> None:
    d = Driver(tmp_path / "data")
    try:
        game_in_progress(d)
        session = d.app.table_screen.session
        d.press("Menu")
        d.press("Settings")
        d.tap(setting(d, "rotation"))
        d.tap(choice(d, "90"))
        d.frames(3)
        assert Window.rotation == 90 and Window.size == (480, 800)  # upright, at once
        assert saved(d)["rotation"] == "90"
        tile = d.find(Tile, lambda t: t.key == "rotation")
        assert words(tile)[1] == "90°"
        found = legible.faults("settings, rotated", d.top())
        assert not found, "\n".join(found)
        tap_turned(d, d.button("Back", exact=True))  # a finger on the turned screen
        assert d.app.manager.current == "table" and d.app.table_screen.session is session
    finally:
        d.close()


def test_an_existing_kiosks_settings_are_read_and_kept(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    # A settings.ini written by Kivy's panel in an older version: the same keys.
    (data / "settings.ini").write_text(
        "[companion]\nlanguage = it\nhints = 1\npin_undo = 17\ndim_after = 3\nundo_hold = 2\n",
        encoding="utf-8",
    )
    d = Driver(data)
    try:
        open_settings(d)
        assert words(setting(d, "language"))[1] == "Italiano"
        assert words(setting(d, "hints"))[1] == "On"
        assert words(setting(d, "dim_after"))[1] == "after 3 minutes"  # not among the choices
        assert words(setting(d, "pin_undo"))[1] == "GPIO 17"
        assert words(setting(d, "undo_hold"))[1] == "2 seconds"
        d.tap(setting(d, "dim_after"))
        assert choice(d, "3").lines[0][3] != choice(d, "5").lines[0][3]  # shown as chosen
        d.tap(choice(d, "10"))
        assert saved(d)["dim_after"] == "10" and saved(d)["pin_undo"] == "17"
        assert d.app.setting("dim_after") == "10"
    finally:
        d.close()


def test_a_value_the_kiosk_set_is_shown_with_where_to_change_it(
    driver: Driver, monkeypatch: pytest.MonkeyPatch
) -> None:
    d = driver
    monkeypatch.setenv("SPLENDOR_RFID_PORT", "/dev/ttyAMA0")
    d.app.config.set("companion", "pin_undo", "17")
    open_settings(d)
    port = setting(d, "rfid_port")
    assert words(port)[1].startswith("/dev/ttyAMA0")
    d.tap(port)
    said = d.texts()
    assert "./deploy.sh --rfid-port" in said and "SPLENDOR_RFID_PORT" in said
    tiles = [t for t in d.walk() if isinstance(t, Tile)]
    assert tiles and all(t.disabled for t in tiles)  # changed with deploy.sh only
    assert not [w for w in d.walk() if type(w).__name__ == "TextInput"]
    d.press("Back", exact=True)
    d.tap(setting(d, "rfid_reader"))
    assert "The default" in d.texts()
    assert not choice(d, "pn532").disabled
    d.press("Back", exact=True)
    d.tap(setting(d, "pin_undo"))
    assert "Set on this screen" in d.texts()


def test_a_pin_chosen_rewires_the_buttons_at_once_and_a_refusal_is_said(
    driver: Driver, pins: MockFactory
) -> None:
    d = driver
    d.app.config.set("companion", "rfid_port", "/dev/serial0")  # the Pi's UART: GPIO 14, 15
    d.app.start_hardware()
    open_settings(d)
    choose(d, "pin_undo", "14")
    assert "pin 14 (undo button) is the serial port's TX" in d.texts()
    assert not d.app.hardware.panel.available
    choose(d, "pin_undo", "17")
    assert d.app.hardware.panel.available
    assert saved(d)["pin_undo"] == "17"


def test_the_choices_of_each_setting_include_its_value() -> None:
    for item in ITEMS.values():
        offered = item.choices()
        assert len(set(offered)) == len(offered), item.key
        assert choices(item, "odd") == [*offered, "odd"]


def test_the_ports_found_are_offered_by_the_words_a_person_reads(
    driver: Driver, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    d = driver
    dev = tmp_path / "dev"
    (dev / "serial" / "by-id").mkdir(parents=True)
    adapter = dev / "serial" / "by-id" / "usb-Silicon_Labs_CP2102_USB_to_UART_Bridge-if00-port0"
    adapter.touch()
    (dev / "ttyUSB0").touch()
    (dev / "ttyS4").touch()  # not a reader's: not offered
    monkeypatch.setattr(settings_items, "DEV", dev)
    monkeypatch.setattr(settings_items, "BY_ID", tmp_path / "no-input")
    assert settings_items.found_ports() == [str(adapter), str(dev / "ttyUSB0")]
    open_settings(d)
    d.tap(setting(d, "rfid_port"))
    offered = [t.value for t in d.walk() if isinstance(t, Tile) and t.value is not None]
    assert offered == ["", str(adapter), str(dev / "ttyUSB0")]
    d.tap(choice(d, str(adapter)))
    assert saved(d)["rfid_port"] == str(adapter)
    # The device's own words, whole, on a tile of the 480x320 screen too.
    assert words(setting(d, "rfid_port"))[1] == (
        "usb-Silicon Labs CP2102 USB to UART Bridge-if00-port0"
    )
    assert d.app.hardware.reader is not None and d.app.hardware.reader.port == str(adapter)


def test_the_kiosks_rotation_wins_and_is_shown_with_where_to_change_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, rotation: None
) -> None:
    monkeypatch.setenv("SPLENDOR_ROTATION", "180")  # ./deploy.sh --rotation 180
    d = Driver(tmp_path / "data")
    try:
        assert Window.rotation == 180
        tap_turned(d, d.button("Settings"))
        tap_turned(d, d.button("General"))
        tile = d.find(Tile, lambda t: t.key == "rotation")
        assert words(tile)[1].startswith("180°")
        tap_turned(d, tile)
        said = d.texts()
        assert "SPLENDOR_ROTATION" in said and "./deploy.sh --rotation" in said
        assert all(t.disabled for t in d.walk() if isinstance(t, Tile))
    finally:
        d.close()


def test_a_shape_is_offered_as_well_as_degrees(tmp_path: Path, rotation: None) -> None:
    d = Driver(tmp_path / "data", language="fr")
    try:
        open_settings(d)
        choose(d, "rotation", "portrait")  # the 7-inch panel stood up
        assert saved(d)["rotation"] == "portrait"
        assert Window.rotation == 90 and Window.size[1] > Window.size[0]
        assert words(d.find(Tile, lambda t: t.key == "rotation"))[1] == "Portrait"
    finally:
        d.close()


def test_a_value_that_cannot_be_used_shows_its_default_and_is_mended_here(
    tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "settings.ini").write_text("[companion]\ndim_after = soon\n", encoding="utf-8")
    d = Driver(data)
    try:
        assert "dim_after = soon" in d.texts()  # said at start: change it in Settings
        open_settings(d)
        assert words(setting(d, "dim_after"))[1] == "after 5 minutes"  # the default, used
        d.tap(setting(d, "dim_after"))
        assert "Now: after 5 minutes. The default" in d.texts()
        d.tap(choice(d, "10"))
        assert saved(d)["dim_after"] == "10"
    finally:
        d.close()
