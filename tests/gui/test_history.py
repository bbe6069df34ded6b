"""Taking the game home: the BG Stats code on the end screen, history and statistics, and a
finished game looked back over, move by move. Driven by taps on the real app."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import zxingcpp
from kivy.core.window import Window
from PIL import Image
from plays import SHARED_VICTORY, TWO_PLAYER_WIN, Known, import_known

from companion import bgstats

from .conftest import WINDOW
from .driver import Driver


def screenshot(d: Driver, folder: Path, name: str) -> Path:
    """The window as a PNG in ``folder`` (a test's own: the suite writes no tracked file)."""
    d.frames(2)
    Window.dispatch("on_draw")
    path = folder / f"{name}.png"
    Path(Window.screenshot(str(path))).replace(path)  # Kivy numbers the file
    return path


def decode_qr(png: Path) -> str:
    """What a phone's camera reads from the screenshot: exactly one QR code."""
    found = zxingcpp.read_barcodes(Image.open(png).convert("L"))
    codes = [b.text for b in found if b.format == zxingcpp.BarcodeFormat.QRCode]
    assert len(codes) == 1, f"QR codes read from {png.name}: {codes}"
    return codes[0]


@pytest.mark.parametrize(
    ("known", "minutes"), [(TWO_PLAYER_WIN, 40), (SHARED_VICTORY, 52)], ids=["win", "shared"]
)
def test_end_screen_code_opens_the_play_in_bgstats(
    driver: Driver, tmp_path: Path, known: Known, minutes: int
) -> None:
    d = driver
    (game_id,) = import_known(d.app.store, (known,))
    d.app.show_past_game(game_id)
    d.frames(3)
    assert d.app.manager.current == "end"
    url = decode_qr(screenshot(d, tmp_path, f"end-bgstats-{len(known.names)}p-{WINDOW}"))
    assert url.startswith("https://app.bgstatsapp.com/createPlay.html?data=")
    play: dict[str, Any] = bgstats.read_link(url)
    assert play["sourceName"] == "Splendor Companion"
    assert play["sourcePlayId"] == bgstats.play_id(known.record())
    assert play["playDate"] == known.extra["started_at"].replace("T", " ").rstrip("Z")
    assert play["durationMin"] == minutes
    assert play["game"] == {
        "name": "Splendor",
        "bggId": 148228,
        "highestWins": True,
        "sourceGameId": "splendor",
    }
    players = play["players"]
    assert [p["name"] for p in players] == list(known.names)
    assert [p["sourcePlayerId"] for p in players] == list(known.names)
    assert [p["score"] for p in players] == list(known.points)
    assert [p["winner"] for p in players] == [n in known.winners for n in known.names]
    assert [p["startPlayer"] for p in players] == [i == 0 for i in range(len(known.names))]
    assert [p["rank"] == 1 for p in players] == [p["winner"] for p in players]
    # Large enough to scan from a chair: whole pixels per module, and a code a hand wide.
    qr = d.app.end_screen.qr
    assert qr.module_px >= 3
    assert qr.module_px * qr._size >= 0.55 * d.app.root.height
