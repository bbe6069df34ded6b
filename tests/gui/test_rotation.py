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


def test_the_kiosks_turn_wins_over_the_settings_screens(start: Callable[..., Driver]) -> None:
    driver = start((800, 480), kiosk="180", screen="90")
    assert Window.rotation == 180
    # Changed on the settings screen: the kiosk's turn still holds.
    driver.app.config.set("companion", "rotation", "270")
    driver.app.on_config_change(driver.app.config, "companion", "rotation", "270")
    assert Window.rotation == 180


def test_without_the_kiosks_turn_the_settings_screen_turns(start: Callable[..., Driver]) -> None:
    driver = start((800, 480), kiosk="0", screen="180")
    assert Window.rotation == 180
    driver.app.config.set("companion", "rotation", "0")
    driver.app.on_config_change(driver.app.config, "companion", "rotation", "0")
    assert Window.rotation == 0
