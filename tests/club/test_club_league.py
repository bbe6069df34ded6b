"""The club's league: ratings from every kiosk's games, names merged club-wide, and a
tournament night, against a real PostgreSQL."""

from __future__ import annotations

from pathlib import Path

import psycopg
import pytest
from clubdb import ClubDb

from companion.club import ratings, tournament
from companion.club.link import Club, keep_password
from companion.club.pairing import met_pairs, repeats, seat, table_sizes
from companion.club.push import push_waiting
from companion.records.record import Record, replay

from .kiosks import cli, club_rows, named_game, store


def won_by(first: str, names: list[str], seed: int) -> Record:
    """A game of ``names`` in which ``first`` finished first (the seats are turned until the
    random game's winner sits where ``first`` is)."""
    for s in range(seed, seed + 200):
        record = named_game(s, names)
        standings = replay(record).game.standings()
        if standings[0].rank == 1 and (len(standings) == 1 or standings[1].rank > 1):
            winner = standings[0].seat
            order = names[:]
            order[winner], order[names.index(first)] = first, order[winner]
            return named_game(s, order)
    raise AssertionError("no game with a lone winner")


def join(club: ClubDb, data: Path, kiosk: str, role: str = "table1") -> Club:
    member = Club(keep_password(club.url(role)), kiosk)
    from companion.club.link import save

    save(member, data)
    return member


def test_the_standings_rate_people_and_companion_levels(club: ClubDb, data: Path) -> None:
    games = [won_by("Ada", ["Ada", "Ben", "Cleo"], 100 + 10 * i) for i in range(4)]
    hard = named_game(7, ["Ada", "Hal"], [None, "hard"])
    store(data, *games, hard)
    assert cli("club", "join", club.url(), "--name", "Table 1")[0] == 0

    code, out, err = cli("club", "standings")

    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "The club: 5 games from 1 kiosk."
    people = [line.split()[1] for line in lines[1:] if line.strip()[0].isdigit()]
    assert people[0] == "Ada" and set(people[:3]) == {"Ada", "Ben", "Cleo"}
    assert "The companion:" in lines and lines[-1].split()[1] == "hard"
    with psycopg.connect(club.url()) as conn:
        assert len(ratings.history(conn, "Ada")) == 5
        assert ratings.history(conn, "Hal") == []  # the companion's seat is nobody's
        m = ratings.head_to_head(conn, "Ada", "Ben")
    assert (m.games, m.a_ahead, m.a_wins, m.b_wins) == (4, 4, 4, 0)


def test_a_game_arriving_late_rates_as_if_it_came_in_order(club: ClubDb, tmp_path: Path) -> None:
    one, two = tmp_path / "one", tmp_path / "two"
    early = won_by("Ben", ["Ada", "Ben"], 300)
    early.extra["ended_at"] = early.extra["started_at"] = "2026-01-01T20:00:00Z"
    later = []
    for i in range(4):
        game = won_by("Ada", ["Ada", "Ben"], 400 + 10 * i)
        game.extra["started_at"] = game.extra["ended_at"] = f"2026-02-0{i + 1}T20:00:00Z"
        later.append(game)
    store(one, *later)
    store(two, early)
    assert push_waiting(one / "games.sqlite3", join(club, one, "one")).added == 4
    assert push_waiting(two / "games.sqlite3", join(club, two, "two", "table2")).added == 1
    with psycopg.connect(club.url()) as conn:
        ratings.update(conn)
        late = {(r.who, round(r.mu, 9), round(r.sigma, 9)) for r in ratings.standings(conn)}
        steps = [round(s.mu, 9) for s in ratings.history(conn, "Ben")]
        # Everything rated again from the start, in order: the same figures.
        conn.execute("UPDATE rating_state SET names_hash = 'again'")
        conn.commit()
        assert ratings.update(conn) == 5
        fresh = {(r.who, round(r.mu, 9), round(r.sigma, 9)) for r in ratings.standings(conn)}
        assert [round(s.mu, 9) for s in ratings.history(conn, "Ben")] == steps
    assert late == fresh
    assert steps[0] > 25  # Ben's first game, the early one, is a win


def test_a_merge_made_at_one_kiosk_is_seen_at_another(club: ClubDb, tmp_path: Path) -> None:
    one, two = tmp_path / "one", tmp_path / "two"
    store(one, named_game(500, ["Ada", "Ben"]))
    store(two, named_game(501, ["ada", "Ben"]), named_game(502, ["Cleo", "ada"]))
    push_waiting(one / "games.sqlite3", join(club, one, "one"))
    push_waiting(two / "games.sqlite3", join(club, two, "two", "table2"))

    code, out, err = cli("club", "names", "--merge", "ada", "Ada", "--data-dir", str(one))
    assert code == 0, err
    assert "ada now counts as Ada." in out

    code, out, _ = cli("club", "names", "--data-dir", str(two))
    assert out.strip().splitlines() == ["ada counts as Ada"]
    code, out, _ = cli("club", "standings", "--data-dir", str(two))
    ada = next(line for line in out.splitlines() if " Ada " in line)
    assert "(3 games)" in ada and " ada " not in out
    # Two people who met at a table are never merged.
    code, _, err = cli("club", "names", "--merge", "Ben", "Ada", "--data-dir", str(two))
    assert code == 2 and "played in the same game at the club" in err


def test_table_sizes_follow_the_documented_rule() -> None:
    sizes = {n: table_sizes(n) for n in range(2, 14)}
    assert sizes[9] == [3, 3, 3] and sizes[10] == [4, 3, 3] and sizes[13] == [4, 3, 3, 3]
    for n, tables in sizes.items():
        assert sum(tables) == n
        assert all(3 <= t <= 4 for t in tables) or n in (2, 5)


@pytest.mark.parametrize(("players", "rounds"), [(9, 4), (16, 2), (13, 2)])
def test_no_two_people_meet_twice_when_it_can_be_avoided(players: int, rounds: int) -> None:
    order = [f"P{i:02}" for i in range(players)]
    played: list[list[list[str]]] = []
    for _ in range(rounds):
        tables = seat(order, met_pairs(played))
        assert sum(repeats(t, met_pairs(played)) for t in tables) == 0
        assert sorted(p for t in tables for p in t) == order
        played.append(tables)


def test_a_tournament_night(club: ClubDb, tmp_path: Path) -> None:
    kiosks = [tmp_path / f"k{i}" for i in range(3)]
    for i, folder in enumerate(kiosks):
        join(club, folder, f"Table {i + 1}")
    first = str(kiosks[0])
    people = ["Ada", "Ben", "Cleo", "Dan", "Eve", "Fay", "Gus", "Hal", "Ida"]
    assert cli("club", "tournament", "start", "Friday", "--data-dir", first)[0] == 0
    code, out, _ = cli("club", "tournament", "add", *people, "--data-dir", first)
    assert code == 0 and out.strip() == "Players: " + ", ".join(people)

    for round_no in (1, 2):
        code, out, err = cli("club", "tournament", "pair", "--data-dir", first)
        assert code == 0, err
        assert len(out.splitlines()) == 3  # 9 players: 3 + 3 + 3
        code, _, err = cli("club", "tournament", "pair", "--data-dir", first)
        assert code == 2 and f"round {round_no} is still being played at table 1" in err
        seated = []
        for i, folder in enumerate(kiosks):
            code, out, _ = cli("club", "tournament", "table", "--data-dir", str(folder))
            assert out.startswith(f"Round {round_no}, table {i + 1}: ")
            names = out.strip().split(": ", 1)[1].split(", ")
            seated.append(names)
            # Asked again, the same table.
            assert cli("club", "tournament", "table", "--data-dir", str(folder))[1] == out
            store(folder, won_by(names[-1], names, 600 + 40 * round_no + 7 * i))
            push_waiting(folder / "games.sqlite3", Club(keep_password(club.url()), f"T{i}"))
        if round_no == 1:
            first_round = seated
        code, out, _ = cli("club", "tournament", "standings", "--data-dir", first)
        lines = out.splitlines()
        assert len(lines) == 9 and all(f"{round_no} game" in line for line in lines)
    met = met_pairs([first_round])
    assert all(repeats(t, met) == 0 for t in seated)
    with psycopg.connect(club.url()) as conn:
        top = tournament.standings(conn)[0]
    assert top.score == 2.0  # won both rounds' tables
    code, out, _ = cli("club", "tournament", "end", "--data-dir", first)
    assert out.strip() == "Tournament Friday ended."
    assert club_rows(club.owner(), "SELECT count(*) FROM tournament_tables") == [(6,)]
