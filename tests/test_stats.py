"""Statistics from imported records, against the same figures worked out by hand."""

from __future__ import annotations

import sqlite3
import unicodedata
from dataclasses import replace
from pathlib import Path

import pytest
from plays import AGAINST_COMPANION, KNOWN, LOWER_CASE_ZOE, TWO_PLAYER_WIN, import_known

from companion.cli import main
from companion.engine.tokens import Colour
from companion.journal.store import Store, StoreError
from companion.records.record import write
from companion.reports.stats import (
    against_companion,
    head_to_head,
    played_games,
    player_stats,
    stats_of,
)

# By hand, from the standings of the three known games (tests/plays.py):
#   game 1, 35 rounds, 40 min: Zoé 16 (wins), Marc 8
#   game 2, 33 rounds, 52 min: Zoé 15 and Marc 15 (shared victory), Lin 14
#   game 3, 34 rounds:         zoé 10, Lin 19 (wins)
# Bonuses (cards bought per colour): Zoé 7 white, 7 blue, 8 green, 8 red, 10 black;
# Marc 9 white, 3 blue, 6 green, 10 red, 8 black; Lin 7 white, 7 blue, 13 green...


@pytest.fixture
def store(tmp_path: Path) -> Store:
    s = Store(tmp_path / "games.sqlite3")
    import_known(s)
    return s


def test_per_player_figures_match_the_hand_count(store: Store) -> None:
    lines = {s.name: s for s in player_stats(store)}
    assert [s.name for s in player_stats(store)] == ["Zoé", "Lin", "Marc", "zoé"]
    zoe, marc, lin, lower = lines["Zoé"], lines["Marc"], lines["Lin"], lines["zoé"]
    assert (zoe.games, zoe.wins, zoe.win_rate) == (2, 2, 1.0)
    assert zoe.average_points == 15.5 and zoe.average_rounds == 34.0
    assert zoe.favourite_bonus is Colour.BLACK
    assert zoe.fastest_win is not None and zoe.fastest_win.rounds == 33
    assert zoe.fastest_win.minutes == 52
    assert (marc.games, marc.wins, marc.win_rate) == (2, 1, 0.5)
    assert marc.average_points == 11.5 and marc.favourite_bonus is Colour.RED
    assert (lin.games, lin.wins, lin.average_points, lin.average_rounds) == (2, 1, 16.5, 33.5)
    assert lin.favourite_bonus is Colour.GREEN
    assert lin.fastest_win is not None and lin.fastest_win.rounds == 34
    assert lin.fastest_win.minutes is None  # imported without times
    assert (lower.games, lower.wins, lower.win_rate, lower.fastest_win) == (1, 0, 0.0, None)


def test_merging_two_spellings_counts_them_as_one_person_and_can_be_undone(store: Store) -> None:
    store.merge_name("zoé", "Zoé")
    lines = {s.name: s for s in player_stats(store)}
    assert "zoé" not in lines
    zoe = lines["Zoé"]
    assert (zoe.games, zoe.wins) == (3, 2)
    assert zoe.average_points == pytest.approx(41 / 3) and zoe.average_rounds == 34.0
    h = head_to_head(played_games(store), "Zoé", "Lin")
    assert (h.games, h.a_ahead, h.b_ahead, h.level) == (2, 1, 1, 0)
    assert (h.a_wins, h.b_wins, h.a_points, h.b_points) == (1, 1, 12.5, 16.5)
    # The merge is stored: it holds after the journal is closed and opened again.
    path = store.path
    store.close()
    with Store(path) as again:
        assert again.aliases() == {"zoé": "Zoé"}
        again.unmerge_name("zoé")
        assert {s.name for s in player_stats(again)} == {"Zoé", "Marc", "Lin", "zoé"}


def test_head_to_head_counts_a_shared_victory_as_level(store: Store) -> None:
    h = head_to_head(played_games(store), "Zoé", "Marc")
    assert (h.games, h.a_ahead, h.b_ahead, h.level, h.a_wins, h.b_wins) == (2, 1, 0, 1, 2, 1)
    assert (h.a_points, h.b_points) == (15.5, 11.5)


def test_two_people_who_sat_at_one_table_cannot_be_merged(store: Store) -> None:
    with pytest.raises(StoreError, match="played in the same game"):
        store.merge_name("Marc", "Zoé")
    assert store.aliases() == {}
    store.merge_name("zoé", "Zoé")
    with pytest.raises(StoreError, match="already counted as Zoé"):
        store.merge_name("zoé", "Zoé")


def test_a_filter_narrows_every_figure(store: Store) -> None:
    """The seam for "games against the companion apart": any test on a game line."""
    two_player = player_stats(store, include=lambda g: len(g.players) == 2)
    assert {s.name: s.games for s in two_player} == {"Zoé": 1, "Marc": 1, "Lin": 1, "zoé": 1}


def test_stats_and_names_on_the_command_line(
    store: Store, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store.close()
    folder = ["--data-dir", str(tmp_path)]
    assert main([*folder, "names", "--merge", "zoé", "Zoé"]) == 0
    assert main([*folder, "stats"]) == 0
    out = capsys.readouterr().out
    assert "Zoé: 3 games, 2 wins (67%), 13.7 points and 34.0 rounds" in out
    assert "Fastest win: 33 rounds (52 min), game 2" in out
    assert main([*folder, "stats", "--vs", "Zoé", "Lin"]) == 0
    assert "2 games together; Zoé ahead 1, Lin ahead 1, tied 0;" in capsys.readouterr().out
    assert main([*folder, "names", "--unmerge", "zoé"]) == 0
    assert main([*folder, "stats"]) == 0
    assert "zoé: 1 game, 0 wins" in capsys.readouterr().out


def test_figures_of_records_imported_from_files_match_the_hand_count(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The way games reach another kiosk: record files, `import`, then the figures."""
    folder = ["--data-dir", str(tmp_path / "data")]
    for n, known in enumerate(KNOWN):
        path = tmp_path / f"game{n}.json"
        path.write_text(write(known.record()), encoding="utf-8")
        assert main([*folder, "import", str(path)]) == 0
    capsys.readouterr()
    with Store(tmp_path / "data" / "games.sqlite3") as store:
        lines = {s.name: s for s in player_stats(store)}
    # By hand (see the top of this file): Zoé won both her games, 16 and 15 points.
    assert (lines["Zoé"].games, lines["Zoé"].wins, lines["Zoé"].average_points) == (2, 2, 15.5)
    assert (lines["Marc"].wins, lines["Marc"].average_rounds) == (1, 34.0)
    assert (lines["Lin"].average_points, lines["Lin"].favourite_bonus) == (16.5, Colour.GREEN)
    assert lines["Zoé"].fastest_win is not None and lines["Zoé"].fastest_win.rounds == 33


def test_a_game_whose_journal_cannot_be_read_is_left_out_and_reported(store: Store) -> None:
    broken = store.games()[0].id
    with sqlite3.connect(store.path) as db:
        db.execute("UPDATE moves SET move = 'not json' WHERE game_id = ? AND seq = 3", (broken,))
    unreadable: list[StoreError] = []
    games = played_games(store, unreadable=unreadable)
    assert [err.params["id"] for err in unreadable] == [broken]
    assert len(games) == 2 and broken not in {g.id for g in games}


def test_the_same_spelling_written_two_ways_is_one_player(tmp_path: Path) -> None:
    """``Zoé`` typed at the kiosk (one é) and from a file written elsewhere (e + accent)."""
    decomposed = unicodedata.normalize("NFD", "Zoé") + " "
    assert decomposed != "Zoé"
    elsewhere = replace(LOWER_CASE_ZOE, names=(decomposed, "Lin"))
    with Store(tmp_path / "games.sqlite3") as store:
        import_known(store, (TWO_PLAYER_WIN, elsewhere))
        lines = {s.name: s for s in player_stats(store)}
    assert set(lines) == {"Zoé", "Marc", "Lin"}
    assert (lines["Zoé"].games, lines["Zoé"].wins, lines["Zoé"].average_points) == (2, 1, 13.0)


# By hand, the companion's games (tests/plays.py, AGAINST_COMPANION) beside the three above:
#   hard: Zoé 16 beats it; it beats Zoé 19 to 10        -> 2 games, people won 1
#   easy: it shares the victory with Marc at 15, Zoé 14  -> 1 game, people won 1 (Marc's)
@pytest.fixture
def with_companion(store: Store) -> Store:
    import_known(store, AGAINST_COMPANION)
    return store


def test_games_against_the_companion_are_counted_apart_per_level(with_companion: Store) -> None:
    games = played_games(with_companion)
    between = {s.name: s for s in stats_of(g for g in games if not g.against_companion)}
    # Between people, the figures are those of the three people's games, unchanged.
    assert {n: (s.games, s.wins) for n, s in between.items()} == {
        "Zoé": (2, 2),
        "Marc": (2, 1),
        "Lin": (2, 1),
        "zoé": (1, 0),
    }
    levels = against_companion(games)
    assert [(lv.level, lv.games, lv.people_wins) for lv in levels] == [
        ("easy", 1, 1),
        ("hard", 2, 1),
    ]
    easy, hard = levels
    assert {s.name: (s.games, s.wins, s.average_points) for s in hard.players} == {
        "Zoé": (2, 1, 13.0)
    }
    assert {s.name: (s.games, s.wins) for s in easy.players} == {"Marc": (1, 1), "Zoé": (1, 0)}
    assert hard.win_rate == 0.5
    # The companion is never a person: no line, no head to head, whatever it was called.
    assert "Companion" not in {s.name for lv in levels for s in lv.players}
    assert head_to_head(games, "Zoé", "Companion").games == 0


def test_a_person_of_the_companions_name_stays_a_person(with_companion: Store) -> None:
    """Someone typed "Companion" as their name one night: a person like any other, whose
    games and merges never take in the companion's seats."""
    record = replace(TWO_PLAYER_WIN, names=("Companion", "Lin"), winners=("Companion",))
    import_known(with_companion, (record,))
    lines = {s.name: s for s in player_stats(with_companion)}
    assert (lines["Companion"].games, lines["Companion"].wins) == (1, 1)
    # Zoé played the companion called "Companion": that person can still be merged into her.
    with_companion.merge_name("Companion", "Zoé")
    games = played_games(with_companion)
    zoe = {s.name: s for s in stats_of(g for g in games if not g.against_companion)}["Zoé"]
    assert (zoe.games, zoe.wins) == (3, 3)
    hard = next(lv for lv in against_companion(games) if lv.level == "hard")
    # The hard companion's win over Zoé stays its own, not a win of the merged person.
    assert [(s.name, s.games, s.wins) for s in hard.players] == [("Zoé", 2, 1)]
    assert hard.people_wins == 1
