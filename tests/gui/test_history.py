"""Taking the game home: the BG Stats code on the end screen, history and statistics, and a
finished game looked back over, move by move. Driven by taps on the real app, in English
and French; screenshots at 800x480 and (in a second process) 1280x720 go to a temporary
folder, or to ``SPLENDOR_SHOTS`` when set, to look at them.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from plays import LOWER_CASE_ZOE, SHARED_VICTORY, TWO_PLAYER_WIN, Known, check_play, import_known

from companion import i18n
from companion.engine.setup import Setup
from companion.engine.simulate import simulate
from companion.i18n import ngettext, number, percent
from companion.journal.store import GameState
from companion.records.movelog import tell
from companion.records.record import Record, document, read_document, replay
from companion.records.timeline import timeline
from companion.reports import bgstats
from companion.reports.stats import player_stats
from ui import theme
from ui.i18n import tr
from ui.screens.tableau import SeatView
from ui.widgets.pieces import NobleView

from .conftest import WINDOW
from .driver import Driver
from .shots import assert_legible, decode_qr, figures, row_text, screenshot, tag


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
    check_play(play, known, minutes)
    assert play["sourcePlayId"] == bgstats.play_id(known.record())
    assert [p["sourcePlayerId"] for p in play["players"]] == list(known.names)
    # Large enough to scan from a chair: whole pixels per module, and a code a hand wide.
    qr = d.app.end_screen.qr
    assert qr.module_px >= 3
    if d.app.root.width > d.app.root.height:
        assert qr.side >= 0.55 * d.app.root.height
    else:  # upright, under the standings: half the width, at whole pixels a module
        assert qr.side >= 0.35 * d.app.root.width


# ---------------------------------------------------------------------- history and statistics


@pytest.fixture(params=["en", "fr"])
def table(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Driver, Path]]:
    """The app in a language, with the three known games in its journal."""
    d = Driver(tmp_path / "data", language=request.param)
    import_known(d.app.store)
    shots = Path(os.environ.get("SPLENDOR_SHOTS", tmp_path / "shots"))
    shots.mkdir(parents=True, exist_ok=True)
    yield d, shots
    d.close()


def reach(d: Driver, shots: Path, button: str, screen: str) -> None:
    """Tap ``button``; ``screen`` shows, legible, and is photographed."""
    d.press(button)
    assert d.app.manager.current == screen
    assert_legible(d)
    screenshot(d, shots, f"{screen}-{tag()}")


def local(moment: str) -> str:
    return datetime.fromisoformat(moment).astimezone().strftime("%Y-%m-%d %H:%M")


def test_history_lists_each_game_and_its_code_opens_the_play(table: tuple[Driver, Path]) -> None:
    d, shots = table
    d.app.show_start()
    d.frames(2)
    reach(d, shots, tr("Past games"), "history")
    rows = d.app.history_screen.rows
    lower, shared, first = (row_text(r) for r in rows.values())  # the most recent first
    # Date (local time), players, winner(s), rounds, length: a shared victory names both.
    assert first == [
        local("2026-11-20T19:00:00Z"),
        "Zoé, Marc",
        "Zoé",
        "35",
        tr("{minutes} min").format(minutes=40),
    ]
    assert shared[1:] == [
        "Zoé, Marc, Lin",
        "Zoé, Marc",
        "33",
        tr("{minutes} min").format(minutes=52),
    ]
    assert lower[1:] == ["zoé, Lin", "Lin", "34", "-"]
    # No journal id on screen: players know their games by date and names.
    assert not any(f"game {i}" in d.texts().lower() for i in rows)
    # The same code as on the end screen, for a game played days ago.
    game_id = next(i for i, r in rows.items() if r.cells[1].text == "Zoé, Marc, Lin")
    d.tap(rows[game_id])
    assert d.app.manager.current == "end"
    url = decode_qr(screenshot(d, shots, f"past-game-{tag()}"))
    play = bgstats.read_link(url)
    assert play["sourcePlayId"] == bgstats.play_id(SHARED_VICTORY.record())
    assert [p["winner"] for p in play["players"]] == [True, True, False]
    assert d.app.end_screen.chart.names == list(SHARED_VICTORY.names)
    d.press(tr("Back"))
    assert d.app.manager.current == "history"


def stats_rows(d: Driver) -> dict[str, list[str]]:
    screen = d.app.manager.get_screen("stats")
    return {name: figures(row) for name, row in screen.rows.items()}


def test_statistics_head_to_head_and_merging_two_spellings(table: tuple[Driver, Path]) -> None:
    d, shots = table
    d.app.show_history()
    d.frames(2)
    reach(d, shots, tr("Statistics"), "stats")
    screen = d.app.manager.get_screen("stats")
    rows = stats_rows(d)
    # What a player reads is the core's figures over the imported games (by hand in
    # tests/test_stats.py): games, wins, rate, averages, favourite bonus, fastest win.
    zoe = rows["Zoé"]
    # Figures as the reader writes numbers: 15.5 and 100% in English, 15,5 and 100 % in French.
    assert zoe[:6] == ["Zoé", "2", "2", percent(1.0), number(15.5, 1), number(34, 1)]
    if i18n.language() == "fr":
        assert zoe[4] == "15,5"
    assert zoe[6] == tr("black")
    minutes = tr("{minutes} min").format(minutes=52)
    day = local("2026-11-21T20:00:00Z")[:10]
    assert zoe[7] == f"{ngettext('{n} round', '{n} rounds', 33).format(n=33)}, {minutes}, {day}"
    assert rows["Lin"][7].split(", ")[0] == ngettext("{n} round", "{n} rounds", 34).format(
        n=34
    )  # no times
    assert rows["zoé"][1:4] == ["1", "0", percent(0)]
    assert d.button(tr("Head to head")).disabled

    # Two taps choose two players, marked by number as well as by the frame.
    d.tap(screen.rows["Zoé"])
    d.tap(screen.rows["Lin"])
    assert stats_rows(d)["Zoé"][0] == "1. Zoé" and stats_rows(d)["Lin"][0] == "2. Lin"
    d.press(tr("Head to head"))
    assert_legible(d)
    screenshot(d, shots, f"versus-{tag()}")
    said = d.texts()
    assert tr("Games together: {games}, tied: {level}").format(games=1, level=0) in said
    d.press(tr("Close"))
    # Two who never met: said in words, not a row of zeros.
    d.tap(screen.rows["Lin"])  # unchosen: Zoé is left
    d.tap(screen.rows["zoé"])
    d.press(tr("Head to head"))
    never = tr("{a} and {b} have not played at the same table yet.").format(a="Zoé", b="zoé")
    assert never in d.texts()
    d.press(tr("Close"))
    d.tap(screen.rows["zoé"])
    d.tap(screen.rows["Lin"])
    assert screen.chosen == ["Zoé", "Lin"]

    # Zoé and Marc sat at one table: never one person, and the reason names the evening.
    d.tap(screen.rows["Lin"])  # unchosen
    d.tap(screen.rows["Marc"])
    d.press(tr("Same person"))
    assert local("2026-11-21T20:00:00Z") in screen.note.text  # the last time they did
    assert list(screen.note.color) == list(theme.ERROR)  # a refusal looks like one
    d.app.say("A reader is unplugged.", True)  # what the app says on any screen, as an error
    assert list(screen.note.color) == list(theme.ERROR)
    assert not d.modals() and d.app.store.aliases() == {}

    # zoé typed in lower case one night is Zoé: merged, figures as one, then separated.
    d.tap(screen.rows["Marc"])
    d.tap(screen.rows["zoé"])
    assert screen.chosen == ["Zoé", "zoé"]
    d.press(tr("Same person"))
    assert_legible(d)
    screenshot(d, shots, f"merge-{tag()}")
    d.press(tr("Count {a} as {b}").format(a="zoé", b="Zoé"))
    assert d.app.store.aliases() == {"zoé": "Zoé"}
    rows = stats_rows(d)
    assert "zoé" not in rows
    assert rows["Zoé"][1:3] == ["3", "2"]
    assert tr("also {names}").format(names="zoé") in rows["Zoé"][0]
    d.press(tr("Merged names"))
    screenshot(d, shots, f"names-{tag()}")
    d.press(tr("Separate"))
    assert d.app.store.aliases() == {}
    assert stats_rows(d)["zoé"][1] == "1"
    assert {s.name for s in player_stats(d.app.store)} == set(stats_rows(d))


# ---------------------------------------------------------------------- a game looked back over


def shown(d: Driver) -> dict[str, Any]:
    """The review screen as a person reads it: bank, market, nobles, each tableau."""
    screen = d.app.manager.get_screen("review")
    seats = [p for p in reversed(screen.players.children) if isinstance(p, SeatView)]
    return {
        "bank": [t.count for t in screen.bank],
        "market": [[v.card.id if v.card else None for v in row] for row in screen.rows],
        "decks": [deck.deck_count for deck in screen.decks],
        "nobles": [w.noble.id for w in screen.nobles.children[::-1] if isinstance(w, NobleView)],
        "seats": [
            (
                s.name_label.text,
                int(s.points_label.text),
                list(s.tokens.values),
                list(s.bonuses.values)[:5],
                [v.children[0].card.id for v in s.reserved.children[::-1] if v.children],
                s.nobles_label.text,
            )
            for s in seats
        ],
    }


def replayed(record: Record, moves: int) -> dict[str, Any]:
    """The same from ``replay`` of the record cut at that move."""
    game = replay(Record(record.setup, record.moves[:moves])).game
    return {
        "bank": list(game.bank),
        "market": [[c.id if c else None for c in row] for row in game.market],
        "decks": [game.deck_size(level) for level in (1, 2, 3)],
        "nobles": [n.id for n in game.nobles],
        "seats": [
            (
                s.name,
                s.points,
                list(s.tokens),
                list(s.bonuses),
                [c.id for c in s.reserved],
                tr("Nobles: {n}").format(n=len(s.nobles)) if s.nobles else "",
            )
            for s in game.seats
        ],
    }


# Each game in one language in the default run, the other pairings in the long run.
@pytest.mark.parametrize(
    ("table", "known"),
    [
        pytest.param("fr", SHARED_VICTORY, id="fr-3p"),
        pytest.param("en", LOWER_CASE_ZOE, id="en-2p"),
        pytest.param("en", SHARED_VICTORY, id="en-3p", marks=pytest.mark.long),
        pytest.param("fr", LOWER_CASE_ZOE, id="fr-2p", marks=pytest.mark.long),
    ],
    indirect=["table"],
)
def test_stepping_through_a_past_game_shows_what_replay_gives(
    table: tuple[Driver, Path], known: Known
) -> None:
    d, shots = table
    record = known.record()
    total = len(record.moves)
    d.app.show_history()
    d.frames(2)
    rows = d.app.history_screen.rows
    d.tap(next(r for r in rows.values() if r.cells[1].text == ", ".join(known.names)))
    d.press(tr("Move by move"))
    assert d.app.manager.current == "review"
    screen = d.app.manager.get_screen("review")
    assert shown(d) == replayed(record, 0)
    assert d.button(tr("Previous")).disabled
    steps = timeline(record)
    for n in range(1, 6):
        d.press(tr("Next"))
        assert shown(d) == replayed(record, n), n
        # Each move is said as the table's move log says it (one wording in the product).
        assert tell(steps[n - 1]) in screen.status.text, n
    assert_legible(d)
    screenshot(d, shots, f"review-{len(known.names)}p-{tag()}")
    d.press(tr("Previous"))
    assert shown(d) == replayed(record, 4)
    d.press(tr("End"))
    assert screen.at == total and shown(d) == replayed(record, total)
    assert d.button(tr("Next")).disabled
    winners = ", ".join(known.winners)
    assert tr("Game over. Won by {names}.").format(names=winners) in screen.status.text
    screenshot(d, shots, f"review-end-{len(known.names)}p-{tag()}")
    # The slider travels far at once; the position is the engine's all the same.
    screen.slider.value = total // 2
    d.frames(1)
    assert shown(d) == replayed(record, total // 2)
    d.press(tr("Start"))
    assert shown(d) == replayed(record, 0)
    # A language chosen in the settings meanwhile: the screen speaks it at once.
    language = i18n.language()
    d.app.switch_language("it")
    d.frames(2)
    assert screen.previous_button.text == "Precedente"
    assert "Mossa" not in screen.status.text  # at the start: the setup is told
    screen.go(1)
    assert screen.status.text.startswith("Mossa 1 di ")
    assert tell(steps[0]) in screen.status.text  # in Italian too
    d.app.switch_language(language)
    # Every position of the game, forward then back, is the one replay gives.
    for n in [*range(1, total + 1), *range(total - 1, -1, -7)]:
        screen.go(n)
        assert shown(d) == replayed(record, n), n
    d.press(tr("Back"))
    assert d.app.manager.current == "end"


# A second process at 1280x720: long, since tests/gui/test_displays.py and
# test_every_display.py walk these screens at every display in this process.
@pytest.mark.long
def test_history_screens_at_1280x720_too() -> None:
    if WINDOW != "800x480":
        pytest.skip("this process is the 1280x720 one")
    env = {**os.environ, "SPLENDOR_TEST_WINDOW": "1280x720"}
    tests = [
        f"{__file__}::{name}"
        for name in (
            "test_history_lists_each_game_and_its_code_opens_the_play",
            "test_statistics_head_to_head_and_merging_two_spellings",
            "test_stepping_through_a_past_game_shows_what_replay_gives",
        )
    ]
    result = subprocess.run(
        [sys.executable, "-m", "pytest", *tests, "-q", "-p", "no:cacheprovider"],
        capture_output=True,
        text=True,
        env=env,
        timeout=900,
        check=False,
    )
    assert result.returncode == 0, result.stdout[-3000:]
    assert "6 passed" in result.stdout  # every parameter of the three ran


def test_a_play_too_long_for_a_code_is_said_not_a_crash(driver: Driver) -> None:
    """Four names of 40 emoji each (a stranger's record): more than a QR code holds, once
    url-encoded (12 characters an emoji, twice a player)."""
    d = driver
    game = simulate(players=4, seed=2)
    names = tuple(chr(0x1F600 + i) * 40 for i in range(4))
    record = Record(Setup(names, game.setup.nobles, game.setup.market), list(game.moves))
    game = replay(record).game
    game_id = d.app.store.import_record(record, GameState.of(game))
    d.app.show_history()
    d.frames(2)
    d.tap(d.app.history_screen.rows[game_id])
    assert d.app.manager.current == "end"
    assert not d.app.end_screen.qr.fits
    assert "too long for a QR code" in d.texts()
    d.tap(d.app.end_screen.qr)
    assert not d.modals()


def test_a_game_whose_journal_cannot_be_read_is_listed_and_said(driver: Driver) -> None:
    d = driver
    first, shared = import_known(d.app.store, (TWO_PLAYER_WIN, SHARED_VICTORY))
    with sqlite3.connect(d.app.store.path) as db:
        db.execute("UPDATE moves SET move = '{' WHERE game_id = ? AND seq = 5", (shared,))
    d.app.show_start()
    d.frames(2)
    d.press(tr("Past games"))
    rows = d.app.history_screen.rows
    assert row_text(rows[shared])[1:] == ["Zoé, Marc, Lin", "Damaged: kept as it is", "-", "-"]
    assert row_text(rows[first])[3] == "35"  # the other games are still counted
    assert "left out of the figures" in d.texts()
    d.tap(rows[shared])
    assert d.app.manager.current == "history"
    assert "unreadable move 5" in d.texts()
    d.press(tr("Statistics"))
    assert set(d.app.manager.get_screen("stats").rows) == {"Zoé", "Marc"}


@pytest.mark.parametrize("started", ["9999-12-31T23:59:59-14:00", "0001-01-01T00:00:00+14:00"])
def test_a_game_an_older_companion_dated_beyond_any_clock_is_listed_and_opens(
    driver: Driver, started: str
) -> None:
    """Import now refuses such a date; a journal written before keeps it. The list shows it
    as written, the game opens with its BG Stats code, and the others are listed too."""
    d = driver
    (first,) = import_known(d.app.store, (TWO_PLAYER_WIN,))
    game = simulate(players=2, seed=7)
    # read_document: the checks of an older companion (no range for its times).
    record = read_document({**document(Record.of(game)), "started_at": started})
    old = d.app.store.import_record(record, GameState.of(replay(record).game))
    d.app.show_start()
    d.frames(2)
    d.press(tr("Past games"))
    rows = d.app.history_screen.rows
    assert set(rows) == {first, old}
    assert row_text(rows[old])[0] == started
    d.tap(rows[old])
    assert d.app.manager.current == "end"
    assert d.app.end_screen.qr.fits
    play = bgstats.read_link(d.app.end_screen.link)
    assert "playDate" not in play  # BG Stats takes the day the play is saved
