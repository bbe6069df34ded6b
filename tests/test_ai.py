"""The companion as a player: legal, blind to what its seat cannot see, and
reproducible from its seed."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from companion.ai.expert import determinised, expert_search
from companion.ai.players import LEVELS, Expert, Hard, make, stream
from companion.ai.search import playouts_at, search
from companion.ai.view import public_view, secret_reserves
from companion.coach.play import play, play_levels
from companion.engine.cards import Card
from companion.engine.game import Game, Hidden
from companion.engine.moves import Move, Reserve
from companion.engine.simulate import MAX_MOVES, Dealer, random_setup, simulate
from companion.journal.seats import app_seats, companion_levels
from companion.records.record import Record, read, replay

GAMES = 1000


def _is_blind(move: Move) -> bool:
    return isinstance(move, Reserve) and move.deck is not None


@pytest.mark.long
def test_the_companion_plays_legal_moves_in_1000_games_of_every_level_and_size() -> None:
    blind_reserves = 0
    for number in range(GAMES):
        players = 2 + number % 3
        # Odd games have an RFID reader that scans a blind reserve face down.
        blind = number % 2 == 1
        # A tiny budget keeps the test quick; one game in fifty runs real playouts.
        rollouts = 12 if number % 50 == 0 else 0
        seats = [
            make(
                list(LEVELS)[(number // 3 + seat) % len(LEVELS)],
                seed=number,
                blind=blind,
                rollouts=rollouts,
            )
            for seat in range(players)
        ]
        rng = random.Random(number)
        game = Game(random_setup(rng, ["A", "B", "C", "D"][:players]))
        dealer = Dealer(game, rng)
        while not game.over and not game.stalled:
            assert len(game.moves) < MAX_MOVES, f"game {number} does not end"
            move = seats[game.to_act].choose(game)
            assert move.reveal is None
            assert move in set(game.legal_moves()), f"game {number}: {move} is illegal"
            if _is_blind(move):
                assert blind, f"game {number}: a blind reserve with no reader to scan it"
                blind_reserves += 1
            game.push(dealer.deal(move))
        assert game.over, f"game {number} stalled"
    # A companion with a reader to scan it does reserve blind: that path was tried.
    assert blind_reserves > 0, "no blind reserve in any game with a reader"


def _midgame(seed: int) -> Game:
    """A game after a few rounds between companions."""
    rng = random.Random(seed)
    game = Game(random_setup(rng, ["Ada", "Ben"]))
    dealer = Dealer(game, rng)
    players = [make("medium", seed), make("easy", seed)]
    while len(game.moves) < 8 + seed % 5:
        game.push(dealer.deal(players[game.to_act].choose(game)))
    return game


@pytest.mark.parametrize("seed", range(6))
def test_a_decision_is_the_same_whatever_another_players_blind_reserve_is(seed: int) -> None:
    base = _midgame(seed)
    if base.to_act != 1:
        base.push(_any_take(base))
    # Ben reserves the top card of the level 2 deck blind. The engine may know it (an RFID
    # reader scanned it) or not: Ada, the companion, must decide the same either way.
    unseen = sorted(c.id for c in base.unseen(2))
    variants = [Reserve(deck=2, player=1)] + [
        Reserve(deck=2, card=card, player=1) for card in (unseen[0], unseen[-1])
    ]
    decisions: dict[str, set[Move]] = {level: set() for level in LEVELS}
    for variant in variants:
        game = Game(base.setup)
        for move in base.moves:
            game.push(move)
        game.push(variant)
        assert game.to_act == 0
        for level in LEVELS:
            decisions[level].add(make(level, seed=seed, rollouts=24).choose(game))
    for level, moves in decisions.items():
        assert len(moves) == 1, f"{level} decided differently: {moves}"


def _any_take(game: Game) -> Move:
    return next(m for m in game.legal_moves() if m.__class__.__name__ == "Take")


def test_the_public_view_puts_a_known_blind_reserve_face_down_for_the_others() -> None:
    game = _midgame(1)
    if game.to_act != 1:
        game.push(_any_take(game))
    card = sorted(c.id for c in game.unseen(3))[0]
    game.push(Reserve(deck=3, card=card, player=1))
    assert secret_reserves(game, 0) == [len(game.moves) - 1]
    assert secret_reserves(game, 1) == []  # Ben knows his own card
    view = public_view(game, 0)
    assert view.seat(1).reserved[-1] == Hidden(3)
    assert card in {c.id for c in view.unseen(3)}
    assert public_view(game, 1) is game
    assert isinstance(game.seat(1).reserved[-1], Card)  # the game itself is untouched


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_a_game_from_a_position_keeps_its_start_in_the_public_view(level: str) -> None:
    # A game set up from a position's text (a table joined midway) whose other seat then
    # reserved blind a card the engine knows: the view replays the moves from that start,
    # not from the stand-in setup, where they are not legal.
    game = Game.from_text(_midgame(3).text(), ["Ada", "Ben"])
    if game.to_act != 1:
        game.push(_any_take(game))
    card = sorted(c.id for c in game.unseen(3))[0]
    game.push(Reserve(deck=3, card=card, player=1))
    view = public_view(game, 0)
    assert view.text() != game.text()  # the card is face down again for Ada
    assert view.seat(1).reserved[-1] == Hidden(3)
    assert view.seat(0) == game.seat(0) and view.bank == game.bank
    assert make(level, 1).choose(game) in game.legal_moves()


def test_the_expert_deals_the_blind_reserves_it_cannot_see_from_the_unseen_cards() -> None:
    game = _midgame(2)
    if game.to_act != 1:
        game.push(_any_take(game))
    game.push(Reserve(deck=2, player=1))  # face down: nobody has seen it
    game.push(_any_take(game))
    game.push(Reserve(deck=2, player=1))
    view = public_view(game, 0)
    unseen = {c.id for c in view.unseen(2)}
    drawn = set()
    for n in range(20):
        table = determinised(view, random.Random(n))
        held = table.seat(1).reserved[-2:]
        assert all(isinstance(c, Card) for c in held) and held[0] != held[1]
        ids = {c.id for c in held}
        assert ids <= unseen and not ids & {c.id for c in table.unseen(2)}
        assert table.deck_size(2) == view.deck_size(2)
        drawn |= ids
    assert len(drawn) > 4  # drawn afresh each time
    assert view.seat(1).reserved[-1] == Hidden(2)  # the view itself is untouched


def test_a_companion_blind_reserves_only_when_a_reader_can_scan_the_card() -> None:
    # A position where reserving blind is the only sensible choice would be contrived;
    # instead every decision of many games is checked (see the 1000 games above) and here
    # the choices themselves: without a reader no blind reserve is offered.
    from companion.ai.view import choices

    game = Game(random_setup(random.Random(2), ["Ada", "Ben"]))
    assert any(_is_blind(m) for m in choices(game, blind=True))
    assert not any(_is_blind(m) for m in choices(game, blind=False))


@pytest.mark.parametrize("levels", [["hard", "medium", "easy"], ["expert", "easy"]])
def test_the_same_seed_plays_the_same_game_and_another_seed_another(levels: list[str]) -> None:
    first, seats = play_levels(levels, seed=11, think=0.03)
    again, _ = play_levels(levels, seed=11, think=0.03)
    other, _ = play_levels(levels, seed=12, think=0.03)
    assert first.moves == again.moves
    assert first.moves != other.moves
    assert seats == levels


def test_simulate_writes_a_record_naming_each_seats_level_and_replays_from_its_seed(
    tmp_path: Path,
) -> None:
    out = tmp_path / "game.json"
    command = [sys.executable, "-m", "companion", "simulate", "--seats", "hard,easy"]
    command += ["--think", "0.03", "--seed", "4", "--out", str(out)]
    subprocess.run(command, check=True, capture_output=True)
    record = read(out.read_text(encoding="utf-8"))
    app = record.extra["app"]
    assert app["seats"] == ["hard", "easy"]
    assert app["seed"] == 4
    assert companion_levels(record.extra, 2) == ("hard", "easy")
    result = replay(record)
    assert result.valid and result.game.over
    # The record says how to play the same game again.
    game, _ = play_levels(app["seats"], seed=app["seed"], think=app["think"])
    assert record.moves == list(game.moves)


@pytest.mark.parametrize(
    "seats",
    ["hard", "hard,easy,medium,easy,hard", "hard,champion", ""],
)
def test_simulate_refuses_a_bad_list_of_seats_and_says_how_to_write_it(seats: str) -> None:
    command = [sys.executable, "-m", "companion", "simulate", "--seats", seats]
    done = subprocess.run(command, capture_output=True, text=True)
    assert done.returncode != 0
    assert "like hard,easy" in done.stderr
    assert done.stdout == ""


def test_a_records_seat_levels_from_a_stranger_count_as_persons_when_malformed() -> None:
    assert app_seats(["hard", None]) == ["hard", "person"]
    assert companion_levels({"app": {"seats": ["hard", "person"]}}, 2) == ("hard", None)
    for bad in (
        {},
        {"app": "x"},
        {"app": {"seats": ["hard"]}},
        {"app": {"seats": ["hard", "genius"]}},
        {"app": {"seats": "hard,easy"}},
    ):
        assert companion_levels(bad, 2) == (None, None)
    with pytest.raises(ValueError):
        app_seats(["genius", None])


def test_a_record_keeps_the_seat_levels_through_writing_and_reading() -> None:
    game, seats = play_levels(["easy", "easy"], seed=3)
    from companion.records.record import write

    text = write(Record.of(game, app={"name": "t", "seats": seats}))
    assert json.loads(text)["app"]["seats"] == ["easy", "easy"]
    assert companion_levels(read(text).extra, 2) == ("easy", "easy")
    assert play([make("easy", 1), make("easy", 2)], seed=3).over


def test_statistics_count_a_persons_games_against_the_companion_apart(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from companion.cli import main
    from companion.journal.store import GameState, Store
    from companion.reports.stats import played_games, stats_of

    store = Store(tmp_path / "games.sqlite3")
    # Zoé plays Marc, then the companion (seat 1, hard), then the companion again (easy).
    for seed, names, seats in (
        (1, ("Zoé", "Marc"), None),
        (2, ("Zoé", "Companion"), ["person", "hard"]),
        (3, ("Zoé", "Companion"), ["person", "easy"]),
    ):
        game = play([make("easy", seed), make("medium", seed)], seed=seed, names=names)
        app = {"name": "t"} if seats is None else {"name": "t", "seats": seats}
        store.import_record(Record.of(game, app=app), GameState.of(game))
    games = played_games(store)
    store.close()
    assert sorted(g.against_companion for g in games) == [False, True, True]
    persons = {s.name: s for s in stats_of(g for g in games if not g.against_companion)}
    apart = {s.name: s for s in stats_of(g for g in games if g.against_companion)}
    assert persons["Zoé"].games == 1 and set(persons) == {"Zoé", "Marc"}
    # The companion is not a person: it has no line of its own.
    assert apart["Zoé"].games == 2 and set(apart) == {"Zoé"}
    assert main(["--data-dir", str(tmp_path), "stats"]) == 0
    out = capsys.readouterr().out
    before, _, after = out.partition("Against the companion:")
    assert "Zoé: 1 game," in before and "Marc: 1 game," in before
    # Level by level, easiest first, as the statistics screen: the level's games and how
    # many the people won, then Zoé's line at that level.
    zoe_won = {g.levels[1]: g.ranks[0] == 1 for g in games if g.against_companion}
    for level in ("easy", "hard"):
        heading = f"Companion ({level}): 1 game, won by the people: {int(zoe_won[level])} "
        assert heading in after, after
        assert "  Zoé: 1 game," in after.split(heading)[1].splitlines()[1]
    assert after.index("Companion (easy)") < after.index("Companion (hard)")
    # The companion is never a person: no line of figures of its own, under any name (its
    # seats were called "Companion"; a level's heading names it, with its level, only).
    people = {line.split(":")[0].strip() for line in out.splitlines() if "on average" in line}
    assert people == {"Zoé", "Marc"}
    assert not [line for line in out.splitlines() if line.startswith("Companion:")]


def test_the_text_export_names_the_companions_seats_and_levels() -> None:
    from companion.i18n import set_language
    from companion.reports.export import to_text

    game = play([make("easy", 1), make("hard", 1, rollouts=0)], seed=1, names=["Zoé", "Robo"])
    record = Record.of(game, app={"name": "t", "seats": app_seats([None, "hard"])})
    assert to_text(record).startswith("Splendor: Zoé, Robo (hard)\n")
    set_language("fr")
    assert "Robo (difficile)" in to_text(record)
    assert "companion" not in to_text(Record.of(game)).lower()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_decision_plays_the_same_moves_at_any_table(players: int) -> None:
    """The budget is two-player playouts' worth of moves (issue 37): a playout at four
    players plays 9 moves, at two 5, so a four-player decision gets 222 playouts of 400
    and takes a second of a Pi 4, as at two."""
    assert [playouts_at(400, n) for n in (2, 3, 4)] == [400, 285, 222]
    game = simulate(players=players, seed=7, max_moves=4 * players)
    budget = playouts_at(60, players)
    assert budget * (1 + 2 * players) <= 60 * 5 < (budget + 1) * (1 + 2 * players)
    hard = Hard(seed=3, rollouts=60).search(game)
    assert hard == search(game, stream(3, game), budget, False)
    expert = Expert(seed=3, rollouts=60).search(game)
    assert expert == expert_search(game, stream(3, game, "expert"), budget, False)
