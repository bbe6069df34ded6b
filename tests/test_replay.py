"""The game record and ``splendor-companion replay``: every error code, exit codes, places."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from companion.cli import main
from companion.engine.game import Game
from companion.engine.moves import Move, Reserve, with_parts
from companion.engine.simulate import DEFAULT_NAMES, Dealer, choose, random_setup, simulate
from companion.errors import ErrorCode
from companion.records.record import Record, document, read, replay, write

# Among the tests tools/pi-check runs on the Pi's processor (pytest -m pi).
pytestmark = pytest.mark.pi

NOBLES = ["N1", "N2", "N3"]
MARKET = {
    "1": ["1W1", "1U1", "1G1", "1R1"],
    "2": ["2W1", "2U1", "2G1", "2R1"],
    "3": ["3W1", "3U1", "3G1", "3R1"],
}


def record(
    *moves: dict[str, Any], players: list[str] | None = None, **extra: Any
) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "format": "splendor-game-record",
        "version": 1,
        "players": players or ["Ada", "Ben"],
        "setup": {"nobles": NOBLES, "market": MARKET},
        "moves": list(moves),
    }
    doc.update(extra)
    return doc


def take(player: int, **gems: int) -> dict[str, Any]:
    return {"player": player, "action": "take", "gems": gems}


def run_json(tmp_path: Path, doc: Any, capsys: pytest.CaptureFixture[str]) -> tuple[int, Any]:
    path = tmp_path / "game.json"
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc), encoding="utf-8")
    code = main(["replay", str(path), "--json"])
    out = capsys.readouterr().out
    return code, json.loads(out)


# Each error code of the spec, produced through `replay --json`: (moves, failing move, code).
ROUND = [take(0, white=1, blue=1, green=1), take(1, red=1, black=1, white=1)]
ILLEGAL: dict[str, tuple[list[dict[str, Any]], int]] = {
    "wrong-player": ([take(1, white=1, blue=1, green=1)], 1),
    "take-invalid": ([take(0, white=1, blue=1)], 1),
    "take-two-needs-four": ([take(0, white=1, blue=1, green=1), take(1, white=2)], 2),
    "bank-short": (
        [
            take(0, white=2),
            take(1, white=1, blue=1, green=1),
            take(0, white=1, blue=1, green=1),
            take(1, white=1, red=1, black=1),
        ],
        4,
    ),
    "reserve-limit": (
        [
            {"player": 0, "action": "reserve", "deck": 1},
            take(1, white=1, blue=1, green=1),
            {"player": 0, "action": "reserve", "deck": 2},
            take(1, white=1, blue=1, green=1),
            {"player": 0, "action": "reserve", "deck": 3},
            take(1, red=1, blue=1, green=1),
            {"player": 0, "action": "reserve", "deck": 3},
        ],
        7,
    ),
    "card-unavailable": ([{"player": 0, "action": "reserve", "card": "1K1"}], 1),
    "cannot-afford": ([{"player": 0, "action": "buy", "card": "3W1", "reveal": "3K1"}], 1),
    "payment-invalid": (
        [
            take(0, white=1, red=1, black=1),
            take(1, white=1, blue=1, green=1),
            take(0, white=1, red=1, black=1),
            take(1, white=1, blue=1, green=1),
            # 1W1 costs 2 red and 1 black: paying 2 white is not that.
            {
                "player": 0,
                "action": "buy",
                "card": "1W1",
                "payment": {"white": 2, "red": 1},
                "reveal": "1K1",
            },
        ],
        5,
    ),
    "reveal-missing": (
        [
            take(0, white=1, red=1, black=1),
            take(1, white=1, blue=1, green=1),
            take(0, white=1, red=1, black=1),
            take(1, white=1, blue=1, green=1),
            {"player": 0, "action": "buy", "card": "1W1"},
        ],
        5,
    ),
    "reveal-invalid": ([{"player": 0, "action": "reserve", "card": "1W1", "reveal": "2K1"}], 1),
    "return-invalid": ([{**take(0, white=1, blue=1, green=1), "returned": {"white": 1}}], 1),
    "noble-invalid": ([{**take(0, white=1, blue=1, green=1), "noble": "N1"}], 1),
    "pass-invalid": ([{"player": 0, "action": "pass"}], 1),
}


@pytest.mark.parametrize("code", sorted(ILLEGAL))
def test_replay_json_reports_each_error_code(
    code: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    moves, failing = ILLEGAL[code]
    exit_code, out = run_json(tmp_path, record(*moves), capsys)
    assert exit_code == 1
    assert out["valid"] is False
    assert out["error"]["code"] == code
    assert out["error"]["move"] == failing
    assert out["moves_applied"] == failing - 1
    assert out["error"]["message"]
    assert out["winners"] == []


def find_in_random_games(
    bad_move: Callable[[Game], Move | None], seeds: range = range(2000)
) -> tuple[Game, Move]:
    """The first position of a random game where ``bad_move`` gives a move, and that move."""
    for seed in seeds:
        rng = random.Random(seed)
        game = Game(random_setup(rng, DEFAULT_NAMES[: 2 + seed % 3]))
        dealer = Dealer(game, rng)
        while not game.over and not game.stalled:
            move = bad_move(game)
            if move is not None:
                return game, move
            game.push(dealer.deal(choose(rng, list(game.legal_moves()))))
    raise AssertionError("no random game reached such a position")


def replay_with(
    game: Game, move: Move, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> tuple[int, Any]:
    doc = document(Record(game.setup, [*game.moves, move]))
    return run_json(tmp_path, doc, capsys)


def test_replay_json_reports_deck_empty(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    def blind_from_empty_deck(game: Game) -> Move | None:
        for level in (1, 2, 3):
            if game.deck_size(level) == 0 and len(game.seat(game.to_act).reserved) < 3:
                return Reserve(deck=level, player=game.to_act)
        return None

    game, move = find_in_random_games(blind_from_empty_deck)
    exit_code, out = replay_with(game, move, tmp_path, capsys)
    assert exit_code == 1
    assert out["error"]["code"] == "deck-empty"
    assert out["error"]["move"] == len(game.moves) + 1


@pytest.mark.parametrize(
    ("part", "code", "said"),
    [("returned", "token-limit", "10"), ("noble", "noble-choice-required", "N")],
)
def test_replay_json_reports_a_completion_left_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], part: str, code: str, said: str
) -> None:
    """A move that must give tokens back (or choose a noble), written without them."""

    def left_out(game: Game) -> Move | None:
        for move in game.legal_moves():
            if getattr(move, part) is not None:
                return with_parts(Dealer(game, random.Random(0)).deal(move), **{part: None})
        return None

    game, move = find_in_random_games(left_out)
    exit_code, out = replay_with(game, move, tmp_path, capsys)
    assert exit_code == 1
    assert out["error"]["code"] == code
    assert said in out["error"]["message"]


def test_replay_json_reports_game_over(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = simulate(players=2, seed=5)
    assert game.over
    doc = document(Record.of(game))
    doc["moves"].append({"player": len(game.moves) % 2, "action": "pass"})
    exit_code, out = run_json(tmp_path, doc, capsys)
    assert exit_code == 1
    assert out["error"]["code"] == "game-over"
    assert out["error"]["move"] == len(game.moves) + 1
    assert out["game_over"] is True
    assert out["winners"] == game.winners()


def test_malformed_move_names_the_place_and_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    moves = [take(0, white=1, blue=1, green=1)] * 17 + [take(1, purple=1)]
    exit_code, out = run_json(tmp_path, record(*moves), capsys)
    assert exit_code == 2
    assert out["valid"] is False
    assert out["error"]["move"] == 0
    assert out["error"]["code"] == ErrorCode.MALFORMED_MOVE.value
    assert out["error"]["message"].startswith('move 18 (gems): "purple" is not a colour')


@pytest.mark.parametrize(
    ("doc", "place"),
    [
        ("{not json", "not JSON"),
        (json.dumps({**record(), "format": "chess"}), "format"),
        (json.dumps({**record(), "version": 2}), "version"),
        (json.dumps({**record(), "colour": "red"}), "colour"),
        (json.dumps(record(players=["Ada"])), "players"),
        (json.dumps(record(players=["Ada", "Ada"])), "players"),
        (json.dumps({**record(), "setup": {"nobles": ["N1"], "market": MARKET}}), "setup.nobles"),
        (
            json.dumps({**record(), "setup": {"nobles": NOBLES, "market": {**MARKET, "1": []}}}),
            "setup.market.1",
        ),
        (json.dumps(record({"player": 0, "action": "steal"})), "move 1 (action)"),
        (json.dumps(record({**take(0, red=1), "colour": 1})), "move 1 (colour)"),
        (json.dumps(record(take(0, red=0))), "move 1 (gems.red)"),
        (json.dumps(record({"player": 0, "action": "reserve", "deck": 4})), "move 1 (deck)"),
        (json.dumps(record({"player": 0, "action": "buy", "card": "4W1"})), "move 1 (card)"),
        (json.dumps(record({**take(0, red=1), "noble": "N11"})), "move 1 (noble)"),
    ],
)
def test_malformed_file_exits_2_naming_the_place(
    doc: str, place: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    exit_code, out = run_json(tmp_path, doc, capsys)
    assert exit_code == 2
    assert out["valid"] is False
    assert out["error"]["move"] == 0
    assert out["error"]["message"].startswith(place), out["error"]["message"]


def test_replay_text_summary_in_another_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record(take(0, white=1, blue=1))), encoding="utf-8")
    code = main(["--lang", "fr", "replay", str(path)])
    out = capsys.readouterr().out
    main(["--lang", "en", "replay", str(path)])
    english = capsys.readouterr().out
    assert code == 1
    assert "take-invalid" in out
    assert out != english


@pytest.mark.parametrize("lang", ["en", "fr", "it", "pt", "sv"])
def test_a_record_without_moves_says_so_not_all_0_moves(
    lang: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A record with no move says so: "All 0 moves are legal" ("0 coup valide") reads as a
    failure."""
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record()), encoding="utf-8")
    code = main(["--lang", lang, "replay", str(path)])
    out = capsys.readouterr().out
    assert code == 0
    verdict = out.splitlines()[1]  # after the players' line
    assert not re.search(r"\d", verdict), out
    if lang == "en":
        assert verdict == "No move yet."


def test_record_keeps_writer_extras_and_round_trips() -> None:
    game = simulate(players=3, seed=11)
    extras = {
        "started_at": "2026-11-21T20:00:00Z",
        "ended_at": "2026-11-21T21:10:00Z",
        "app": {"name": "test"},
        "annotations": {"table": "kitchen"},
    }
    text = write(Record.of(game, **extras))
    again = read(text)
    assert again.extra == extras
    assert again.moves == list(game.moves)
    assert write(again) == text


def test_replay_console_script_runs(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(write(Record.of(simulate(players=2, seed=2))), encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "companion", "replay", str(path), "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    assert out["valid"] is True
    assert out["game_over"] is True
    assert len(out["winners"]) >= 1
    assert out["standings"][0]["rank"] == 1


def test_simulate_writes_records_replay_accepts(tmp_path: Path) -> None:
    for players in (2, 3, 4):
        out = tmp_path / f"sim{players}.json"
        assert main(["simulate", "--players", str(players), "--seed", "9", "--out", str(out)]) == 0
        result = replay(read(out.read_text(encoding="utf-8")))
        assert result.valid
        assert len(result.game.names) == players


def test_simulate_reports_an_unwritable_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["simulate", "--out", str(tmp_path / "missing" / "game.json")])
    assert code == 2
    assert "Cannot write" in capsys.readouterr().err
