"""The engine's structure: positions and their text form, actions and completions, the
fast path of ``push`` against the step-by-step checker, rules variants, copies, memory."""

from __future__ import annotations

import dataclasses
import gc
import hashlib
import pickle
import random
import sys
import tracemalloc

import pytest
from helpers import Hand, new_game, position

from companion import (
    BASE,
    ErrorCode,
    Game,
    IllegalMove,
    Position,
    RecordError,
    Status,
    Tokens,
    i18n,
)
from companion.engine.moves import Buy, Move, Pass, Reserve, Take, with_parts
from companion.engine.position import Hidden
from companion.engine.simulate import DEFAULT_NAMES, Dealer, random_setup
from companion.errors import CompanionError, TextError

# Among the tests tools/pi-check runs on the Pi's processor (pytest -m pi).
pytestmark = pytest.mark.pi


def random_play(seed: int, players: int = 2) -> tuple[Game, Dealer, random.Random]:
    rng = random.Random(seed)
    game = Game(random_setup(rng, DEFAULT_NAMES[:players]))
    return game, Dealer(game, rng), rng


def step(game: Game, dealer: Dealer, rng: random.Random) -> Move:
    """One uniform random turn through the public API: an action, then its completion."""
    move = dealer.deal(rng.choice(game.completions(rng.choice(game.actions()))))
    return game.push(move)


def variants(game: Game, move: Move, rng: random.Random) -> list[Move]:
    """``move`` and moves near it, most of them illegal: what a table may declare."""
    out = [move, with_parts(move, reveal=None), with_parts(move, returned=None)]
    out.append(with_parts(move, noble=None))
    out.append(with_parts(move, noble=rng.choice(["N1", "N5", "N9", "N11"])))
    out.append(with_parts(move, returned=Tokens(gold=1)))
    out.append(with_parts(move, returned=Tokens(red=1, black=1)))
    if move.reveal is not None:
        out.append(with_parts(move, reveal="1W1"))
    if isinstance(move, Take):
        out.append(with_parts(move, gems=Tokens(red=2)))
        out.append(with_parts(move, gems=Tokens(1, 1, 0, 0, 0)))
    out.append(Reserve(deck=1, card="1W1", player=move.player))
    out.append(with_parts(move, player=(move.player + 1) % len(game.names)))
    out.append(Pass(player=move.player))
    me = game.seat(move.player)
    if isinstance(move, Buy):
        card = game.rules.cards[move.card]
        paid = game.default_payment(move.player, card)
        out.append(with_parts(move, payment=paid))
        if paid is not None and paid.gold:  # the same price, one coloured token for gold
            colour = next(c for c in range(5) if game.cost(move.player, card)[c] > paid[c])
            out.append(with_parts(move, payment=paid - Tokens(gold=1) + Tokens._make(
                [int(c == colour) for c in range(6)])))  # fmt: skip
        out.append(with_parts(move, payment=Tokens(gold=1)))
    for held in me.reserved:  # a blind-reserved card bought: any unseen card of its level
        if isinstance(held, Hidden):
            for card in game.unseen(held.level)[:2]:
                out.append(with_parts(Buy(card.id, player=move.player), reveal=None))
    return out


def fingerprint(seeds: range) -> str:
    """How the engine plays, as one digest: seeded games of 2 to 4 players through the
    public API (every action listed, the completions of the one chosen, what it still needs,
    the move dealt and pushed, an undo every 7 moves), with the code and words of the
    refusal of nine moves tried at every turn, and each game's last position and standings."""
    digest = hashlib.sha256()
    for seed in seeds:
        game, dealer, rng = random_play(seed, players=2 + seed % 3)
        while not game.over and not game.stalled:
            seat = game.to_act
            actions = game.actions()
            action = rng.choice(actions)
            done = game.completions(action)
            move = dealer.deal(rng.choice(done))
            tries = [
                Take(Tokens(white=2, blue=1), player=seat),
                Buy("3K4", player=seat),
                Reserve(deck=1, player=1 - seat),
                Pass(player=seat),
                action,
                with_parts(move, returned=Tokens(gold=1)),
                with_parts(move, noble="N5"),
                with_parts(move, reveal=None),
                Buy("1W1", payment=Tokens(white=1), player=seat),
            ]
            for tried in tries:
                err = game.explain(tried)
                digest.update(f"{err.code.value} {err}".encode() if err else b"ok")
            due = game.due(action)
            listed = " ".join(map(str, actions))
            digest.update(f"{listed}|{len(done)}|{move}|{game.reveal_due(move)}|{due}".encode())
            game.push(move)
            if len(game.moves) % 7 == 0:
                game.undo()
                game.push(move)
        digest.update(f"{game.text()} {game.standings()}".encode())
    return digest.hexdigest()


def test_the_engine_plays_as_it_always_has() -> None:
    """Recorded before the engine was rewritten with each move's effect written once: a
    change of this digest is a change of how games play (or of what a refusal says)."""
    assert fingerprint(range(24)) == (
        "c21ac109bf2b849bae239251d6d9b79f6dc02c3e1bdf675627f1b094130c61c1"
    )


@pytest.mark.long
def test_the_engine_plays_as_it_always_has_over_360_games() -> None:
    assert fingerprint(range(360)) == (
        "c50ca7f3e97b71128f2b256992a6fb84583f3e8aef904b7cad132a9c5adc3077"
    )


@pytest.mark.parametrize("seed", range(12))
def test_the_fast_verdict_agrees_with_the_explaining_one(seed: int) -> None:
    """Each move's effect is written once, with two verdicts over it: the fast one
    (push, is_legal) and the one that says why (explain). On every move near a legal one,
    they refuse the same moves, and the position after an accepted one is the same."""
    game, dealer, rng = random_play(seed, players=2 + seed % 3)
    while not game.over and not game.stalled:
        state = game.position()
        whole = dealer.deal(rng.choice(list(game.legal_moves())))
        for move in variants(game, whole, rng):
            fast = game._play(state, move, False)
            assert game.is_legal(move) == (fast is not None)
            try:
                explained = game._play(state, move, True)
            except IllegalMove:
                assert fast is None, f"{move} is illegal but the fast verdict accepts it"
            else:
                assert explained is not None, f"{move}: refused without a reason"
                assert fast == explained, f"{move} is legal but the fast verdict refuses it"
        game.push(whole)


@pytest.mark.parametrize("seed", range(6))
def test_every_position_of_a_game_round_trips_through_its_text(seed: int) -> None:
    game, dealer, rng = random_play(seed, players=2 + seed % 3)
    while not game.over and not game.stalled:
        text = game.text()
        again = Game.from_text(text, names=game.names)
        assert again.position() == game.position()
        assert again.text() == text
        assert again.actions() == game.actions()
        whole = [m for a in game.actions() for m in game.completions(a)]
        assert list(game.legal_moves()) == whole
        assert again.status == game.status
        step(game, dealer, rng)
    assert game.text().endswith(f" {game.round} {game.status.value}")


def test_actions_and_their_completions_are_exactly_the_legal_moves() -> None:
    # Nine tokens and two nobles one bonus away: returns and a noble choice are due.
    game = position(
        Hand(tokens="WWUUGGRRK", cards="1G1 1G2 1G3 1G4 1R2 1R3 1R4 1K2 1K3 1K4 2R1"),
        Hand(),
        market=("1W1 1U1 1G7 1R1", "2W1 2U1 2G1 2R2", "3W1 3U1 3G1 3R1"),
        nobles="N6 N9 N10",
    )
    whole = [m for a in game.actions() for m in game.completions(a)]
    assert whole == list(game.legal_moves())
    assert len(set(whole)) == len(whole)
    take = game.parse("take WUG")
    assert take in game.actions()
    due = game.due(take)
    assert due.returns == 2
    completions = game.completions(take)
    assert len(completions) > 1
    assert all(m.returned is not None and m.returned.total == 2 for m in completions)
    assert completions[-1] == list(completions)[-1]
    for move in completions:
        assert game.explain(move) is None
    assert game.explain(take).code == ErrorCode.TOKEN_LIMIT  # the bare action is not whole


def test_a_copy_plays_on_without_touching_the_original() -> None:
    game, dealer, rng = random_play(3)
    for _ in range(10):
        step(game, dealer, rng)
    text, moves = game.text(), game.moves
    twin = game.copy()
    twin_dealer = Dealer(twin, rng)
    for _ in range(6):
        step(twin, twin_dealer, rng)
    twin.undo()
    assert game.text() == text and game.moves == moves
    assert len(twin.moves) == len(moves) + 5


def test_a_variant_changes_the_rules_the_game_plays_by() -> None:
    short = dataclasses.replace(BASE, name="short", winning_points=3, reserve_limit=1)
    assert short.cards_by_level[1] == BASE.cards_by_level[1]
    setup = Game(random_setup(random.Random(1), ["Ada", "Ben"])).setup
    game = Game(setup, rules=short)
    assert game.rules.winning_points == 3
    game.push(Reserve(deck=1, player=0))
    game.push(Reserve(deck=1, player=1))
    assert game.explain(Reserve(deck=2, player=0)).code == ErrorCode.RESERVE_LIMIT
    # One noble's visit (3 points) is enough to end this game at the end of the round.
    won = position(Hand(points=3), Hand(), to_act=1)
    won = Game.from_text(won.text(), rules=short)
    won.push(won.actions()[0])
    assert won.over and won.status == Status.OVER


def test_a_refusal_says_the_figures_of_the_rules_played() -> None:
    """Under a variant (1 reserved card, 8 tokens, a win at 10 points) the refusals say
    its figures, in the reader's language, and the game ends at its winning points."""
    small = dataclasses.replace(
        BASE, name="small", reserve_limit=1, token_limit=8, winning_points=10
    )
    setup = Game(random_setup(random.Random(1), ["Ada", "Ben"])).setup
    game = Game(setup, rules=small)
    game.push(Reserve(deck=1, player=0))
    game.push(Reserve(deck=1, player=1))
    refused = game.explain(Reserve(deck=2, player=0))
    assert refused is not None and refused.code == ErrorCode.RESERVE_LIMIT
    assert refused.message == ("Ada already holds 1 reserved card: buy one before reserving again")
    i18n.set_language("fr")
    try:
        assert "1 carte réservée en main" in refused.message
    finally:
        i18n.set_language("en")
    # Seven tokens and a gold: a take of three ends at 10, two above this table's 8.
    crowded = position(Hand(tokens="WWUUGGR*"), Hand())
    crowded = Game.from_text(crowded.text(), names=["Ada", "Ben"], rules=small)
    take = crowded.parse("take WUG")
    too_many = crowded.explain(take)
    assert too_many is not None and too_many.code == ErrorCode.TOKEN_LIMIT
    assert too_many.message.endswith("return 3 to get down to 8")
    over = crowded.explain(crowded.parse("take WUG return WUGR"))
    assert over is not None and over.message.endswith("only 3 are needed to get down to 8")
    assert crowded.due(take).returns == 3
    # Ten points end this game at the end of the round.
    won = position(Hand(points=7), Hand(), to_act=1)
    won = Game.from_text(won.text(), rules=small)
    won.push(won.actions()[0])
    assert not won.over
    ten = position(Hand(points=10), Hand(), to_act=1)
    ten = Game.from_text(ten.text(), rules=small)
    ten.push(ten.actions()[0])
    assert ten.over and ten.winners() == ["Player 1"]


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("W4 -:-:-:-:0", "position"),
        ("W4U4G4R4K4*5 -:-:-:0/-:-:-:-:0 {m} 36,26,16 N1,N2,N3 0 0 1 playing", "seats[0]"),
        ("W4U4G4R4K4Z5 -:-:-:-:0/-:-:-:-:0 {m} 36,26,16 N1,N2,N3 0 0 1 playing", "bank"),
        ("W4U4G4R4K4*5 -:-:-:-:0/-:-:-:-:0 {m} 36,26,16 N1,N2,N99 0 0 1 playing", "nobles"),
        ("W4U4G4R4K4*5 -:-:-:-:0/-:-:-:-:0 {m} 36,26,16 N1,N2,N3 2 0 1 playing", "to-act"),
        ("W4U4G4R4K4*5 -:-:-:-:0/-:-:-:-:0 {m} 36,26,16 N1,N2,N3 0 0 1 stalled", "status"),
        ("W4U4G4R4K4*5 -:-:-:-:x/-:-:-:-:0 {m} 36,26,16 N1,N2,N3 0 0 1 playing", "points"),
        ("W4U4G4R4K4*5 -:-:-:-:0/-:-:-:-:0 2W9,1W2,1W3,1W4/{r} 36,26,16 N1 0 0 1 playing", "1"),
    ],
)
def test_a_bad_position_text_names_the_field_to_fix(text: str, where: str) -> None:
    market = "1W1,1W2,1W3,1W4/2W1,2W2,2W3,2W4/3W1,3W2,3W3,3W4"
    text = text.format(m=market, r=market.split("/", 1)[1])
    with pytest.raises(RecordError) as info:
        Position.parse(text)
    assert where in info.value.path
    assert info.value.message.startswith("position")


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("", 'empty move: write "take", "reserve", "buy" or "pass"'),
        ("take WZ", "'Z' is not a token letter: write W U G R K, and * for gold"),
        ("take W return", "'return' needs a value after it"),
        ("take W pay R", "only a buy has a payment"),
        ("fly", "cannot read 'fly': write \"take WUG\""),
        ("reserve L2x", "cannot read 'reserve L2x'"),
        ("reserve L\u00b2", "cannot read 'reserve L\u00b2'"),  # a digit int() refuses
    ],
)
def test_a_bad_move_text_is_a_translated_error_of_the_root(text: str, said: str) -> None:
    with pytest.raises(TextError) as info:
        new_game().parse(text)
    assert isinstance(info.value, CompanionError)
    assert info.value.code is ErrorCode.MALFORMED_MOVE
    english = info.value.message
    assert said in english
    i18n.set_language("fr")
    assert info.value.message != english  # said in the table's language


@pytest.mark.long
def test_memory_stays_flat_over_ten_thousand_games() -> None:
    """No cache grows with the games played (the engine once kept every move it built).

    Memory blocks are counted over all 10,000 games; the last 500 are also traced
    (tracemalloc slows every allocation, too much to trace them all), so that a failure
    names the line that keeps memory.
    """

    def games(seeds: range) -> int:
        for seed in seeds:
            game, dealer, rng = random_play(seed)
            while not game.over and not game.stalled:
                step(game, dealer, rng)
        gc.collect()
        return sys.getallocatedblocks()

    after_1000 = games(range(1_000))  # the bounded tables fill in the first games
    games(range(1_000, 9_500))
    tracemalloc.start()
    try:
        before = tracemalloc.take_snapshot()
        games(range(9_500, 10_000))
        growth = tracemalloc.take_snapshot().compare_to(before, "lineno")
    finally:
        tracemalloc.stop()
    kept = [str(stat) for stat in growth[:3] if stat.size_diff > 0]
    traced = sum(stat.size_diff for stat in growth)
    del before, growth
    after_10000 = games(range(0))
    assert traced < 20_000, kept
    assert after_10000 - after_1000 < 1_000, (after_1000, after_10000, kept)


def test_a_position_needs_one_name_per_seat() -> None:
    text = position(Hand(), Hand(), Hand()).text()
    assert Game.from_text(text).names == ("Player 1", "Player 2", "Player 3")
    with pytest.raises(RecordError) as info:
        Game.from_text(text, names=["Ada", "Ben"])
    assert info.value.path == "names" and "3 seats" in info.value.message


@pytest.mark.parametrize("players", [2, 4])
def test_the_buys_listed_are_exactly_the_cards_the_player_can_afford(players: int) -> None:
    """actions() decides a buy in two ways, with gold and without (written out for speed):
    both must agree with the default payment on every card offered, face up or reserved."""
    with_gold = without_gold = 0
    for seed in range(40):
        game, dealer, rng = random_play(seed, players)
        while not game.over and not game.stalled:
            me = game.seat(game.to_act)
            offered = [c for row in game.market for c in row if c is not None]
            offered += [c for c in me.reserved if not isinstance(c, Hidden)]
            affordable = {c.id for c in offered if game.can_afford(game.to_act, c)}
            listed = {m.card for m in game.actions() if isinstance(m, Buy)}
            assert listed == affordable, (game.text(), listed ^ affordable)
            if me.tokens.gold:
                with_gold += bool(affordable)
            else:
                without_gold += bool(affordable)
            step(game, dealer, rng)
    assert with_gold > 100 and without_gold > 100  # both ways were exercised


def test_the_dealer_deals_only_unseen_cards_across_undos() -> None:
    """The simulated table keeps each level's unseen cards up to date from move to move;
    an undo puts cards back, and no card is ever dealt twice."""
    game, dealer, rng = random_play(7, 3)
    for turn in range(400):
        if game.over or game.stalled:
            break
        if turn % 9 == 8:
            for _ in range(3):
                game.undo()
        move = dealer.deal(rng.choice(game.completions(rng.choice(game.actions()))))
        for level in game.rules.levels:
            assert [c.id for c in dealer.unseen(level)] == [c.id for c in game.unseen(level)]
        if move.reveal is not None:
            assert move.reveal in {c.id for c in game.unseen(int(move.reveal[0]))}
        game.push(move)
    seen = [c.id for row in game.market for c in row if c is not None]
    for seat in game.seats:
        seen += [c.id for c in seat.cards] + [c.id for c in seat.reserved]
    assert len(seen) == len(set(seen))


def test_a_card_is_itself_in_another_process() -> None:
    """Cards and nobles compare by identity (the engine finds them by C scans), so a copy
    sent to another process (the benchmarks' workers) must come back as the table's own."""
    game, dealer, rng = random_play(3)
    for _ in range(30):
        step(game, dealer, rng)
    copy = pickle.loads(pickle.dumps(game.position()))
    assert copy == game.position()
    assert all(a is b for a, b in zip(copy.market[0], game.market[0], strict=True))
    assert Game.from_position(copy).actions() == game.actions()
    assert pickle.loads(pickle.dumps(BASE.nobles["N3"])) is BASE.nobles["N3"]
