"""A tournament night run from the kiosk's screen against the club's real PostgreSQL:
started, the players present typed on the keyboard or tapped among the club's names, a
round seated and its tables shown with the standings, the night ended; each state
measured (text and target floors, nothing cut or overlapping) at the three window sizes,
in English and French. Screenshots go to a temporary folder, or to ``SPLENDOR_SHOTS``."""

from __future__ import annotations

import datetime
import os
import time
from pathlib import Path

import psycopg
import pytest
from club.kiosks import cli, named_game, store
from clubdb import ClubDb

from companion import i18n
from companion.club import tournament

from .driver import Driver
from .legible import faults

SIZES = ((800, 480), (720, 1280), (480, 320))


def _answered(d: Driver, name: str) -> None:
    screen = d.app.manager.get_screen(name)
    end = time.monotonic() + 20
    while screen.asking and time.monotonic() < end:
        d.wait(0.05)
    d.frames(3)
    assert not screen.asking


def _look(d: Driver, shots: Path, state: str) -> None:
    """Each size: a screenshot, and what a person could not read or tap, named."""
    found: list[str] = []
    for w, h in SIZES:
        d.resize(w, h)
        d.frames(3)
        d.screenshot_to(shots / f"tournament-{state}-{i18n.language()}-{w}x{h}.png")
        found += faults(f"{state} ({i18n.language()})", d.top())
    d.resize(800, 480)
    d.frames(3)
    assert not found, "\n".join(found)


def _type(d: Driver, name: str) -> None:
    """``name`` typed key by key on the screen's keyboard (a capital, then small letters)."""
    for letter in name.upper():
        d.press(letter, exact=True)


# French in the default run (its words are the longer), English in the long run.
@pytest.mark.parametrize("language", [pytest.param("en", marks=pytest.mark.long), "fr"])
def test_an_organiser_runs_a_tournament_night_from_the_kiosk(
    club: ClubDb, tmp_path: Path, language: str
) -> None:
    data = tmp_path / "data"
    shots = Path(os.environ.get("SPLENDOR_SHOTS", tmp_path / "shots"))
    shots.mkdir(parents=True, exist_ok=True)
    store(data, named_game(1, ["Ada", "Ben"]), named_game(2, ["Ada", "Ben", "Cleo"]))
    assert cli("club", "join", club.url(), "--name", "Table 1", "--data-dir", str(data))[0] == 0
    d = Driver(data, language=language)
    en = language == "en"
    try:
        d.app.history_screen.show_stats()
        d.frames(2)
        d.press("Club")
        _answered(d, "club")
        d.press("Tournament" if en else "Tournoi", exact=True)
        _answered(d, "tournament")
        assert d.app.manager.current == "tournament"
        _look(d, shots, "none-open")

        d.press("Start a tournament" if en else "Commencer un tournoi")
        _answered(d, "tournament")
        with psycopg.connect(club.url()) as conn:
            started = tournament.current(conn)
        # Named for the night and its date, in the kiosk's language: the club's past
        # nights are told apart.
        today = i18n.day(datetime.date.today())
        name = f"Tournament night, {today}" if en else f"Soirée de tournoi du {today}"
        assert started is not None and started.name == name, started
        heading = "Tournament: {name}" if en else "Tournoi\u00a0: {name}"
        assert heading.format(name=name) in d.texts(), d.texts()

        # The club's names, a tap each; a new one typed on the keyboard, then Add.
        for name in ("Ada", "Ben", "Cleo"):
            d.press(name, exact=True)
            _answered(d, "tournament")
        _type(d, "Dan")
        d.press("Add" if en else "Ajouter", exact=True)
        _answered(d, "tournament")
        _type(d, "Eve")
        d.press("Add" if en else "Ajouter", exact=True)
        _answered(d, "tournament")
        with psycopg.connect(club.url()) as conn:
            night = tournament.current(conn)
            assert night is not None
            assert tournament.players(conn, night.id) == ["Ada", "Ben", "Cleo", "Dan", "Eve"]
        _look(d, shots, "players")
        d.press("Eve", exact=True)  # a tap takes a player out
        _answered(d, "tournament")
        d.press("Add" if en else "Ajouter", exact=True)  # nothing typed: said, nothing sent
        assert ("Type a name first." if en else "Tapez d'abord un nom.") in d.texts()

        # At 480x320 the keyboard takes the screen while a name is typed.
        d.resize(480, 320)
        d.press("Type a name" if en else "Tapez un nom")
        d.frames(3)
        _type(d, "Fay")
        found = faults(f"typing ({language})", d.top())
        d.screenshot_to(shots / f"tournament-typing-{language}-480x320.png")
        assert not found, "\n".join(found)
        d.press("Add" if en else "Ajouter", exact=True)
        _answered(d, "tournament")
        d.press("Done" if en else "Terminé", exact=True)
        d.resize(800, 480)
        d.frames(3)

        d.press("Seat the next round" if en else "Placer la ronde suivante")
        assert d.app.manager.current == "club"
        _answered(d, "club")
        texts = d.texts()
        assert ("Round 1, table 1: " if en else "Ronde 1, table 1\xa0: ") in texts
        # This kiosk's table, one tap from its game: the Club view's.
        assert d.button("Start this table's game" if en else "Lancer la partie de cette table")
        _look(d, shots, "round-1")

        d.press("Tournament" if en else "Tournoi", exact=True)
        _answered(d, "tournament")
        d.press("End the tournament" if en else "Terminer le tournoi")
        d.frames(2)
        _look(d, shots, "end-asked")
        buttons = d.top().buttons.children  # Cancel, then End: the last added first
        d.tap(buttons[0])
        _answered(d, "tournament")
        with psycopg.connect(club.url()) as conn:
            assert tournament.current(conn) is None
        assert ("Start a tournament" if en else "Commencer un tournoi") in [
            b.text for b in d.walk() if hasattr(b, "text")
        ]
    finally:
        d.close()
