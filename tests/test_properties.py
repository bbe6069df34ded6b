"""Property tests: thousands of random legal games keep every invariant of the rules."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.engine.cards import CARDS_BY_LEVEL, LEVELS
from companion.engine.game import Game, Hidden
from companion.engine.setup import starting_bank
from companion.engine.simulate import DEFAULT_NAMES, Dealer, choose, random_setup, simulate
from companion.engine.tokens import Tokens
from companion.records.record import Record, read, replay, write


def check_invariants(game: Game) -> None:
    seats = game.seats
    n = len(seats)
    # S1: every token is in the bank or in a hand, colour by colour (40 in all with 4...).
    total = game.bank
    for s in seats:
        total = total + s.tokens
    assert total == starting_bank(n)
    for s in seats:
        assert s.tokens.total <= 10, s  # T1
        assert len(s.reserved) <= 3, s  # A4
        assert min(s.tokens) >= 0
        # Points are the cards' plus the nobles'.
        assert s.points == sum(c.points for c in s.cards) + 3 * len(s.nobles)
        assert s.bonuses == tuple(sum(1 for c in s.cards if c.bonus == g) for g in range(5))
    # C2/H3: each level's cards are on the market, in the deck, reserved or bought.
    for level in LEVELS:
        face_up = sum(1 for c in game.market[level - 1] if c is not None)
        held = sum(1 for s in seats for c in (*s.cards, *s.reserved) if c.level == level)
        assert face_up + game.deck_size(level) + held == len(CARDS_BY_LEVEL[level])
        hidden = sum(
            1 for s in seats for c in s.reserved if isinstance(c, Hidden) and c.level == level
        )
        assert len(game.unseen(level)) == game.deck_size(level) + hidden
    # N1: a noble is on the table or with exactly one player, never both.
    placed = [n.id for n in game.nobles] + [n.id for s in seats for n in s.nobles]
    assert sorted(placed) == sorted(game.setup.nobles)
    ids = [c.id for s in seats for c in (*s.cards, *s.reserved) if not isinstance(c, Hidden)]
    ids += [c.id for row in game.market for c in row if c is not None]
    assert len(ids) == len(set(ids)), "a card is in two places"


def play_checked(seed: int, players: int, check_undo: bool) -> Game:
    rng = random.Random(seed)
    game = Game(random_setup(rng, DEFAULT_NAMES[:players]))
    dealer = Dealer(game, rng)
    check_invariants(game)
    while not game.over and not game.stalled:
        legal = list(game.legal_moves())
        assert legal, "a player always has a move, a pass at worst"
        move = dealer.deal(choose(rng, legal))
        before = game.position() if check_undo else None
        game.push(move)
        check_invariants(game)
        if check_undo:
            game.undo()
            assert game.position() == before
            game.push(move)
    return game


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4))
def test_random_games_keep_invariants_and_undo_restores_exactly(seed: int, players: int) -> None:
    game = play_checked(seed, players, check_undo=True)
    assert game.over or game.stalled
    # E1: the game ends only after the last seat's turn.
    if game.over:
        assert len(game.moves) % players == 0
        assert max(s.points for s in game.seats) >= 15
        assert game.winners()


@pytest.mark.long
def test_thousands_of_random_games_keep_invariants() -> None:
    for seed in range(1500):
        play_checked(seed, 2 + seed % 3, check_undo=False)


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4))
def test_replay_of_written_record_is_the_same_game(seed: int, players: int) -> None:
    game = simulate(players=players, seed=seed)
    again = replay(read(write(Record.of(game))))
    assert again.valid
    assert again.game.moves == game.moves
    assert again.game.position() == game.position()
    assert again.game.standings() == game.standings()


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(1, 400))
def test_undo_any_number_of_steps_back(seed: int, steps: int) -> None:
    game = simulate(players=3, seed=seed)
    steps = min(steps, len(game.moves))
    for _ in range(steps):
        game.undo()
    expected = Game(game.setup)
    for move in game.moves:
        expected.push(move)
    assert game.position() == expected.position()
    assert not game.over


def test_every_legal_move_is_accepted_and_a_tampered_one_is_explained() -> None:
    rng = random.Random(99)
    for seed in range(40):
        game = simulate(players=2 + seed % 3, seed=seed, max_moves=rng.randrange(0, 60))
        dealer = Dealer(game, rng)
        for move in list(game.legal_moves()):
            dealt = dealer.deal(move)
            assert game.explain(dealt) is None, (str(dealt), game.explain(dealt))
        position = game.position()
        bad = game.parse("take " + str(Tokens(gold=1)))
        assert game.explain(bad) is not None
        assert game.position() == position
