"""The app at start: the panel's own orientation, or the rotation deploy.sh or the settings
chose (ui/display.py), on the real window."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from kivy.core.window import Window

from ui.scale import SCALE

from .driver import Driver

Resize = Callable[[tuple[int, int]], None]


@pytest.fixture
def start(
    resized: Resize, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Callable[..., Driver]]:
    """Start the app on a panel of ``size`` with the kiosk's and the settings' rotation."""
    started: list[Driver] = []

    def go(size: tuple[int, int], kiosk: str | None = None, screen: str | None = None) -> Driver:
        if kiosk is None:
            monkeypatch.delenv("SPLENDOR_ROTATION", raising=False)
        else:
            monkeypatch.setenv("SPLENDOR_ROTATION", kiosk)
        data = tmp_path / "data"
        if screen is not None:
            data.mkdir(parents=True, exist_ok=True)
            (data / "settings.ini").write_text(f"[companion]\nrotation = {screen}\n")
        Window.rotation = 0
        resized(size)
        driver = Driver(data)
        started.append(driver)
        return driver

    yield go
    for driver in started:
        driver.close()
    Window.rotation = 0  # before the window gets its usual size back


def test_a_portrait_panel_lays_the_app_out_in_portrait(start: Callable[..., Driver]) -> None:
    start((720, 1280))  # Touch Display 2, nothing chosen
    assert Window.rotation == 0
    assert tuple(Window.size) == (720, 1280)
    assert SCALE.portrait


def test_the_kiosks_landscape_lays_a_portrait_panel_down(start: Callable[..., Driver]) -> None:
    start((720, 1280), kiosk="landscape")  # ./deploy.sh --display touch2-landscape's turn
    assert Window.rotation == 90
    assert tuple(Window.size) == (1280, 720)
    assert not SCALE.portrait


def test_the_seven_inch_stood_up_is_laid_out_in_portrait(start: Callable[..., Driver]) -> None:
    start((800, 480), kiosk="90")  # ./deploy.sh --display 7inch-portrait
    assert tuple(Window.size) == (480, 800)
    assert SCALE.portrait


@pytest.mark.parametrize(
    ("kiosk", "screen", "changed", "after"),
    [
        ("180", "90", "270", 180),  # the kiosk's turn wins, then and after a change
        ("0", "180", "0", 0),  # without the kiosk's turn, the settings screen turns
    ],
)
def test_the_kiosks_turn_wins_over_the_settings_screens_and_only_it(
    start: Callable[..., Driver], kiosk: str, screen: str, changed: str, after: int
) -> None:
    driver = start((800, 480), kiosk=kiosk, screen=screen)
    assert Window.rotation == 180
    # Changed on the settings screen.
    driver.app.config.set("companion", "rotation", changed)
    driver.app.on_config_change(driver.app.config, "companion", "rotation", changed)
    assert Window.rotation == after
