"""Declaring at the table: setup reveals and a turn step by step (what taps and scans call)."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.engine.cards import CARDS
from companion.engine.moves import Buy, Reserve, Take
from companion.engine.setup import Setup
from companion.engine.tokens import Colour, Tokens
from companion.errors import ErrorCode, IllegalMove, Refused
from companion.journal.declaring import (
    CONFIRM,
    NOBLE,
    RETURN,
    REVEAL,
    Declared,
    NewGame,
    Picked,
    Step,
    Turn,
)
from companion.journal.session import Session
from companion.journal.store import Store

SETUP = Setup.of(
    ["Ada", "Ben"],
    ["N1", "N2", "N3"],
    ["1W1 1W2 1W3 1W4", "2W1 2W2 2W3 2W4", "3W1 3W2 3W3 3W4"],
)


@pytest.fixture
def turn(tmp_path: Path) -> Turn:
    store = Store(tmp_path / "games.sqlite3")
    return Turn(Session.start(store, SETUP))


def test_S2_S3_new_game_takes_nobles_and_four_cards_per_level_in_any_order() -> None:
    draft = NewGame(["Ada", "Ben", "Cleo"])
    assert draft.nobles_needed == 4
    for item in ["3K1", "N5", "1W1", "2U2", "N1", "1W2", "N9", "N10"]:
        draft.declare(item)
    assert draft.nobles_needed == 0
    assert draft.cards_needed(1) == 2
    with pytest.raises(Refused) as err:
        draft.declare("N2")
    assert err.value.code is ErrorCode.SETUP_FULL
    with pytest.raises(Refused) as err:
        draft.declare("1W1")
    assert err.value.code is ErrorCode.ALREADY_DECLARED
    with pytest.raises(Refused, match="not laid out yet"):
        draft.setup()
    draft.withdraw("1W2")
    assert draft.cards_needed(1) == 3


@pytest.mark.parametrize(
    ("names", "reason"),
    [(["Ada"], "2 to 4"), (["Ada", "Ada"], "same name"), (["Ada", " "], "needs a name")],
)
def test_S1_new_game_needs_two_to_four_distinct_names(names: list[str], reason: str) -> None:
    with pytest.raises(Refused, match=reason):
        NewGame(names)


def test_A6_a_buy_asks_for_the_reveal_then_commits(turn: Turn) -> None:
    game = turn.game
    for text in ["take RKW", "take UGR", "take RKU", "take UGW"]:
        turn.session.play(text)
    # Ada holds 2 red, 2 black, 1 white, 1 blue: 1W1 costs 2 red 1 black.
    assert turn.declare_card("1W1") == "choose"
    assert {type(m) for m in turn.options} == {Buy, Reserve}
    turn.start(turn.options[0] if isinstance(turn.options[0], Buy) else turn.options[1])
    assert turn.step == REVEAL
    with pytest.raises(IllegalMove) as err:
        turn.declare_card("2K1")
    assert err.value.code == ErrorCode.REVEAL_INVALID
    assert turn.declare_card("1K1") == REVEAL
    assert turn.step == CONFIRM
    move = turn.commit()
    assert str(move) == "buy 1W1 reveal 1K1"
    assert game.seat(0).bonuses[Colour.WHITE] == 1
    assert turn.session.store.moves(turn.session.game_id)[-1] == move


def test_A5_a_scanned_card_nobody_can_afford_reports_the_engine_reason(turn: Turn) -> None:
    for text in [
        "take RKW",
        "take UGR",
        "reserve L3",
        "reserve L1",
        "reserve L3",
        "reserve L1",
        "reserve L3",
        "take WUG",
    ]:
        turn.session.play(text)
    position = turn.game.position()
    with pytest.raises(IllegalMove) as err:
        turn.declare_card("3W1")  # face up, too dear, and Ada's reserve is full
    assert err.value.code in {ErrorCode.CANNOT_AFFORD, ErrorCode.RESERVE_LIMIT}
    assert turn.game.position() == position
    assert turn.step == "action"


def test_T1_a_take_above_ten_asks_which_tokens_go_back(tmp_path: Path) -> None:
    setup = Setup.of(["Ada", "Ben", "Cleo", "Dan"], ["N1", "N2", "N3", "N4", "N5"], SETUP.market)
    turn = Turn(Session.start(Store(tmp_path / "games.sqlite3"), setup))
    for take in ["take WUG", "take RKW", "take UGR"]:
        turn.session.play(take)
        for _ in range(3):
            turn.session.play("reserve L1")
    assert turn.game.seat(0).tokens.total == 9
    due = turn.start(Take(Tokens(red=1, black=1, green=1), player=0))
    assert due.returns == 2
    assert turn.step == RETURN
    with pytest.raises(IllegalMove) as err:
        turn.give_back(Tokens(gold=2))
    assert err.value.code == ErrorCode.RETURN_INVALID
    turn.give_back(Tokens(red=1, green=1))
    assert turn.step == CONFIRM
    assert turn.commit().returned == Tokens(red=1, green=1)
    assert turn.game.seat(0).tokens.total == 10


def test_N1_a_noble_choice_is_asked_only_when_several_qualify(tmp_path: Path) -> None:
    # Ada owns 3 white, 3 blue, 3 black; buying her 3rd green card... find via helpers
    # of the engine: reach it through a random game where a choice is due.
    import random

    from companion.engine.simulate import Dealer, choose, random_setup

    for seed in range(3000):
        rng = random.Random(seed)
        store = Store(tmp_path / f"g{seed}.sqlite3")
        session = Session.start(store, random_setup(rng, ["A", "B", "C"]))
        dealer = Dealer(session.game, rng)
        while not session.game.over and not session.game.stalled:
            choice = [m for m in session.game.legal_moves() if m.noble is not None]
            if choice:
                turn = Turn(session)
                due = turn.start(choice[0])
                assert due.noble_choice
                if due.reveal:
                    turn.declare_reveal(session.game.unseen(due.reveal)[0].id)
                assert turn.step == NOBLE
                with pytest.raises(Refused):
                    turn.commit()
                turn.choose_noble(due.nobles[1].id)
                turn.commit()
                assert due.nobles[1] in session.game.seat(choice[0].player).nobles
                assert due.nobles[0] in session.game.nobles
                return
            session.play(dealer.deal(choose(rng, list(session.game.legal_moves()))))
        store.close()
    pytest.fail("no noble choice in the games tried")


def test_A3_take_choices_offered_are_only_legal_ones(turn: Turn) -> None:
    assert turn.can_add(Tokens()) == set(Colour) - {Colour.GOLD}
    assert turn.is_take(Tokens(white=1, blue=1, green=1))
    assert not turn.is_take(Tokens(white=1, blue=1))  # A3: 5 colours are available
    assert turn.is_take(Tokens(red=2))
    # After one red, another red (a take of two) and any other colour remain possible.
    assert turn.can_add(Tokens(red=1)) == set(Colour) - {Colour.GOLD}
    # After two reds, nothing more.
    assert turn.can_add(Tokens(red=2)) == set()
    assert not turn.passes_only()


def test_A2_a_take_of_two_is_never_whole_by_taps_alone(turn: Turn) -> None:
    assert turn.pick_token(Colour.RED) == Picked.MORE
    # A second tap on the same pile (or a bounce of the first) asks for a confirm.
    assert turn.pick_token(Colour.RED) == Picked.CONFIRM
    assert turn.step == Step.ACTION and not turn.game.moves
    turn.take()
    assert turn.commit().gems == Tokens(red=2)


def test_A1_three_colours_are_whole_on_the_last_tap(turn: Turn) -> None:
    assert turn.pick_token(Colour.WHITE) == Picked.MORE
    assert turn.pick_token(Colour.BLUE) == Picked.MORE  # two colours: not a take while 5 remain
    assert turn.pick_token(Colour.GREEN) == Picked.COMPLETE
    assert turn.selection == Tokens(white=1, blue=1, green=1)


def test_A1_gold_is_refused_with_the_engines_reason_and_the_selection_kept(turn: Turn) -> None:
    turn.pick_token(Colour.RED)
    with pytest.raises(IllegalMove) as err:
        turn.pick_token(Colour.GOLD)
    assert "gold cannot be taken" in err.value.message
    with pytest.raises(IllegalMove) as err:
        turn.pick_token(Colour.RED)
        turn.pick_token(Colour.BLUE)  # two red and a blue: not a take
    assert err.value.code == ErrorCode.TAKE_INVALID
    assert turn.selection == Tokens(red=2)
    turn.clear_selection()
    assert turn.can_add() == set(Colour) - {Colour.GOLD}


def test_the_legal_takes_are_listed_once_per_position(turn: Turn) -> None:
    first = turn.offer
    assert turn.offer is first  # same position: not listed again
    turn.session.play("take WUG")
    assert turn.offer is not first
    assert Tokens(white=2) not in turn.offer.takes  # T3: white is down to 3


def test_A5_gold_swaps_pay_gold_in_place_of_a_colour(turn: Turn) -> None:
    for text in ["reserve L1", "reserve L1", "take RKU", "take RKW", "take UGR", "take WUG"]:
        turn.session.play(text)
    game = turn.game
    card = CARDS["1W1"]  # 2 red, 1 black: Ada holds 2 red, 1 black, 2 blue, 1 green, 1 gold
    purchase = turn.purchase(card, face_up=True)
    assert purchase.buy_error is None and purchase.payment == purchase.default
    colour = purchase.swaps()[0]
    purchase.swap(colour)
    assert purchase.payment is not None and purchase.payment.gold == 1
    assert purchase.swaps() == []  # Ada holds one gold only
    with pytest.raises(Refused):
        purchase.swap(colour)
    assert purchase.buy.payment == purchase.payment
    turn.start(purchase.buy)
    if turn.step == REVEAL:
        turn.declare_reveal(game.unseen(card.level)[0].id)
    move = turn.commit()
    assert move.payment is not None and move.payment.gold == 1
    assert game.seat(0).tokens.gold == 0


def test_A5_an_unaffordable_card_is_said_before_it_is_picked(turn: Turn) -> None:
    purchase = turn.purchase(CARDS["3W1"], face_up=True)
    assert purchase.buy_error is not None and purchase.buy_error.code == ErrorCode.CANNOT_AFFORD
    assert purchase.reserve_error is None  # reserving it is still possible
    assert purchase.default is None and purchase.swaps() == []
    assert turn.affordable(turn.game.unseen(3)) == []


def test_E1_the_final_round_says_who_still_plays(turn: Turn) -> None:
    assert turn.still_to_play() == []
    # Replace the game with one in its final round from a real play.
    from companion.engine.simulate import simulate

    game = simulate(players=3, seed=0)  # Ada reaches 15 first: Ben and Cleo still play
    session = Session.start(turn.session.store, game.setup)
    for move in game.moves:
        session.play(move)
        if session.game.final_round:
            break
    later = Turn(session)
    assert later.still_to_play() == ["Ben", "Cleo"]
    session.play(game.moves[len(session.game.moves)])
    assert later.still_to_play() == ["Cleo"]


def test_declare_kinds_are_named_values(turn: Turn) -> None:
    assert turn.declare_card("1W1") == Declared.RESERVE  # Ada cannot pay yet
    assert Declared.RESERVE == "reserve" and turn.step == Step.REVEAL  # A6: refill the gap


@pytest.mark.parametrize("language", ["en", "it", "sv", "pt", "fr"])
def test_undo_and_cancel_are_different_words(language: str) -> None:
    # Cancelling a take must never read like undoing the previous move (fr had "Annuler").
    from companion import i18n

    i18n.set_language(language)
    assert i18n.translate("Undo") != i18n.translate("Cancel")
