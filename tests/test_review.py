"""The game review (companion/coach/review.py): what it reads, what it finds, where it is kept,
and the ``review`` command. Small budgets: a review's figures are not what is tested here
(the benchmark prints them), its behaviour is."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from plays import blunder

from companion.ai.players import make
from companion.ai.search import Stopped
from companion.cli import main
from companion.coach import review as reviewing
from companion.coach.review import Review, Reviewing, mistakes, review, text_lines
from companion.engine.cards import Card
from companion.engine.game import Game
from companion.engine.moves import Buy, Move, Reserve, Take, with_parts
from companion.engine.simulate import Dealer, random_setup
from companion.journal.store import GameState, Store
from companion.records.record import Record, read, replay, write
from companion.reports.export import to_json, to_text

BUDGET = 12  # playouts a move: enough to tell a won game from a lost one


def played(levels: list[str], seed: int, moves: int) -> Game:
    """``moves`` moves of companions at ``levels`` (a game to review), dealt by a seed."""
    rng = random.Random(seed)
    game = Game(random_setup(rng, ["Ada", "Ben", "Cleo", "Dan"][: len(levels)]))
    players = [make(level, seed=seed) for level in levels]
    dealer = Dealer(game, rng)
    while len(game.moves) < moves and not game.over:
        game.push(dealer.deal(players[game.to_act].choose(game)))
    return game


def with_blind_reserve(card: str | None) -> Record:
    """Ada and Ben play; Ben reserves blind at move 2 (``card``: the card it turned out to
    be, which Ada never sees) and never buys it."""
    rng = random.Random(7)
    game = Game(random_setup(rng, ["Ada", "Ben"]))
    dealer = Dealer(game, rng)
    ada, ben = make("medium", seed=1), make("medium", seed=2)
    game.push(dealer.deal(ada.choose(game)))
    game.push(Reserve(player=1, deck=1, card=card))
    while len(game.moves) < 14:
        player = ada if game.to_act == 0 else ben
        move = player.choose(game)
        if isinstance(move, Buy) and move.card == card:
            move = next(m for m in game.legal_moves() if isinstance(m, Take))
        game.push(dealer.deal(move))
    return Record.of(game, app={"seats": ["person", "person"]})


def test_the_review_never_reads_what_the_mover_could_not_see() -> None:
    # The same public game, Ben's face-down card one or another: Ada's moves are judged
    # alike, to the last digit (so are the chances she is shown after them).
    first = with_blind_reserve("1W1")
    unseen = replay(first).game.unseen(1)
    other = next(c.id for c in unseen if c.id != "1W1")
    second = Record(
        first.setup, [with_parts(m, card=other) if i == 1 else m for i, m in enumerate(first.moves)]
    )
    # And the engine not knowing it at all (no reader scanned it).
    third = Record(
        first.setup,
        [with_parts(m, card=None) if i == 1 else m for i, m in enumerate(first.moves)],
    )
    assert replay(second).valid and replay(third).valid and second.moves[1] != first.moves[1]
    a, b, c = (review(r, BUDGET) for r in (first, second, third))
    ada = [j for j in a.moves if j.seat == 0]
    assert ada == [j for j in b.moves if j.seat == 0] == [j for j in c.moves if j.seat == 0]
    assert len(ada) == 7


def test_a_winning_buy_passed_up_is_among_the_persons_costliest_moves() -> None:
    record, number, card = blunder()
    done = review(record, BUDGET)
    costly = done.costly(1)
    found = [j for j in costly if j.number == number]
    assert found, [(j.number, j.cost) for j in costly]
    judged = found[0]
    assert isinstance(judged.preferred, Buy) and judged.preferred.card == card
    assert judged.before > judged.after + 0.2
    told = next(m for m in mistakes(record, done, 1) if m.judged.number == number)
    assert told.preferred.startswith("Buying a ") and told.reason
    lines = text_lines(record, done, ["Robo (hard)", "Ben"], [None, None])
    assert any(f"Move {number}," in line for line in lines)


def test_a_review_is_the_same_for_the_same_seed_and_budget() -> None:
    record = Record.of(played(["medium", "easy"], seed=2, moves=10))
    assert review(record, BUDGET, seed=5) == review(record, BUDGET, seed=5)
    assert Review.from_document(json.loads(json.dumps(review(record, BUDGET).document()))) == (
        review(record, BUDGET)
    )


def test_a_review_says_its_progress_and_stops_when_asked() -> None:
    record = Record.of(played(["easy", "easy"], seed=1, moves=6))
    said: list[tuple[int, int]] = []
    review(record, 6, progress=lambda done, total: said.append((done, total)))
    assert said == [(n, 6) for n in range(1, 7)]
    asked = iter([False, False, True])
    with pytest.raises(Stopped):
        review(record, 6, stop=lambda: next(asked))
    finished: list[Reviewing] = []
    job = Reviewing(record, finished.append, playouts=6)
    job.stop()
    job.start()
    assert job.wait(30) and job.result is None and not finished
    job = Reviewing(record, finished.append, playouts=6).start()
    assert job.wait(60) and finished == [job] and job.result is not None
    assert job.judged == list(job.result.moves)  # each move as it was judged: a chart meanwhile


def test_a_costly_move_the_deeper_search_does_not_confirm_is_not_listed() -> None:
    """Game 0 of the benchmark's (two medium players): each seat's costliest moves are
    judged again, the preferred move against the one played, with CONFIRM times the budget;
    the ones listed are those it confirms, the costliest first, and a move it refutes is
    left out even where it cost more by the review's first judgement."""
    from companion.coach.verify import table_game

    record = table_game(0)
    done = review(record, BUDGET, seed=0)
    assert done.checked is not None
    refuted = 0
    for seat in range(len(record.players)):
        listed = done.costly(seat)
        assert listed and all(done.checked[j.number] > 0 for j in listed)
        assert [j.cost for j in listed] == sorted((j.cost for j in listed), reverse=True)
        worse = [j for j in done.candidates(seat) if j.cost >= listed[-1].cost]
        refuted += sum(1 for j in worse if done.checked[j.number] <= 0)
        for j in worse:
            assert (j in listed) == (done.checked[j.number] > 0)
    assert refuted >= 1  # seeded: the check did leave a costly-looking move out
    # The margin is the deeper search's own: the same comparison made again.
    number = next(iter(done.checked))
    judged = done.moves[number - 1]
    game = Game(record.setup)
    for move in record.moves[: number - 1]:
        game.push(move)
    assert judged.preferred is not None
    better, played = reviewing.compare(
        game,
        [judged.preferred, record.moves[number - 1]],
        BUDGET * reviewing.CONFIRM,
        0,
        "confirm",
    )
    assert done.checked[number] == round(better - played, 4)
    # Unchecked (the benchmark's raw verdicts), the refuted moves are listed again.
    raw = review(record, BUDGET, seed=0, confirm=False)
    assert raw.checked is None
    assert any(
        j.number not in {k.number for k in done.costly(j.seat)}
        for s in (0, 1)
        for j in raw.costly(s)
    )


def test_the_deeper_check_says_its_progress() -> None:
    record = Record.of(played(["medium", "easy"], seed=2, moves=16))
    checks: list[tuple[int, int]] = []
    done = review(record, 6, checking=lambda n, total: checks.append((n, total)))
    assert done.checked is not None and len(checks) == len(done.checked)
    assert [n for n, _total in checks] == list(range(1, len(checks) + 1))
    assert checks[-1][0] == checks[-1][1]  # it ends at its total


def stored(data: Path, record: Record) -> int:
    game = read(write(record))
    with Store(data / "games.sqlite3") as store:
        return store.import_record(game, GameState.of(replay(game).game))


def test_a_stored_review_is_shown_again_without_being_computed(
    data: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    record = Record.of(
        played(["medium", "medium"], seed=3, moves=8), app={"seats": ["person", "medium"]}
    )
    game_id = stored(data, record)
    done = review(record, BUDGET)
    with Store(data / "games.sqlite3") as store:
        store.save_review(game_id, done.document())
    # Computing again would fail: what is printed comes from the journal.
    monkeypatch.setattr(reviewing, "review", lambda *a, **k: pytest.fail("computed again"))
    assert main(["review", str(game_id), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["playouts"] == BUDGET and len(doc["moves"]) == 8
    # The text export carries it too, after the moves.
    with Store(data / "games.sqlite3", reader=True) as store:
        text = to_text(store.record(game_id, with_journal=True))
        # An undone move makes it another game: no review is kept for it.
        shorter = Record(record.setup, record.moves[:-1])
        from companion.coach.review import VERSION
        from companion.records.record import fingerprint

        assert store.stored_review(game_id, VERSION, fingerprint(shorter)) is None
    assert "Review by the companion" in text


def test_the_command_reviews_every_seat_the_peoples_first(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = played(["medium", "easy", "easy"], seed=4, moves=9)
    path = tmp_path / "game.json"
    record = Record.of(game, app={"seats": ["hard", "person", "person"]})
    path.write_text(write(record), encoding="utf-8")
    assert main(["review", str(path), "--json", "--playouts", "6"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["version"] == 2 and doc["format"] == "splendor-review"
    assert [s["seat"] for s in doc["seats"]] == [1, 2, 0]
    assert [s["companion"] for s in doc["seats"]] == [None, None, "hard"]
    assert [m["seat"] for m in doc["moves"]] == [0, 1, 2] * 3
    assert main(["review", str(path), "--playouts", "6", "--lang", "fr"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Analyse") and "Ben" in out


def test_the_command_refuses_what_is_not_a_record(
    tmp_path: Path, data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("hello", encoding="utf-8")
    assert main(["review", str(path)]) == 2
    assert "is not a valid game record" in capsys.readouterr().err
    assert main(["review", "12"]) == 2
    assert "there is no game 12 in the journal" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_:
        main(["review", str(path), "--playouts", "0"])
    assert exit_.value.code == 2
    assert "not a number of playouts" in capsys.readouterr().err


def test_a_record_with_an_illegal_move_is_refused_as_replay_refuses_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = played(["easy", "easy"], seed=5, moves=6)
    record = Record.of(game)
    record.moves.append(
        Take(player=record.moves[-1].player, gems=record.moves[0].gems)
    )  # not its turn
    path = tmp_path / "game.json"
    path.write_text(write(record), encoding="utf-8")
    assert main(["replay", str(path)]) == 1
    why = capsys.readouterr().out.splitlines()[1]  # "Move 7 is illegal: ... [not-your-turn]"
    for json_too in ([], ["--json"]):
        assert main(["review", str(path), "--playouts", "6", *json_too]) == 1
        out, err = capsys.readouterr()
        assert out == ""  # no review, not "0 moves reviewed"
        assert err.startswith(f"{path} cannot be reviewed: move 7 is illegal: ")
        assert err.rstrip().endswith(why.split(": ", 1)[1])


def test_a_review_a_record_carries_from_elsewhere_is_read_with_care() -> None:
    record = Record.of(played(["easy", "easy"], seed=6, moves=6))
    done = review(record, 6)
    for bogus in ({"format": "splendor-review", "version": 99}, [], {"moves": "x"}):
        record.extra["annotations"] = {"review": bogus}
        assert "Review by the companion" not in to_text(record)
    # Another game's review (the fingerprint differs) is not shown either.
    other = Record.of(played(["easy", "easy"], seed=7, moves=6))
    record.extra["annotations"] = {"review": review(other, 6).document()}
    assert "Review by the companion" not in to_text(record)
    record.extra["annotations"] = {"review": done.document()}
    assert "Review by the companion" in to_text(record)
    assert '"review"' in to_json(record)


def test_the_command_says_a_missing_file_is_missing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["review", str(tmp_path / "gone.json")]) == 2
    err = capsys.readouterr().err
    assert "gone.json" in err and "not a valid game record" not in err


def test_the_reviews_playouts_deal_a_rivals_blind_reserve_from_the_unseen_cards(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Ada's moves after Ben's blind reserve are judged on tables where his card is one she
    # has not seen, dealt afresh round after round, so that Ben can buy it in a playout
    # (never the card it is, which the engine knows here).
    record = with_blind_reserve("1W1")
    dealt: set[str] = set()
    judged = reviewing._playout

    def spy(game: Game, move: Move, *rest: Any) -> tuple[float, ...]:
        if game.to_act == 0 and game.seat(1).reserved:
            held = game.seat(1).reserved[0]
            assert isinstance(held, Card)
            dealt.add(held.id)
        return judged(game, move, *rest)

    monkeypatch.setattr(reviewing, "_playout", spy)
    review(Record(record.setup, record.moves[:5]), BUDGET)
    unseen = {c.id for c in replay(Record(record.setup, record.moves[:2])).game.unseen(1)}
    assert len(dealt) > 3 and dealt <= unseen | {"1W1"}


def test_the_command_says_its_progress_on_a_terminal_for_a_four_player_game(
    tmp_path: Path,
) -> None:
    """A whole four-player game of 100 moves (a small budget), reviewed by the command with
    its standard error on a terminal: the moves counted to 100, then the deeper checks;
    every seat's costliest moves printed."""
    import os
    import subprocess
    import sys
    import threading

    from companion.coach.verify import table_game

    record = table_game(11)  # four medium players, 100 moves
    assert len(record.moves) == 100
    (tmp_path / "game.json").write_text(write(record), encoding="utf-8")
    main_fd, side = os.openpty()
    said = bytearray()

    def listen() -> None:  # read as it is written: a terminal's buffer is small
        while True:
            try:
                chunk = os.read(main_fd, 65536)
            except OSError:  # the terminal's other end is closed: all is read
                return
            if not chunk:
                return
            said.extend(chunk)

    reader = threading.Thread(target=listen, daemon=True)
    reader.start()
    try:
        ran = subprocess.run(
            [sys.executable, "-m", "companion", "review", "game.json", "--playouts", "4"],
            cwd=tmp_path,
            env={**os.environ, "SPLENDOR_LANG": "en", "SPLENDOR_DATA_DIR": str(tmp_path / "d")},
            stdout=subprocess.PIPE,
            stderr=side,
            text=True,
            timeout=300,
            check=False,
        )
    finally:
        os.close(side)
        reader.join(30)
        os.close(main_fd)
    assert ran.returncode == 0, said
    progress = bytes(said).decode()
    assert "Reviewing: move 1 of 100" in progress and "Reviewing: move 100 of 100" in progress
    assert "Checking the costliest moves with a deeper search: 1 of " in progress
    for name in record.players:
        assert f"{name}: 25 moves reviewed" in ran.stdout
    assert ran.stdout.count("was the companion's choice") >= 4
