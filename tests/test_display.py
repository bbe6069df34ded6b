"""ui/display.py: which way up the app draws, from the screen's mode and the rotation chosen.

The screens are small copies of ``/sys/class/drm`` (tests/sysfs.py).
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from companion.errors import ErrorCode, TextError
from tests.sysfs import PI4_HDMI_OFF, TV_MODES, drm_tree
from ui.display import (
    Connector,
    connected_display,
    decide,
    main,
    native_size,
    parse_choice,
    parse_modes,
    read_connectors,
    rotation_for,
    summary,
)

# ---------------------------------------------------------------- the modes file


def test_modes_are_read_preferred_first_interlaced_and_odd_lines_included() -> None:
    assert parse_modes(TV_MODES)[:3] == [(1920, 1080), (1920, 1080), (1280, 720)]
    assert parse_modes("720x1280\n") == [(720, 1280)]
    assert parse_modes("") == []
    assert parse_modes("garbage\n\n 480x320 \n") == [(480, 320)]


# ---------------------------------------------------------------- the connected screen


@pytest.mark.parametrize(
    ("outputs", "name", "size"),
    [
        # The official 7-inch touchscreen on a Pi 4, HDMI unplugged.
        ({**PI4_HDMI_OFF, "card1-DSI-1": ("connected", "800x480\n")}, "DSI-1", (800, 480)),
        # Touch Display 2 on a Pi 5: its DSI on a card of its own.
        (
            {**PI4_HDMI_OFF, "card2-DSI-1": ("connected", "720x1280\n")},
            "DSI-1",
            (720, 1280),
        ),
        # A 3.5-inch SPI screen with a DRM driver turned to landscape by its overlay.
        ({**PI4_HDMI_OFF, "card2-SPI-1": ("connected", "480x320\n")}, "SPI-1", (480, 320)),
        # A television on the second HDMI port.
        (
            {"card1-HDMI-A-1": ("disconnected", ""), "card1-HDMI-A-2": ("connected", TV_MODES)},
            "HDMI-A-2",
            (1920, 1080),
        ),
        # A 1024x600 HDMI panel.
        (
            {"card1-HDMI-A-1": ("connected", "1024x600\n800x600\n640x480\n")},
            "HDMI-A-1",
            (1024, 600),
        ),
    ],
)
def test_the_connected_screen_and_its_preferred_mode(
    tmp_path: Path, outputs: dict[str, tuple[str, str]], name: str, size: tuple[int, int]
) -> None:
    screen = connected_display(read_connectors(drm_tree(tmp_path, outputs)))
    assert screen is not None
    assert (screen.name, screen.size) == (name, size)


def test_the_touch_panel_comes_before_hdmi_on_the_same_card(tmp_path: Path) -> None:
    folder = drm_tree(
        tmp_path,
        {"card1-HDMI-A-1": ("connected", TV_MODES), "card1-DSI-1": ("connected", "800x480\n")},
    )
    screen = connected_display(read_connectors(folder))
    assert screen is not None and screen.name == "DSI-1"


def test_the_first_card_with_a_connected_screen_is_the_one_sdl_takes() -> None:
    hdmi = Connector(card=1, name="HDMI-A-1", connected=True, modes=((1280, 720),))
    spi = Connector(card=2, name="SPI-1", connected=True, modes=((480, 320),))
    assert connected_display([spi, hdmi]) == hdmi


def test_no_screen_connected_or_no_drm_at_all(tmp_path: Path) -> None:
    assert connected_display(read_connectors(drm_tree(tmp_path, PI4_HDMI_OFF))) is None
    assert read_connectors(tmp_path / "no-such-folder") == []
    # Connected but without modes yet (a panel still probing): not a screen to size by.
    folder = drm_tree(tmp_path / "probing", {"card1-DSI-1": ("connected", "")})
    assert connected_display(read_connectors(folder)) is None


def test_a_connector_that_cannot_be_read_is_disconnected(tmp_path: Path) -> None:
    folder = drm_tree(tmp_path, {"card1-DSI-1": ("connected", "800x480\n")})
    (folder / "card1-DSI-1" / "status").unlink()
    [connector] = read_connectors(folder)
    assert not connector.connected


# ---------------------------------------------------------------- the panel's own size


def test_the_full_screen_window_is_the_panels_size(tmp_path: Path) -> None:
    folder = drm_tree(tmp_path, {"card2-DSI-1": ("connected", "720x1280\n")})
    assert native_size((720, 1280), folder) == (720, 1280)


def test_without_a_window_size_the_connected_screen_stands_in(tmp_path: Path) -> None:
    folder = drm_tree(tmp_path, {**PI4_HDMI_OFF, "card2-DSI-1": ("connected", "720x1280\n")})
    assert native_size(None, folder) == (720, 1280)
    assert native_size((0, 0), folder) == (720, 1280)
    assert native_size(None, tmp_path / "nothing") is None


# ---------------------------------------------------------------- the rotation


@pytest.mark.parametrize(
    ("text", "choice"),
    [("90", 90), (" 270 ", 270), ("0", 0), ("Landscape", "landscape"), ("portrait", "portrait")],
)
def test_choices(text: str, choice: object) -> None:
    assert parse_choice(text) == choice


@pytest.mark.parametrize("text", ["45", "-90", "360", "upside", "9O", "9\u2070", "9" * 5000])
def test_what_is_no_rotation_is_refused_saying_the_rotations(text: str) -> None:
    with pytest.raises(TextError) as refused:
        parse_choice(text)
    assert refused.value.code is ErrorCode.BAD_SETTING
    assert "is not a rotation: write 0, 90, 180, 270, landscape or portrait" in str(refused.value)


@pytest.mark.parametrize(
    ("choice", "native", "rotation"),
    [
        ("landscape", (720, 1280), 90),  # Touch Display 2 laid down
        ("landscape", (800, 480), 0),  # the 7-inch is landscape already
        ("portrait", (800, 480), 90),  # the 7-inch stood up: 480x800
        ("portrait", (720, 1280), 0),
        ("portrait", (1920, 1080), 90),
        ("landscape", (600, 600), 0),
        ("landscape", None, 0),  # unknown panel: nothing turned
        (180, (720, 1280), 180),
        (None, (720, 1280), 0),
    ],
)
def test_rotation_for_a_choice_on_a_panel(
    choice: object, native: tuple[int, int] | None, rotation: int
) -> None:
    assert rotation_for(choice, native) == rotation  # type: ignore[arg-type]


def test_with_no_rotation_set_the_panel_keeps_its_own_orientation() -> None:
    decision = decide(None, "0", (720, 1280))
    assert (decision.rotation, decision.source) == (0, "panel")
    assert decision.describe() == "720x1280 portrait, drawn in its own orientation"
    assert decide("0", "", (800, 480)).rotation == 0


def test_the_kiosks_rotation_wins_over_the_settings_screens() -> None:
    decision = decide("landscape", "180", (720, 1280))
    assert (decision.rotation, decision.source) == (90, "kiosk")
    assert decision.describe() == ("720x1280 portrait, rotation 90 (landscape, set by deploy.sh)")
    assert decide("270", "90", (800, 480)).rotation == 270


def test_the_kiosks_default_leaves_the_settings_screen_to_turn() -> None:
    decision = decide("0", "180", (800, 480))
    assert (decision.rotation, decision.source) == (180, "screen")
    assert "set by the settings screen" in decision.describe()


def test_a_bad_rotation_is_said_in_the_log_and_the_app_starts(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.WARNING, logger="ui.display"):
        decision = decide("sideways", "45", (800, 480))
    assert (decision.rotation, decision.source) == (0, "panel")
    said = [record.getMessage() for record in caplog.records]
    assert len(said) == 2
    assert "'sideways' from deploy.sh (SPLENDOR_ROTATION)" in said[0]
    assert "'45' from the settings" in said[1]


# ---------------------------------------------------------------- deploy.sh's note


def test_the_note_says_how_the_app_lays_out_on_the_screen_found(tmp_path: Path) -> None:
    folder = drm_tree(tmp_path, {**PI4_HDMI_OFF, "card2-DSI-1": ("connected", "720x1280\n")})
    assert summary("0", folder) == (
        "DSI-1 720x1280 (portrait): the app lays out in portrait, 720x1280"
    )
    assert summary("landscape", folder) == (
        "DSI-1 720x1280 (portrait): the app lays out in landscape, 1280x720, turned 90"
    )
    assert summary("0", drm_tree(tmp_path / "none", PI4_HDMI_OFF)) is None


def test_the_note_from_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = drm_tree(tmp_path, {"card1-DSI-1": ("connected", "800x480\n")})
    assert main(["--rotation", "90", str(folder)]) == 0
    assert capsys.readouterr().out == (
        "DSI-1 800x480 (landscape): the app lays out in portrait, 480x800, turned 90\n"
    )
    with pytest.raises(SystemExit) as stopped:
        main(["--rotation", "45", str(folder)])
    assert stopped.value.code == 2
    said = capsys.readouterr().err
    assert "--rotation: '45' is not a rotation: write 0, 90, 180, 270, landscape" in said
