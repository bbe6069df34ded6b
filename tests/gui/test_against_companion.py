"""The companion's games in the history, the statistics and the BG Stats code, through the
real app in English and French: never a person, counted apart, its level shown.

The games are those of tests/plays.py (AGAINST_COMPANION, by hand there) beside the three
games between people. Screenshots go to a temporary folder, or to ``SPLENDOR_SHOTS``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from kivy.core.window import Window
from kivy.uix.label import Label
from plays import (
    AGAINST_COMPANION,
    EASY_SHARES_WITH_MARC,
    HARD_BEATS_ZOE,
    import_known,
)

from companion.engine.setup import Setup
from companion.engine.simulate import simulate
from companion.i18n import ngettext, number, percent
from companion.journal.store import GameState
from companion.records.record import Record, replay
from companion.reports import bgstats
from ui.i18n import tr
from ui.scale import SCALE
from ui.screens.listing import Row
from ui.widgets.text import text_width

from .conftest import forget_drawn
from .driver import Driver
from .legible import measure
from .shots import assert_legible, decode_qr, figures, row_text, screenshot, tag


@pytest.fixture(params=["en", "fr"])
def table(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Driver, Path]]:
    """The app in a language, with the people's three games and the companion's three."""
    d = Driver(tmp_path / "data", language=request.param)
    import_known(d.app.store)
    import_known(d.app.store, AGAINST_COMPANION)
    shots = Path(os.environ.get("SPLENDOR_SHOTS", tmp_path / "shots"))
    shots.mkdir(parents=True, exist_ok=True)
    yield d, shots
    d.close()


def companion(level: str) -> str:
    """``Companion (hard)`` as the screens and BG Stats say it, in the app's language."""
    return tr("Companion ({level})").format(level=tr(level))


def tap_row(d: Driver, row: Row) -> None:
    """A person scrolls the list to the row, then taps it."""
    row.parent.parent.scroll_to(row, padding=0, animate=False)
    d.frames(2)
    d.tap(row)


def panel_texts(d: Driver) -> list[str]:
    """What the panel over the screen says, and only it."""
    (panel,) = d.modals()
    return [w.text for w in panel.walk(restrict=True) if isinstance(w, Label) and w.text]


def test_statistics_count_the_games_against_the_companion_apart(
    table: tuple[Driver, Path],
) -> None:
    d, shots = table
    d.app.show_history()
    d.frames(2)
    d.press(tr("Statistics"))
    screen = d.app.manager.get_screen("stats")
    # Between people: the three people's games only, as the core counts them by hand.
    assert set(screen.rows) == {"Zoé", "Marc", "Lin", "zoé"}
    assert figures(screen.rows["Zoé"])[1:4] == ["2", "2", percent(1.0)]
    assert figures(screen.rows["Marc"])[1:3] == ["2", "1"]
    assert tr("Statistics: between people") in d.texts()
    assert tr("Companion") not in d.texts()
    assert_legible(d)
    screenshot(d, shots, f"stats-people-{tag()}")

    d.press(tr("Against the companion"))
    assert tr("Statistics: against the companion") in d.texts()
    # Level by level, easiest first: the games, how many the people won.
    assert list(screen.level_lines) == ["easy", "hard"]
    for level, games, wins, rate in (("easy", 1, 1, 1.0), ("hard", 2, 1, 0.5)):
        said = tr("{companion}: {games}, won by the people: {wins} ({rate})").format(
            companion=companion(level),
            games=ngettext("{n} game", "{n} games", games).format(n=games),
            wins=wins,
            rate=percent(rate),
        )
        assert screen.level_lines[level].text == said
    # Each person's line at each level; the companion has none, under any name.
    assert set(screen.level_rows) == {("easy", "Marc"), ("easy", "Zoé"), ("hard", "Zoé")}
    zoe_hard = figures(screen.level_rows[("hard", "Zoé")])
    assert zoe_hard[:5] == ["Zoé", "2", "1", percent(0.5), number(13.0, 1)]
    rounds = ngettext("{n} round", "{n} rounds", 35).format(n=35)
    assert zoe_hard[5].startswith(rounds)  # her win over it, 16 to 8
    assert figures(screen.level_rows[("easy", "Marc")])[1:3] == ["1", "1"]
    assert figures(screen.level_rows[("easy", "Zoé")])[1:3] == ["1", "0"]
    assert_legible(d)
    screenshot(d, shots, f"stats-companion-{tag()}")

    # Head to head from this view: two people, over every game both played, the
    # companion's seat never one of them (Zoé and Marc: 2 games between them, 1 beside it).
    tap_row(d, screen.level_rows[("hard", "Zoé")])
    tap_row(d, screen.level_rows[("easy", "Marc")])
    d.press(tr("Head to head"))
    said = panel_texts(d)
    assert tr("Games together: {games}, tied: {level}").format(games=3, level=1) in said
    assert not any(tr("Companion") in text for text in said)
    assert_legible(d)
    screenshot(d, shots, f"stats-companion-versus-{tag()}")
    d.press(tr("Close"))
    # Back between people: the same two still chosen, marked by number.
    d.press(tr("Between people"))
    assert screen.chosen == ["Zoé", "Marc"]
    assert figures(screen.rows["Marc"])[0] == "2. Marc"


def test_history_shows_the_companions_seats_with_their_level(
    table: tuple[Driver, Path],
) -> None:
    d, shots = table
    store = d.app.store
    # A game against the companion still in play: its seats say so too.
    game = simulate(players=2, seed=8)
    setup = Setup(("Lin", "Robo"), game.setup.nobles, game.setup.market)
    playing = store.create_game(
        setup, extra={"app": {"name": "splendor-companion", "seats": ["person", "medium"]}}
    )
    d.app.show_history()
    d.frames(2)
    rows = {i: row_text(r) for i, r in d.app.history_screen.rows.items()}
    by_players = {tuple(r[1:3]): r for r in rows.values()}
    hard = f"Companion ({tr('hard')})"  # the seat's name as typed, then its level
    assert ("Zoé, " + hard, "Zoé") in by_players  # ZOE_BEATS_HARD
    assert ("Zoé, " + hard, hard) in by_players  # HARD_BEATS_ZOE: it won
    easy = f"Companion ({tr('easy')})"
    assert (f"{easy}, Marc, Zoé", f"{easy}, Marc") in by_players  # a shared victory
    assert rows[playing][1] == f"Lin, Robo ({tr('medium')})"
    # Games between people are as they were: no level beside anyone.
    assert "Zoé, Marc, Lin" in {r[1] for r in rows.values()}
    assert len(rows) == len(AGAINST_COMPANION) + 3 + 1
    assert_legible(d)
    screenshot(d, shots, f"history-companion-{tag()}")


def test_the_code_of_a_game_against_the_companion_names_it(table: tuple[Driver, Path]) -> None:
    """The phone reads the companion as its own player, in the kiosk's language, with an
    id no person's name gives (BG Stats' play has no field for a player who is not one)."""
    d, shots = table
    d.app.show_history()
    d.frames(2)
    for known, level in ((HARD_BEATS_ZOE, "hard"), (EASY_SHARES_WITH_MARC, "easy")):
        record = known.record()
        game_id = next(g.id for g in d.app.store.games() if g.players == known.names)
        d.app.show_past_game(game_id)
        d.frames(3)
        play = bgstats.read_link(decode_qr(screenshot(d, shots, f"end-{level}-{tag()}")))
        assert play["sourcePlayId"] == bgstats.play_id(record)
        seat = known.names.index("Companion")
        players = play["players"]
        assert players[seat]["name"] == companion(level)
        assert players[seat]["sourcePlayerId"] == f"splendor-companion/{level}"
        assert [p["score"] for p in players] == list(known.points)
        assert [p["winner"] for p in players] == [n in known.winners for n in known.names]
        people = [p["sourcePlayerId"] for i, p in enumerate(players) if i != seat]
        assert people == [n for n in known.names if n != "Companion"]


def test_the_end_screen_says_which_level_played(
    table: tuple[Driver, Path], drawn: list[tuple[str, float]]
) -> None:
    """The standings and the chart's legend name the companion's seat with its level, as
    the history does; the people's seats as they were typed."""
    d, shots = table
    for known, level in ((HARD_BEATS_ZOE, "hard"), (EASY_SHARES_WITH_MARC, "easy")):
        game_id = next(g.id for g in d.app.store.games() if g.players == known.names)
        d.app.show_past_game(game_id)
        d.frames(3)
        seat = f"Companion ({tr(level)})"  # the seat's name at the table, then its level
        standings = [w.text for w in d.walk() if isinstance(w, Label) and ". " in w.text]
        (line,) = [s for s in standings if "Companion" in s]
        assert "Companion" in known.winners  # it won both, alone and shared: first
        assert line.startswith(f"1. {seat}, ")
        assert not [s for s in standings if "Marc (" in s or "Zoé (" in s]
        forget_drawn(drawn)
        d.app.end_screen.chart.redraw()
        legends = [t for t, _ in drawn if t.endswith(")") and "(" in t]
        for name, points in zip(known.names, known.points, strict=True):
            assert f"{seat if name == 'Companion' else name} ({points})" in legends
        screenshot(d, shots, f"end-level-{level}-{tag()}")
        faults, _ = measure(d.top())
        assert not faults, "; ".join(faults)


def test_four_seats_with_two_companions_fit_the_end_screen(
    table: tuple[Driver, Path], drawn: list[tuple[str, float]]
) -> None:
    """Four long legends (two companions with their levels): every seat named whole with
    its points, the companions with their levels, wrapped between words where the chart
    is narrow, inside the chart and the screen, no word under the floor."""
    d, shots = table
    game = simulate(players=4, seed=9)
    names = ("Companion", "Maximilien", "Companion 2", "Anne-Sophie")
    record = Record(
        Setup(names, game.setup.nobles, game.setup.market),
        list(game.moves),
        {"app": {"name": "splendor-companion", "seats": ["hard", "person", "medium", "person"]}},
    )
    game_id = d.app.store.import_record(record, GameState.of(replay(record).game))
    d.app.show_past_game(game_id)
    d.frames(3)
    seats = (f"Companion ({tr('hard')})", f"Companion 2 ({tr('medium')})")
    shown = d.texts()
    assert all(f". {seat}, " in shown for seat in seats)
    forget_drawn(drawn)
    chart = d.app.end_screen.chart
    chart.redraw()
    points = {s.player: s.points for s in replay(record).game.standings()}
    titles = (seats[0], "Maximilien", seats[1], "Anne-Sophie")
    said = [f"{title} ({points[name]})" for title, name in zip(titles, names, strict=True)]
    assert [" ".join(entry.lines) for entry in chart.legend] == said
    texts = {t for t, _ in drawn}
    left = chart.to_window(chart.x, chart.y)[0]
    for entry in chart.legend:
        assert entry.font >= SCALE.min_text
        assert all(line in texts for line in entry.lines), (entry.lines, texts)
        x, _ = chart.to_window(entry.x, entry.top)
        widest = max(text_width(line, entry.font) for line in entry.lines)
        assert left <= x and x + widest <= min(left + chart.width, Window.width), entry
        assert entry.top - len(entry.lines) * entry.font * 1.2 >= chart.y, entry
    screenshot(d, shots, f"end-two-companions-{tag()}")
    faults, _ = measure(d.top())
    assert not faults, "; ".join(faults)
