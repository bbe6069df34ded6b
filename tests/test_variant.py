"""A game under other rules than the base game's (docs/rules.md, Variants): a reserve limit
of 1 and a win at 10 points, through the engine, the setup's checks, the record, replay,
the companion and the journal, with messages that say the variant's figures."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from companion import i18n
from companion.ai.players import make
from companion.cli import main
from companion.engine.game import Game
from companion.engine.moves import Reserve
from companion.engine.rules import BASE, Rules
from companion.engine.setup import Setup
from companion.engine.simulate import Dealer, random_setup, simulate
from companion.errors import ErrorCode, RecordError
from companion.journal.session import Session
from companion.journal.store import GameState, Store
from companion.records.record import Record, read, replay, write

SHORT = BASE.variant(reserve_limit=1, winning_points=10)
NOBLES = ["N1", "N2", "N3"]
MARKET = ["1W1 1W2 1W3 1W4", "2W1 2W2 2W3 2W4", "3W1 3W2 3W3 3W4"]


def companions_game(seed: int = 2) -> Game:
    """A whole game under SHORT, each seat a companion level; every choice is checked:
    a seat holding its one reserved card is never offered, nor chooses, a reserve."""
    players = [make("medium", seed=seed), make("easy", seed=seed)]
    rng = random.Random(seed)
    game = Game(random_setup(rng, ["Ada", "Ben"], SHORT))
    dealer = Dealer(game, rng)
    while not game.over and not game.stalled:
        seat = game.seat(game.to_act)
        move = players[game.to_act].choose(game)
        if len(seat.reserved) == SHORT.reserve_limit:
            assert not isinstance(move, Reserve), (len(game.moves), str(move))
            assert not any(isinstance(m, Reserve) for m in game.actions())
        game.push(dealer.deal(move))
    return game


def holding_one(game: Game) -> Game:
    """The game taken back to the first turn whose player holds their one reserved card."""
    again = Game(game.setup)
    for move in game.moves:
        if len(again.seat(again.to_act).reserved) == 1:
            return again
        again.push(move)
    raise AssertionError("no player held a reserved card at their turn")


def test_a_variant_the_record_could_not_hold_is_refused_where_it_is_made() -> None:
    with pytest.raises(RecordError) as err:
        BASE.variant(reserve_limit=4)
    assert err.value.path == "rules.reserve_limit"
    with pytest.raises(RecordError) as err:
        BASE.variant(players=range(2, 6))
    assert err.value.path == "rules.players[1]"


def test_rules_of_the_same_figures_are_one_value_and_say_what_differs() -> None:
    assert BASE.variant(winning_points=10, reserve_limit=1) is SHORT
    assert BASE.variant() is BASE and BASE.variant(reserve_limit=3) is BASE
    assert SHORT.document() == {"reserve_limit": 1, "winning_points": 10}
    assert Rules.read(SHORT.document()) is SHORT
    assert SHORT.name == "reserve_limit=1 winning_points=10"


@pytest.mark.parametrize(
    ("doc", "place", "words"),
    [
        ({"reserve_limit": 5}, "rules.reserve_limit", "from 1 to 3 is expected, not 5"),
        ({"winning_points": True}, "rules.winning_points", "from 1 to 99 is expected, not true"),
        ({"players": [3, 5]}, "rules.players[1]", "from 3 to 4 is expected, not 5"),
        ({"gems_per_colour": {"5": 8}}, "rules.gems_per_colour", 'unknown key "5"'),
        ({"gems_per_colour": {"2": 8}}, "rules.gems_per_colour.2", "from 1 to 7 is expected"),
        ({"colours\n" * 9: 6}, "rules", 'unknown key "colours\\ncolours\\n'),
        ([1], "rules", "is an object of figures"),
    ],
)
def test_a_record_s_rules_out_of_bounds_are_refused_naming_the_figure(
    doc: object, place: str, words: str
) -> None:
    text = write(Record(Setup.of(["Ada", "Ben"], NOBLES, MARKET)))
    data = json.loads(text)
    data["rules"] = doc
    with pytest.raises(RecordError) as err:
        read(json.dumps(data))
    assert err.value.path == place
    assert words in err.value.message


def test_the_setup_is_checked_against_the_game_s_rules_not_the_base_game_s() -> None:
    three = BASE.variant(market_slots=3, players=range(3, 5))
    rows = [" ".join(r.split()[:3]) for r in MARKET]
    setup = Setup.of(["Ada", "Ben", "Cleo"], ["N1", "N2", "N3", "N4"], rows, three)
    game = Game(setup)
    assert game.rules is three and game.deck_size(1) == 40 - 3
    with pytest.raises(RecordError) as err:
        Setup.of(["Ada", "Ben", "Cleo"], ["N1", "N2", "N3", "N4"], rows)
    assert err.value.message == "setup.market.1: level 1 shows 4 cards, not 3"
    with pytest.raises(RecordError) as err:
        Setup.of(["Ada", "Ben", "Cleo"], ["N1", "N2", "N3", "N4"], MARKET, three)
    assert err.value.message == "setup.market.1: level 1 shows 3 cards, not 4"
    with pytest.raises(RecordError) as err:
        Game(Setup.of(["Ada", "Ben"], NOBLES, MARKET), three)  # rules given to the game
    assert err.value.message == "players: a game has 3 to 4 players, not 2"


def test_a_second_reserve_is_refused_saying_one_reserved_card() -> None:
    game = holding_one(companions_game())
    refusal = game.explain(Reserve(deck=1, player=game.to_act))
    assert refusal is not None and refusal.code == ErrorCode.RESERVE_LIMIT
    name = game.names[game.to_act]
    assert (
        refusal.message == f"{name} already holds 1 reserved card: buy one before reserving again"
    )
    i18n.set_language("fr")
    try:
        assert "1 carte réservée" in refusal.message
    finally:
        i18n.set_language("en")


def test_companions_play_a_whole_game_to_10_points_that_replays_from_its_record() -> None:
    game = companions_game()
    assert game.over
    points = [s.points for s in game.seats]
    assert 10 <= max(points) < 15  # over at 10: the base game would still be playing
    text = write(Record.of(game))
    assert '"rules": {"reserve_limit": 1, "winning_points": 10}' in text
    record = read(text)
    assert record.rules is SHORT
    result = replay(record)
    assert result.valid and result.game.over
    assert result.game.position() == game.position()
    assert result.game.winners() == game.winners()
    # The same moves under the base game: refused at the second reserve, or not over.
    base = replay(
        Record(Setup.of(game.setup.players, game.setup.nobles, game.setup.market), list(game.moves))
    )
    assert not base.game.over


def test_a_base_game_s_record_has_no_rules(tmp_path: Path) -> None:
    text = write(Record.of(simulate(players=2, seed=1, max_moves=10)))
    assert '"rules"' not in text
    assert read(text).rules is BASE


def test_the_journal_resumes_and_exports_a_game_under_its_rules(tmp_path: Path) -> None:
    game = companions_game()
    with Store(tmp_path / "games.sqlite3") as store:
        session = Session.start(store, game.setup)
        for move in game.moves[:-1]:
            session.play(move)
        game_id = session.game_id
    with Store(tmp_path / "games.sqlite3") as store:
        resumed = Session.resume(store, game_id)
        assert resumed.game.rules is SHORT
        assert holding_one(resumed.game).rules is SHORT
        resumed.play(game.moves[-1])
        assert resumed.game.over and store.info(game_id).state == "over"
        record = store.record(game_id)
        assert record.rules is SHORT
        assert replay(read(write(record))).game.position() == game.position()
        # The same table and moves under the base game are another game.
        base = Record(Setup.of(game.setup.players, game.setup.nobles, game.setup.market), [])
        short = Record(game.setup, [])
        assert store.same_game(short) is None  # the stored one has moves
        first = store.import_record(short, GameState.of(replay(short).game))
        assert store.same_game(short) == first
        assert store.same_game(base) is None


def test_replay_on_the_command_line_plays_the_record_s_rules(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "short.json"
    path.write_text(write(Record.of(companions_game())), encoding="utf-8")
    assert main(["replay", str(path), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["valid"] and summary["game_over"]
    assert max(s["points"] for s in summary["standings"]) < 15
