"""One or more tests per clause of ``docs/rules.md``, each named ``test_<clause>_<what>``.

Each illegal move is checked for its exact error code (``docs/game-record.md``), for
leaving the game unchanged, and for not being listed by ``legal_moves()``; each legal
move for being listed (reveal and payment aside: the table declares them).
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest
from helpers import (
    MARKET,
    NAMES,
    Hand,
    assert_illegal,
    assert_legal,
    assert_listed_moves_legal,
    listed,
    new_game,
    play,
    position,
)

from companion import (
    CARDS,
    CARDS_BY_LEVEL,
    GEMS,
    NOBLES,
    Buy,
    Colour,
    ErrorCode,
    Game,
    Hidden,
    Pass,
    RecordError,
    Reserve,
    Setup,
    Take,
    Tokens,
    starting_bank,
)

E = ErrorCode


def takes(game: Game) -> set[str]:
    """The takes ``legal_moves()`` lists, in text form."""
    return {m for m in listed(game) if m.startswith("take")}


# ------------------------------------------------------------------ C: components


def test_C1_five_gem_colours_and_gold() -> None:
    assert [c.key for c in GEMS] == ["white", "blue", "green", "red", "black"]
    assert [c.key for c in Colour] == [*(c.key for c in GEMS), "gold"]
    assert "".join(c.letter for c in Colour) == "WUGRK*"
    assert Colour.GOLD not in GEMS
    # Cards give and cost gems only; nobles ask for gems only.
    assert {c.bonus for c in CARDS.values()} == set(GEMS)
    assert all(len(c.cost) == len(GEMS) for c in CARDS.values())
    assert all(len(n.requires) == len(GEMS) for n in NOBLES.values())


def test_C1_gold_is_wild_for_every_gem_colour() -> None:
    # 1W1 costs red and black, 1U1 black, 1R1 blue and green, 1R7 white: gold pays all.
    game = position(Hand(tokens="***"), Hand(), market=("1W1 1U1 1R1 1R7", *MARKET[1:]))
    for card in ("1W1", "1U1", "1R1", "1R7"):
        assert game.default_payment(0, CARDS[card]) == Tokens(gold=3)
        assert f"buy {card}" in listed(game)
        assert_legal(game, f"buy {card} pay *** reveal 1W5", push=False)


def test_C2_ninety_cards_40_30_20() -> None:
    assert len(CARDS) == 90
    assert [len(CARDS_BY_LEVEL[level]) for level in (1, 2, 3)] == [40, 30, 20]
    assert all(card.level == level for level in (1, 2, 3) for card in CARDS_BY_LEVEL[level])


def test_C2_eight_six_four_cards_per_bonus_colour_per_level() -> None:
    for level, each in ((1, 8), (2, 6), (3, 4)):
        counts = Counter(card.bonus for card in CARDS_BY_LEVEL[level])
        assert counts == dict.fromkeys(GEMS, each), level


def test_C2_card_ids_name_level_bonus_and_position() -> None:
    seen: Counter[tuple[int, Colour]] = Counter()
    for card in CARDS.values():  # in the order of cards.csv
        seen[card.level, card.bonus] += 1
        assert card.id == f"{card.level}{card.bonus.letter}{seen[card.level, card.bonus]}"


def test_C2_ten_nobles_of_three_points() -> None:
    assert list(NOBLES) == [f"N{i}" for i in range(1, 11)]
    assert all(noble.points == 3 for noble in NOBLES.values())


# ------------------------------------------------------------------ S: setup


@pytest.mark.parametrize(("players", "gems"), [(2, 4), (3, 5), (4, 7)])
def test_S1_starting_bank_four_five_seven_and_five_gold(players: int, gems: int) -> None:
    game = new_game(players)
    assert game.bank == Tokens(gems, gems, gems, gems, gems, gold=5)
    assert starting_bank(players) == game.bank
    assert all(game.seat(i).tokens == Tokens() for i in range(players))


@pytest.mark.parametrize("players", [0, 1, 5])
def test_S1_two_to_four_players(players: int) -> None:
    names = [f"P{i}" for i in range(players)]
    nobles = [f"N{i}" for i in range(1, min(players, 9) + 2)]
    with pytest.raises(RecordError) as info:
        Setup.of(names, nobles, MARKET)
    assert info.value.code == E.MALFORMED_RECORD
    assert info.value.path == "players"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_S2_players_plus_one_nobles_revealed(players: int) -> None:
    nobles = [f"N{i}" for i in range(10, 9 - players, -1)]
    game = new_game(players, nobles=nobles)
    assert [n.id for n in game.nobles] == nobles
    assert len(game.nobles) == players + 1


@pytest.mark.parametrize(
    "nobles",
    [["N1", "N2"], ["N1", "N2", "N3", "N4"], ["N1", "N1", "N2"], ["N1", "N2", "N11"]],
    ids=["too-few", "too-many", "twice", "unknown"],
)
def test_S2_wrong_nobles_are_a_record_error(nobles: list[str]) -> None:
    with pytest.raises(RecordError) as info:
        Setup.of(NAMES[:2], nobles, MARKET)
    assert info.value.code == E.MALFORMED_RECORD
    assert info.value.path.startswith("setup.nobles")


def test_S3_four_face_up_cards_per_level() -> None:
    game = new_game(2)
    assert [[c.id for c in row if c] for row in game.market] == [r.split() for r in MARKET]
    assert [game.deck_size(level) for level in (1, 2, 3)] == [36, 26, 16]


@pytest.mark.parametrize(
    "level1",
    ["1W1 1U1 1G1", "1W1 1U1 1G1 1R1 1K1", "1W1 1U1 1G1 2W2", "1W1 1W1 1G1 1R1", "1W1 1U1 1G1 9Z9"],
    ids=["three", "five", "wrong-level", "twice", "unknown"],
)
def test_S3_market_needs_four_distinct_cards_of_the_level(level1: str) -> None:
    with pytest.raises(RecordError) as info:
        Setup.of(NAMES[:2], ["N1", "N2", "N3"], [level1, *MARKET[1:]])
    assert info.value.code == E.MALFORMED_RECORD
    assert info.value.path.startswith("setup.market.1")


def test_S4_first_seat_starts_and_play_follows_the_order() -> None:
    game = new_game(3)
    order = [game.to_act]
    for text in ("take WUG", "take WUR", "take WUK", "take RR"):
        game.push(text)
        order.append(game.to_act)
    assert order == [0, 1, 2, 0, 1]
    assert [m.player for m in game.moves] == [0, 1, 2, 0]


def test_S4_move_by_another_seat_is_wrong_player() -> None:
    game = new_game(3)
    assert_illegal(game, Take(Tokens.parse("WUG"), player=1), E.WRONG_PLAYER)
    assert_illegal(game, Take(Tokens.parse("WUG"), player=2), E.WRONG_PLAYER)
    assert all(m.player == 0 for m in game.legal_moves())
    game.push("take WUG")
    assert_illegal(game, Take(Tokens.parse("RKW"), player=0), E.WRONG_PLAYER)
    assert_legal(game, Take(Tokens.parse("RKW"), player=1))


# ------------------------------------------------------------------ A: one action


def test_A1_take_three_different_colours() -> None:
    game = new_game(2)
    assert_legal(game, "take WUG")
    assert game.seat(0).tokens == Tokens(1, 1, 1)
    assert game.bank == Tokens(3, 3, 3, 4, 4, gold=5)
    assert game.to_act == 1


def test_A1_gold_can_never_be_taken() -> None:
    game = new_game(2)
    assert_illegal(game, "take WU*", E.TAKE_INVALID)
    assert_illegal(game, "take *", E.TAKE_INVALID)
    assert_illegal(game, "take **", E.TAKE_INVALID)
    assert all("*" not in m for m in takes(game))
    # Not even when gold is all the bank has left.
    empty = position(Hand(), Hand(), bank=Tokens(gold=5))
    assert_illegal(empty, "take *", E.TAKE_INVALID)


@pytest.mark.parametrize("gems", ["WUGR", "WWU", "WWW", "WWUU", "WUGRK"])
def test_A1_other_shapes_are_take_invalid(gems: str) -> None:
    assert_illegal(new_game(2), f"take {gems}", E.TAKE_INVALID)


def test_A1_bank_short_when_a_colour_taken_is_empty() -> None:
    game = position(Hand(), Hand(), bank=Tokens(0, 4, 4, 4, 4, gold=5))
    assert_illegal(game, "take WUG", E.BANK_SHORT)
    assert_legal(game, "take UGR")


def test_A1_legal_takes_at_the_start() -> None:
    game = new_game(2)
    threes = {"".join(t) for t in combinations("WUGRK", 3)}
    twos = {c * 2 for c in "WUGRK"}
    assert takes(game) == {f"take {g}" for g in threes | twos}
    assert_listed_moves_legal(game)


def test_A2_take_two_of_a_colour_with_four_in_bank() -> None:
    game = new_game(2)
    assert_legal(game, "take RR")
    assert game.seat(0).tokens == Tokens(red=2)
    assert game.bank.red == 2


def test_A2_take_two_needs_four_in_bank() -> None:
    game = play(new_game(2), "take WUG")  # white down to 3
    assert_illegal(game, "take WW", E.TAKE_TWO_NEEDS_FOUR)
    assert_legal(game, "take RR")
    # Red is down to 2, and a colour at 0 is no better.
    assert_illegal(game, "take RR", E.TAKE_TWO_NEEDS_FOUR)
    empty = position(Hand(), Hand(), bank=Tokens(0, 4, 4, 4, 4, gold=5))
    assert_illegal(empty, "take WW", E.TAKE_TWO_NEEDS_FOUR)


def test_A2_four_before_taking_is_enough() -> None:
    game = play(new_game(3), "take WUG")  # 3 players: white 5 -> 4
    assert game.bank.white == 4
    assert_legal(game, "take WW")
    assert game.bank.white == 2


def test_A3_fewer_colours_illegal_while_three_are_available() -> None:
    game = new_game(2)
    assert_illegal(game, "take W", E.TAKE_INVALID)
    assert_illegal(game, "take WU", E.TAKE_INVALID)
    three = position(Hand(), Hand(), bank=Tokens(1, 1, 1, 0, 0, gold=5))
    assert_illegal(three, "take WU", E.TAKE_INVALID)
    assert_illegal(three, "take G", E.TAKE_INVALID)
    assert takes(three) == {"take WUG"}
    assert_legal(three, "take WUG")


def test_A3_fewer_colours_only_when_fewer_than_three_available() -> None:
    game = position(Hand(), Hand(), bank=Tokens(2, 1, 0, 0, 0, gold=5))
    assert takes(game) == {"take W", "take U", "take WU"}
    assert_illegal(game, "take WUG", E.BANK_SHORT)
    assert_illegal(game, "take WW", E.TAKE_TWO_NEEDS_FOUR)
    assert_illegal(game, "take WWU", E.TAKE_INVALID)
    for text in ("take W", "take U"):
        assert_legal(game, text, push=False)
    assert_legal(game, "take WU")
    assert game.seat(0).tokens == Tokens(1, 1)
    assert game.bank == Tokens(1, 0, 0, 0, 0, gold=5)


def test_A3_one_colour_left() -> None:
    game = position(Hand(), Hand(), bank=Tokens(red=4, gold=5))  # all a 2-player bank has
    assert takes(game) == {"take R", "take RR"}
    assert_illegal(game, "take RK", E.BANK_SHORT)
    assert_legal(game, "take R")
    assert_listed_moves_legal(game)


def test_A4_reserve_face_up_card_takes_one_gold() -> None:
    game = new_game(2)
    assert_legal(game, "reserve 1W1 reveal 1W5")
    me = game.seat(0)
    assert me.reserved == (CARDS["1W1"],)
    assert me.tokens == Tokens(gold=1)
    assert game.bank.gold == 4
    assert game.market[0][0] == CARDS["1W5"]


def test_A4_blind_reserve_from_the_top_of_a_deck() -> None:
    game = new_game(2)
    market = game.market
    assert_legal(game, "reserve L3")
    assert game.seat(0).reserved == (Hidden(3),)
    assert game.seat(0).tokens == Tokens(gold=1)
    assert game.market == market
    assert game.deck_size(3) == 15


def test_A4_reserve_with_no_gold_left_is_legal() -> None:
    game = position(Hand(), Hand(), bank=Tokens(4, 4, 4, 4, 4, gold=0))
    assert_legal(game, "reserve 1W1 reveal 1W5")
    assert game.seat(0).tokens == Tokens()
    assert game.bank.gold == 0
    game.push("reserve L2")
    assert game.seat(1).reserved == (Hidden(2),)
    assert game.seat(1).tokens == Tokens()


def test_A4_at_most_three_reserved_cards() -> None:
    game = play(
        new_game(2),
        "reserve L1",
        "take WUG",
        "reserve 2W1 reveal 2W5",
        "take WUR",
        "reserve L3:3K4",
        "take GRK",
    )
    assert len(game.seat(0).reserved) == 3
    assert_illegal(game, "reserve L1", E.RESERVE_LIMIT)
    assert_illegal(game, "reserve 1W1 reveal 1W5", E.RESERVE_LIMIT)
    assert not any(isinstance(m, Reserve) for m in game.legal_moves())
    # Nothing discards them: they stay through the next turns.
    play(game, "take WUK")
    assert game.seat(0).reserved == (Hidden(1), CARDS["2W1"], CARDS["3K4"])


def test_A4_reserve_card_not_face_up_is_unavailable() -> None:
    game = new_game(2)
    assert_illegal(game, "reserve 1W5", E.CARD_UNAVAILABLE)
    game = play(game, "reserve 1W1 reveal 1W5")
    assert_illegal(game, "reserve 1W1 reveal 1W6", E.CARD_UNAVAILABLE)  # Ada's now


def test_A5_buy_pays_the_cost_and_tokens_go_back_to_the_bank() -> None:
    game = position(Hand(tokens="RRRK*"), Hand(), bank=Tokens(4, 4, 4, 1, 3, gold=4))
    assert game.default_payment(0, CARDS["1W1"]) == Tokens(red=2, black=1)
    assert_legal(game, "buy 1W1 reveal 1W5")
    me = game.seat(0)
    assert me.cards == (CARDS["1W1"],)
    assert me.bonuses == (1, 0, 0, 0, 0)
    assert me.tokens == Tokens(red=1, gold=1)
    assert game.bank == Tokens(4, 4, 4, 3, 4, gold=4)


def test_A5_spent_gold_goes_back_to_the_bank() -> None:
    game = position(Hand(tokens="R**"), Hand(), bank=Tokens(4, 4, 4, 3, 4, gold=3))
    assert game.default_payment(0, CARDS["1W1"]) == Tokens(red=1, gold=2)
    assert_legal(game, "buy 1W1 reveal 1W5")
    assert game.seat(0).tokens == Tokens()
    assert game.bank == Tokens(4, 4, 4, 4, 4, gold=5)


def test_A5_cost_is_reduced_by_bonuses_never_below_zero() -> None:
    # Three red bonuses against 1W1's cost of 2 red and 1 black.
    game = position(Hand(tokens="K", cards="1R2 1R3 1R4"), Hand())
    assert game.cost(0, CARDS["1W1"]) == Tokens(black=1)
    assert_illegal(game, "buy 1W1 pay RK reveal 1W5", E.PAYMENT_INVALID)
    assert_legal(game, "buy 1W1 pay K reveal 1W5")
    assert game.seat(0).tokens == Tokens()


def test_A5_gold_may_pay_while_holding_the_coloured_token() -> None:
    game = position(Hand(tokens="RRK*"), Hand())
    for pay in ("RR*", "RK*"):
        assert_legal(game, f"buy 1W1 pay {pay} reveal 1W5", push=False)
    assert_legal(game, "buy 1W1 pay RR* reveal 1W5")
    assert game.seat(0).tokens == Tokens(black=1)


@pytest.mark.parametrize(
    "pay",
    ["RRRK", "RKK", "RRK*", "RR", "RK", "RR**", "UR*", "RRKG"],
    ids=[
        "too-much-red",
        "black-for-red",
        "gold-extra",
        "short",
        "short2",
        "gold-not-held",
        "blue-not-held",
        "green-extra",
    ],
)
def test_A5_payment_must_cover_the_cost_exactly(pay: str) -> None:
    game = position(Hand(tokens="RRRKKG*"), Hand())
    assert_illegal(game, f"buy 1W1 pay {pay} reveal 1W5", E.PAYMENT_INVALID)
    assert "buy 1W1" in listed(game)


def test_A5_cannot_afford_rather_than_payment_invalid() -> None:
    game = position(Hand(tokens="RK*"), Hand())
    assert_legal(game, "buy 1W1 pay RK* reveal 1W5", push=False)
    game = position(Hand(tokens="RK"), Hand())
    assert not game.can_afford(0, CARDS["1W1"])
    assert game.default_payment(0, CARDS["1W1"]) is None
    assert_illegal(game, "buy 1W1 reveal 1W5", E.CANNOT_AFFORD)
    assert_illegal(game, "buy 1W1 pay RK reveal 1W5", E.CANNOT_AFFORD)
    assert_illegal(game, "buy 1W1 pay RR* reveal 1W5", E.CANNOT_AFFORD)
    assert not any(isinstance(m, Buy) for m in game.legal_moves())


def test_A5_buy_from_own_reserve() -> None:
    # 1W5 costs 2 blue, 2 green and 1 black.
    hands = (Hand(tokens="UUGGK", reserved="1W5"), Hand(tokens="UUGGK"))
    game = position(*hands)
    assert "buy 1W5" in listed(game)
    assert_illegal(game, "buy 1W5 reveal 1W6", E.REVEAL_INVALID)
    assert_legal(game, "buy 1W5")
    assert game.seat(0).reserved == ()
    assert game.seat(0).cards == (CARDS["1W5"],)
    # Another player's reserved card is not for sale.
    other = position(*hands, to_act=1)
    assert_illegal(other, "buy 1W5", E.CARD_UNAVAILABLE)


def test_A5_card_neither_face_up_nor_reserved_is_unavailable() -> None:
    game = position(Hand(tokens="UUGGK"), Hand())
    assert_illegal(game, "buy 1W5", E.CARD_UNAVAILABLE)
    assert_illegal(game, "buy 1W5 pay UUGGK", E.CARD_UNAVAILABLE)


def test_A6_face_up_card_replaced_from_the_same_level() -> None:
    game = position(Hand(tokens="RRK"), Hand())
    move = game.parse("buy 1W1")
    assert game.reveal_due(move) == 1
    assert game.reveal_due(game.parse("reserve 2U1")) == 2
    assert game.reveal_due(game.parse("reserve L2")) is None
    assert game.reveal_due(game.parse("take WUG")) is None
    assert_legal(game, "buy 1W1 reveal 1W5")
    assert [c.id for c in game.market[0] if c] == ["1W5", "1U1", "1G1", "1R1"]
    assert game.deck_size(1) == 35


def test_A6_reveal_missing_while_the_deck_has_cards() -> None:
    game = position(Hand(tokens="RRK"), Hand())
    assert_illegal(game, "reserve 1W1", E.REVEAL_MISSING)
    assert_illegal(game, "buy 1W1", E.REVEAL_MISSING)


@pytest.mark.parametrize(
    "reveal", ["2W2", "1U1", "1W1", "1W6"], ids=["wrong-level", "face-up", "itself", "bought"]
)
def test_A6_reveal_invalid_wrong_level_or_already_seen(reveal: str) -> None:
    game = position(Hand(tokens="RRK"), Hand(cards="1W6"))
    assert_illegal(game, f"reserve 1W1 reveal {reveal}", E.REVEAL_INVALID)
    assert_illegal(game, f"buy 1W1 reveal {reveal}", E.REVEAL_INVALID)


def test_A6_reveal_invalid_when_none_is_due() -> None:
    game = position(Hand(tokens="UUGGK", reserved="1W5"), Hand())
    for text in ("take WUG reveal 1W6", "reserve L1 reveal 1W6", "buy 1W5 reveal 1W6"):
        assert_illegal(game, text, E.REVEAL_INVALID)
    stuck = position(Hand(reserved="3W2 3W3 3W4"), Hand(), bank=Tokens())
    assert_legal(stuck, "pass", push=False)
    assert_illegal(stuck, "pass reveal 1W6", E.REVEAL_INVALID)


def test_A6_empty_deck_leaves_the_slot_empty() -> None:
    game = position(Hand(tokens="RRK"), Hand(), decks=(0, 26, 16))
    assert game.reveal_due(game.parse("buy 1W1")) is None
    assert_illegal(game, "buy 1W1 reveal 1W5", E.REVEAL_INVALID)
    assert_legal(game, "buy 1W1")
    assert game.market[0] == (None, CARDS["1U1"], CARDS["1G1"], CARDS["1R1"])
    assert game.text().split()[2].startswith("-,1U1,1G1,1R1/")
    assert game.deck_size(1) == 0
    assert_listed_moves_legal(game)
    assert_legal(game, "reserve 1U1")
    assert game.text().split()[2].startswith("-,-,1G1,1R1/")


def test_A7_pass_illegal_while_an_action_is_legal() -> None:
    game = new_game(2)
    assert_illegal(game, "pass", E.PASS_INVALID)
    assert not any(isinstance(m, Pass) for m in game.legal_moves())


def test_A7_pass_illegal_when_only_a_reserve_is_legal() -> None:
    game = position(Hand(), Hand(), bank=Tokens(gold=5))
    assert_illegal(game, "pass", E.PASS_INVALID)
    assert all(isinstance(m, Reserve) for m in game.legal_moves())
    assert_legal(game, "reserve L1")


def test_A7_pass_illegal_when_only_a_buy_is_legal() -> None:
    # The bank has no gem, the reserve is full: buying the reserved 1W5 is all there is.
    game = position(
        Hand(tokens="UUGGK", reserved="1W5 2W2 3W2"),
        Hand(),
        bank=Tokens(gold=5),
        market=("1W1 1U1 1G1 1K1", *MARKET[1:]),
    )
    assert_illegal(game, "pass", E.PASS_INVALID)
    assert listed(game) == {"buy 1W5"}
    game = position(Hand(tokens="RRK", reserved="2W2 2W3 3W2"), Hand(), bank=Tokens(gold=5))
    assert_illegal(game, "pass", E.PASS_INVALID)
    assert listed(game) == {"buy 1W1"}


def test_A7_pass_when_nothing_else_is_legal() -> None:
    game = position(Hand(reserved="2W2 2W3 3W2"), Hand(), bank=Tokens(gold=2))
    assert listed(game) == {"pass"}
    assert_legal(game, "pass")
    assert game.to_act == 1
    assert game.seat(0).tokens == Tokens()
    assert [c.id for c in game.seat(0).reserved] == ["2W2", "2W3", "3W2"]
    assert game.bank == Tokens(gold=2)


def test_A7_unknown_blind_reserve_not_counted() -> None:
    # Three blue bonuses: 1W6 (3 blue) would cost nothing, if it is what Ada holds blind.
    hidden = Hand(cards="1U5 1U6 1U7", reserved="L1? L1? L1?")
    game = position(hidden, Hand(), bank=Tokens(gold=5))
    assert listed(game) == {"pass"}
    assert game.explain(game.parse("buy 1W6")) is None
    assert_legal(game, "pass")


# ------------------------------------------------------------------ T1, N1


NINE = "WWUUGGRRK"


def test_T1_return_down_to_exactly_ten() -> None:
    game = position(Hand(tokens=NINE), Hand())
    assert_illegal(game, "take WUG", E.TOKEN_LIMIT)
    assert_illegal(game, "take WUG return W", E.TOKEN_LIMIT)
    assert_illegal(game, "take WUG return WUG", E.RETURN_INVALID)
    assert_illegal(game, "take RR", E.TOKEN_LIMIT)
    assert_legal(game, "take WUG return RK")
    assert game.seat(0).tokens == Tokens(3, 3, 3, 1, 0)
    assert game.seat(0).tokens.total == 10
    assert game.bank == Tokens(3, 3, 3, 5, 5, gold=5)


def test_T1_tokens_just_taken_may_be_returned() -> None:
    game = position(Hand(tokens="WWWUUURRR"), Hand())
    assert_legal(game, "take GKW return GK")
    assert game.seat(0).tokens == Tokens(4, 3, 0, 3, 0)


def test_T1_return_tokens_not_held_is_return_invalid() -> None:
    game = position(Hand(tokens=NINE), Hand())
    assert_illegal(game, "take WUG return KK", E.RETURN_INVALID)
    assert_illegal(game, "take WUG return **", E.RETURN_INVALID)


def test_T1_return_when_none_is_due_is_return_invalid() -> None:
    game = new_game(2)
    assert_illegal(game, "take WUG return W", E.RETURN_INVALID)
    game = position(Hand(tokens="WWUUGGR"), Hand())  # 7 + 3 = 10 exactly
    assert_illegal(game, "take WUG return W", E.RETURN_INVALID)
    assert_legal(game, "take WUG")


def test_T1_gold_counts_toward_ten() -> None:
    game = position(Hand(tokens="WWUUGGRRK*"), Hand())
    assert_illegal(game, "reserve 1W1 reveal 1W5", E.TOKEN_LIMIT)
    assert_illegal(game, "reserve L1", E.TOKEN_LIMIT)
    assert_illegal(game, "reserve 1W1 reveal 1W5 return **", E.RETURN_INVALID)
    assert_legal(game, "reserve 1W1 reveal 1W5 return *")  # one of the two golds
    assert game.seat(0).tokens == Tokens(2, 2, 2, 2, 1, gold=1)
    assert game.bank.gold == 5


def test_T1_listed_moves_end_at_ten() -> None:
    game = position(Hand(tokens=NINE), Hand())
    moves = list(game.legal_moves())
    for move in moves:
        if isinstance(move, Take):
            assert move.returned is not None
            assert (game.seat(0).tokens + move.gems - move.returned).total == 10
        if isinstance(move, Reserve):
            assert move.returned is None  # 9 + 1 gold = 10
    assert "take WUG return WUG" not in listed(game)
    assert "take WUG return RK" in listed(game)
    assert "take WUG return WU" in listed(game)
    assert_listed_moves_legal(game)


# Ada: 3 white, 3 blue, 2 green, 3 red bonuses. N6 wants 3W 3U 3G, N9 3U 3G 3R.
TWO_NOBLES = "1W5 1W6 1W7 1U5 1U6 1U7 1G5 1G6 1R5 1R6 1R7"
# Ada: 3 white, 3 blue, 2 green: only N6 comes with one more green.
ONE_NOBLE = "1W5 1W6 1W7 1U5 1U6 1U7 1G5 1G6"


def test_N1_noble_visits_at_the_end_of_the_turn() -> None:
    game = position(Hand(tokens="RRR", cards=ONE_NOBLE), Hand(), nobles="N6 N9 N10")
    assert game.qualifying_nobles(0) == []
    assert "buy 1G1" in listed(game)
    assert_legal(game, "buy 1G1 reveal 1G2")
    assert [n.id for n in game.seat(0).nobles] == ["N6"]
    assert game.seat(0).points == 3  # the cards score nothing; N6 scores 3
    assert [n.id for n in game.nobles] == ["N9", "N10"]


def test_N1_naming_the_only_qualifying_noble_is_optional() -> None:
    game = position(Hand(tokens="RRR", cards=ONE_NOBLE), Hand(), nobles="N6 N9 N10")
    move = game.parse("buy 1G1 reveal 1G2 noble N6")
    assert game.explain(move) is None
    assert "buy 1G1" in listed(game)  # listed once, without the noble that comes anyway
    game.push(move)
    assert [n.id for n in game.seat(0).nobles] == ["N6"]


def test_N1_bonuses_only_never_tokens() -> None:
    game = position(Hand(tokens="GGG", cards=ONE_NOBLE), Hand(), nobles="N6 N9 N10")
    assert_illegal(game, "take WUR noble N6", E.NOBLE_INVALID)
    assert_legal(game, "take WUR")
    assert game.seat(0).nobles == ()
    assert [n.id for n in game.nobles] == ["N6", "N9", "N10"]


@pytest.mark.parametrize("action", ["take WUR", "take RR", "reserve L1", "reserve 1W1 reveal 1W8"])
def test_N1_visit_whatever_the_action(action: str) -> None:
    # Ada's bonuses already meet N6 (left for later on an earlier turn).
    cards = ONE_NOBLE + " 1G7"
    game = position(Hand(cards=cards), Hand(), nobles="N6 N9 N10")
    assert_legal(game, action)
    assert [n.id for n in game.seat(0).nobles] == ["N6"]


def test_N1_visit_on_a_pass() -> None:
    game = position(
        Hand(cards=ONE_NOBLE + " 1G7", reserved="3W2 3W3 3W4"),
        Hand(),
        nobles="N6 N9 N10",
        bank=Tokens(),
        market=("1W1 1U1 1G1 1G8", *MARKET[1:]),  # nothing 3W 3U 3G bonuses buy alone
    )
    assert_legal(game, "pass")
    assert [n.id for n in game.seat(0).nobles] == ["N6"]


def test_N1_one_noble_per_turn_choice_required_when_several_qualify() -> None:
    game = position(Hand(cards=TWO_NOBLES), Hand(), nobles="N6 N9 N1")
    assert game.cost(0, CARDS["1G1"]) == Tokens()  # 3 red bonuses
    assert_illegal(game, "buy 1G1 reveal 1G2", E.NOBLE_CHOICE_REQUIRED)
    assert_illegal(game, "buy 1G1 reveal 1G2 noble N1", E.NOBLE_INVALID)
    buys = {m for m in listed(game) if m.startswith("buy 1G1")}
    assert buys == {"buy 1G1 noble N6", "buy 1G1 noble N9"}
    assert_legal(game, "buy 1G1 reveal 1G2 noble N9")
    assert [n.id for n in game.seat(0).nobles] == ["N9"]
    assert game.seat(0).points == 3
    assert [n.id for n in game.nobles] == ["N6", "N1"]


def test_N1_noble_not_taken_visits_at_the_end_of_a_later_turn_even_on_a_take() -> None:
    game = position(Hand(cards=TWO_NOBLES), Hand(), nobles="N6 N9 N1")
    game.push("buy 1G1 reveal 1G2 noble N6")
    assert [n.id for n in game.qualifying_nobles(0)] == ["N9"]
    game.push("take WUG")  # Ben's turn: the noble waits for Ada
    assert [n.id for n in game.nobles] == ["N9", "N1"]
    assert_legal(game, "take WUR")
    assert [n.id for n in game.seat(0).nobles] == ["N6", "N9"]
    assert game.seat(0).points == 6
    assert [n.id for n in game.nobles] == ["N1"]


def test_N1_noble_invalid_when_not_on_the_table_or_not_met() -> None:
    game = new_game(2)  # N1 N2 N3 on the table; nobody qualifies
    assert_illegal(game, "take WUG noble N1", E.NOBLE_INVALID)
    assert_illegal(game, "take WUG noble N7", E.NOBLE_INVALID)
    assert_illegal(game, "take WUG noble N11", E.MALFORMED_MOVE)
    held = position(Hand(cards=ONE_NOBLE + " 1G7"), Hand(), nobles="N9 N10")
    assert_illegal(held, "take WUR noble N6", E.NOBLE_INVALID)  # not on the table


# ------------------------------------------------------------------ E: end of the game

MARKET3 = (*MARKET[:2], "3W2 3U1 3G1 3R1")  # 3W2 scores 4 and costs 7 black


def test_E1_round_completed_after_fifteen_points() -> None:
    # 3W2 is worth 4 and costs 7 black.
    game = position(Hand(tokens="KKKKKKK", points=11), Hand(), Hand(), market=MARKET3)
    assert_legal(game, "buy 3W2 reveal 3W3")
    assert game.seat(0).points == 15
    assert game.final_round and not game.over
    assert game.winners() == []
    assert_legal(game, "take WUG")
    assert game.final_round and not game.over
    assert game.winners() == []
    assert_legal(game, "take WUG")
    assert game.over and not game.final_round
    assert game.winners() == ["Ada"]
    assert [m.player for m in game.moves] == [0, 1, 2]


def test_E1_no_move_after_the_game_is_over() -> None:
    game = position(Hand(points=15), Hand(), to_act=1)
    game.push("take WUG")
    assert game.over
    assert list(game.legal_moves()) == []
    assert_illegal(game, "take WUG", E.GAME_OVER)
    assert_illegal(game, "pass", E.GAME_OVER)
    game.undo()
    assert not game.over
    assert game.final_round


def test_E1_last_seat_reaching_fifteen_ends_the_game_at_once() -> None:
    game = position(Hand(), Hand(tokens="KKKKKKK", points=11), market=MARKET3, to_act=1)
    assert_legal(game, "buy 3W2 reveal 3W3")
    assert game.over
    assert game.winners() == ["Ben"]


def test_E1_noble_points_count_toward_fifteen() -> None:
    game = position(Hand(cards=ONE_NOBLE + " 1G7", points=12), Hand(), nobles="N6 N9 N10")
    assert_legal(game, "take WUR")
    assert game.seat(0).points == 15
    assert game.final_round
    game.push("take WUG")
    assert game.over


def test_E1_fourteen_points_do_not_end_the_game() -> None:
    game = position(Hand(), Hand(tokens="KKKKKKK", points=10), market=MARKET3, to_act=1)
    assert_legal(game, "buy 3W2 reveal 3W3")
    assert game.seat(1).points == 14
    assert not game.over and not game.final_round


def test_E2_most_points_wins() -> None:
    ben = Hand(tokens="KKKKKKK", points=13)
    game = position(Hand(points=15), ben, market=MARKET3, to_act=1)
    game.push("buy 3W2 reveal 3W3")
    assert game.over
    assert game.winners() == ["Ben"]
    assert [(s.player, s.points, s.rank) for s in game.standings()] == [
        ("Ben", 17, 1),
        ("Ada", 15, 2),
    ]


def test_E2_tie_fewest_purchased_cards_wins_reserved_not_counted() -> None:
    ada = Hand(cards="1W5 1W6 1W7 1U5 1U6", reserved="2W2 2W3 L3?", points=15)
    ben = Hand(cards="1K2 1K3 1K4 1K5 1K6 1K7", points=15)
    game = position(ada, ben, to_act=1)
    game.push("take WUG")
    assert game.over
    assert game.winners() == ["Ada"]
    standings = game.standings()
    assert [(s.player, s.cards, s.rank) for s in standings] == [("Ada", 5, 1), ("Ben", 6, 2)]


def test_E2_still_tied_players_share_the_victory() -> None:
    ada = Hand(cards="1W5 1W6 1W7", reserved="2W2", points=16)
    ben = Hand(cards="1K2 1K3 1K4", points=16)
    cleo = Hand(cards="1R2", points=16)
    game = position(ada, ben, Hand(cards="1U2", points=15), to_act=2)
    game.push("take WUG")
    assert game.winners() == ["Ada", "Ben"]
    assert [s.rank for s in game.standings()] == [1, 1, 3]
    # And with a lone leader by fewer cards, no sharing.
    game = position(ada, ben, cleo, to_act=2)
    game.push("take WUG")
    assert game.winners() == ["Cleo"]


# ------------------------------------------------------------------ H: hidden information


def test_H1_every_revealed_card_is_declared_and_then_seen() -> None:
    game = new_game(2)
    setup_cards = {c for row in MARKET for c in row.split()}
    assert game.position().seen == setup_cards
    assert len(game.unseen(1)) == 36
    assert not {c.id for c in game.unseen(1)} & setup_cards
    game.push("reserve 1W1 reveal 1W5")
    assert game.market[0][0] == CARDS["1W5"]
    assert CARDS["1W5"] not in game.unseen(1)
    assert "1W5" in game.position().seen
    assert_illegal(game, "reserve 1U1 reveal 1W5", E.REVEAL_INVALID)
    assert_illegal(game, "reserve 1U1 reveal 1W9", E.MALFORMED_MOVE, unlisted=False)
    game.undo()
    assert CARDS["1W5"] in game.unseen(1)


def test_H2_blind_reserve_recorded_as_unknown_card_of_its_level() -> None:
    game = new_game(2)
    seen = game.position().seen
    assert_legal(game, "reserve L2")
    assert game.seat(0).reserved == (Hidden(2),)
    assert str(game.seat(0).reserved[0]) == "L2?"
    assert game.position().seen == seen
    assert len(game.unseen(2)) == 26  # its identity is still open


def test_H2_buying_a_blind_reserve_declares_an_unseen_card_of_its_level() -> None:
    game = position(Hand(tokens="UUU", reserved="L1?"), Hand())
    decks = game.position().deck_sizes
    move = game.parse("buy 1W6")  # 1W6 costs 3 blue
    assert game.explain(move) is None
    game.push(move)
    assert game.seat(0).cards == (CARDS["1W6"],)
    assert game.seat(0).reserved == ()
    assert CARDS["1W6"] not in game.unseen(1)
    assert game.position().deck_sizes == decks
    game.undo()
    assert CARDS["1W6"] in game.unseen(1)
    assert game.seat(0).reserved == (Hidden(1),)


def test_H2_seen_card_or_wrong_level_is_card_unavailable() -> None:
    # Ben bought 1W6 earlier: it is seen. 2U3 is of level 2, Ada's blind card of level 1.
    game = position(Hand(tokens="UUUUU", reserved="L1?"), Hand(cards="1W6"))
    assert_illegal(game, "buy 1W6", E.CARD_UNAVAILABLE)
    assert_illegal(game, "buy 2U3", E.CARD_UNAVAILABLE)
    assert game.explain(game.parse("buy 1K8")) is None  # unseen, level 1, 4 blue


def test_H2_blind_reserve_of_a_known_card() -> None:
    game = new_game(2)
    assert_illegal(game, "reserve L1:1W1", E.CARD_UNAVAILABLE)  # face up: seen
    assert_illegal(game, "reserve L1:2W2", E.CARD_UNAVAILABLE)  # wrong level
    move = game.parse("reserve L1:1W6")
    assert game.explain(move) is None
    game.push(move)
    assert game.seat(0).reserved == (CARDS["1W6"],)
    assert "1W6" in game.position().seen
    assert game.deck_size(1) == 35
    assert_illegal(game, "reserve L1:1W6", E.CARD_UNAVAILABLE)


def test_H3_deck_sizes_exact_after_reveals_and_blind_reserves() -> None:
    game = new_game(2)
    sizes = [game.position().deck_sizes]
    for text in ("reserve 1W1 reveal 1W5", "reserve L2", "reserve L3:3K4", "take WUG"):
        game.push(text)
        sizes.append(game.position().deck_sizes)
    assert sizes == [(36, 26, 16), (35, 26, 16), (35, 25, 16), (35, 25, 15), (35, 25, 15)]
    for expected in reversed(sizes[:-1]):
        game.undo()
        assert game.position().deck_sizes == expected
    assert [game.deck_size(level) for level in (1, 2, 3)] == [36, 26, 16]


def test_H3_deck_size_falls_to_zero_then_deck_empty() -> None:
    game = position(Hand(), Hand(), decks=(36, 1, 16))
    assert_legal(game, "reserve L2")
    assert game.deck_size(2) == 0
    assert_illegal(game, "reserve L2", E.DECK_EMPTY)
    assert_illegal(game, "reserve L2:2W5", E.DECK_EMPTY)
    assert "reserve L2" not in listed(game)
    assert "reserve L1" in listed(game)
    # A face-up level 2 card can still be reserved; its slot stays empty (A6).
    assert_legal(game, "reserve 2U1")
    assert game.market[1][1] is None
