"""The review checked (companion/coach/verify.py, ``review_bench --verify``): a deeper search
confirms a blunder it names, games are played on to their end from reviewed positions, and the
calibration table and Brier score are made from what was said and won. Small budgets: the
figures are printed by the benchmark, never asserted."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from plays import blunder

from companion.coach import review_bench
from companion.coach.review import review
from companion.coach.verify import Said, brier, calibration, check_advice, play_out, table_game


def test_a_deeper_search_confirms_a_winning_buy_passed_up() -> None:
    record, number, _card = blunder()
    done = review(record, 12)
    checked = {c.number: c for c in check_advice(record, done, 48, seed=3)}
    assert number in checked
    assert checked[number].confirmed and checked[number].margin > 0.2
    assert checked[number].players == 2


def test_reviewed_positions_are_played_on_to_the_end_for_every_seat() -> None:
    record = table_game(1)  # three players
    assert len(record.players) == 3
    cut = type(record)(record.setup, record.moves[:24])
    done = review(cut, 6)
    said = play_out(cut, done, 6, seed=1, every=12)
    # Moves 12 and 24: three seats each, their chances said adding up to one, and one
    # winner's worth of wins among them (a shared victory shared).
    assert len(said) == 6 and {s.players for s in said} == {3}
    for start in (0, 3):
        group = said[start : start + 3]
        assert sum(s.chance for s in group) == pytest.approx(1.0, abs=1e-3)
        assert sum(s.won for s in group) == pytest.approx(1.0)


def test_the_calibration_table_sets_what_was_said_beside_what_was_won() -> None:
    said = [Said(2, 0.72, 1.0), Said(2, 0.78, 0.0), Said(2, 0.28, 0.0), Said(2, 0.22, 1.0)]
    rows = calibration(said)
    assert rows[7] == (2, 0.75, 0.5) and rows[2] == (2, 0.25, 0.5)
    assert sum(n for n, _m, _w in rows) == 4
    assert brier(said) == pytest.approx((0.28**2 + 0.78**2 + 0.28**2 + 0.78**2) / 4)


def test_the_benchmark_verifies_in_the_readers_words(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--verify", "--games", "1", "--playouts", "6", "--deeper", "2"]
    args += ["--play-playouts", "6", "--every", "30", "--workers", "1"]
    assert review_bench.main(args) == 0
    out = capsys.readouterr().out
    assert "1 game reviewed at 6 playouts a move" in out
    assert "Advice judged again with 2 times the budget (12 playouts a move):" in out
    assert "2 players: Brier score" in out and "before calibration" in out


def test_the_calibration_is_a_rising_fit_of_what_was_won_on_what_was_said() -> None:
    """Isotonic: where a higher chance won less, the two are pooled; the knots stand for
    about as many positions each and rise, and a chance is read between them."""
    from companion.coach.calibrate import isotonic, knots

    points = [(i / 100, 1.0 if (i * 37) % 100 < i else 0.0) for i in range(1, 100)]
    steps = isotonic(points)
    assert [y for _x, y, _n in steps] == sorted(y for _x, y, _n in steps)
    assert sum(n for _x, _y, n in steps) == len(points)
    fitted = knots(points, most=6)
    assert 1 <= len(fitted) <= 6
    assert [x for x, _y in fitted] == sorted(x for x, _y in fitted)
    assert [y for _x, y in fitted] == sorted(y for _x, y in fitted)


def test_the_reviews_chances_are_the_calibrated_shares_of_its_judgements() -> None:
    """At every table size, the chart's chances are each seat's share of the judgements read
    through that size's calibration, adding up to one; the mover's chance after the move is
    its own share read the same way (docs/review.md)."""
    from companion.coach.calibration import KNOTS, calibrated
    from companion.coach.review import shares

    for n in range(3):
        record = table_game(n)
        size = len(record.players)
        assert KNOTS.get(size), size  # fitted for every table size
        cut = type(record)(record.setup, record.moves[:6])
        done = review(cut, 6, confirm=False)
        for j in done.moves:
            raw = shares(j.outlooks)
            expected = shares([calibrated(s, size) for s in raw])
            assert j.chances == pytest.approx(expected, abs=2e-4)
            assert sum(j.chances) == pytest.approx(1.0, abs=1e-3)
            assert j.after == pytest.approx(calibrated(raw[j.seat], size), abs=2e-3)


SMALL = ["--verify", "--playouts", "6", "--deeper", "2", "--play-playouts", "6", "--every", "30"]


def test_a_long_check_kept_game_by_game_is_taken_up_where_it_stopped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    kept = tmp_path / "check.jsonl"
    assert review_bench.main([*SMALL, "--games", "2", "--workers", "1", "--save", str(kept)]) == 0
    first = capsys.readouterr()
    assert [line.split(" checked")[0] for line in first.err.splitlines()] == ["game 0", "game 1"]
    assert len(kept.read_text().splitlines()) == 2
    # A stop cut the next game's line short: it is dropped, that game checked again, and the
    # two kept games read back rather than played again.
    with kept.open("a") as f:
        f.write('{"game":2,"settings":[6,2,6,30],"checked":[[3,')
    assert review_bench.main([*SMALL, "--games", "3", "--workers", "1", "--save", str(kept)]) == 0
    again = capsys.readouterr()
    assert "2 of the 3 games read back from" in again.err
    assert [x.split(" checked")[0] for x in again.err.splitlines() if " checked: " in x] == [
        "game 2"
    ]
    assert "3 games reviewed at 6 playouts a move" in again.out
    # The time said is this run's, for the one game it checked.
    assert "s for the 1 game checked in this run" in again.out.splitlines()[0]
    lines = kept.read_text().splitlines()
    assert [json.loads(x)["game"] for x in lines] == [0, 1, 2]
    # The same games give the same figures, whether checked then or read back now.
    assert review_bench.main([*SMALL, "--games", "2", "--workers", "1", "--save", str(kept)]) == 0
    third = capsys.readouterr().out
    assert third.split("\n", 1)[1] == first.out.split("\n", 1)[1]
    assert third.splitlines()[0].endswith(f"; every one read back from {kept}"), third  # not "0 s"


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("not json at all", "check.jsonl, line 2 is not a game this bench kept; remove that line"),
        (
            '{"game":5,"settings":[120,16,40,8],"checked":[],"said":[],"left_out":0}',
            "check.jsonl, line 2: a game checked with other settings (120, 16, 40, 8) (this "
            "run's are (6, 2, 6, 30)",
        ),
    ],
)
def test_a_kept_file_that_is_not_the_benchs_own_is_refused_by_its_line_and_kept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], line: str, said: str
) -> None:
    kept = tmp_path / "check.jsonl"
    good = '{"game":0,"settings":[6,2,6,30],"checked":[],"said":[],"left_out":0}'
    kept.write_text(f"{good}\n{line}\n{good}\n")
    before = kept.read_bytes()
    with pytest.raises(SystemExit) as stop:
        review_bench.main([*SMALL, "--games", "1", "--workers", "1", "--save", str(kept)])
    assert stop.value.code == 2
    assert said in capsys.readouterr().err
    assert kept.read_bytes() == before  # nothing of it lost


def _kept_games(path: Path, games: dict[int, list[list[tuple[float, float]]]]) -> None:
    """``games`` (each position its seats' (raw chance, won)) written as ``--verify --save``
    writes them."""
    from companion.coach import kept

    with path.open("w", encoding="utf-8") as f:
        for game, positions in games.items():
            said = [Said(len(p), raw, won, raw, raw) for p in positions for raw, won in p]
            f.write(kept.dumps(game, (120, 16, 40, 8), ([], said, 0)) + "\n")


def test_the_calibration_is_fitted_from_the_checks_kept_files_and_refuses_a_strangers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``calibrate --fit`` reads ``review_bench --verify --save`` files as its own: a second
    hundred checked can go into the fit. A line that is not a kept game, or a game kept
    twice, is named with what to do, and nothing is fitted from it."""
    from companion.coach import calibrate

    # Two-player positions where the leader at 70% won every time, at 30% never.
    kept = tmp_path / "check.jsonl"
    _kept_games(kept, {n: [[(0.7, 1.0), (0.3, 0.0)]] * 4 for n in range(100, 106)})
    assert calibrate.main(["--fit", str(kept)]) == 0
    out = capsys.readouterr().out
    first = calibrate.read([kept])[100][0]  # a position: its two seats, as written
    assert [(s.players, s.raw, s.won) for s in first] == [(2, 0.7, 1.0), (2, 0.3, 0.0)]
    line = next(x for x in out.splitlines() if x.strip().startswith("2:"))
    assert "(0.3, 0.0)" in line and "(0.7, 1.0)" in line  # the fit follows what was won
    assert "2 players, held out" in out
    # A stranger's line, a position whose seats do not add up to a table, a game twice.
    for bad, said in [
        ("not json", "check.jsonl, line 7 is not a game kept by calibrate --out"),
        ('{"game": 9, "said": [[0, 0.5, 1, 0.5, 0.5]]}', "check.jsonl, line 7 is not a game"),
        (kept.read_text().splitlines()[0], "line 7: game 100 is kept in"),
    ]:
        wrong = tmp_path / "wrong" / "check.jsonl"
        wrong.parent.mkdir(exist_ok=True)
        wrong.write_text(kept.read_text() + bad + "\n")
        with pytest.raises(SystemExit) as stop:
            calibrate.main(["--fit", str(wrong)])
        assert stop.value.code == 2
        err = capsys.readouterr().err
        assert said in err and "Traceback" not in err
