"""The companion's move and its reason in words, in English and French."""

from __future__ import annotations

import pytest

from companion.ai.players import Hard
from companion.ai.words import announce, reason
from companion.coach.play import play_levels
from companion.engine.cards import CARDS
from companion.engine.moves import Buy, Reserve, Take, with_parts
from companion.engine.naming import card_words
from companion.engine.tokens import Tokens
from companion.i18n import localise, set_language
from tests.helpers import Hand, position

MARKET = ("1W1 1U1 1G1 1R1", "2W6 2U1 2G1 2R1", "3W1 3U1 3G1 3R1")


def _table() -> object:
    # Ada, at 12 points, can buy 2W6 (3 points, a white bonus) with her six white tokens
    # and reach 15; the noble N1 wants white bonuses.
    return position(
        Hand(tokens="WWWWWW", cards="1U2", points=12),
        Hand(tokens="RRG", points=9),
        market=MARKET,
        nobles="N1 N2 N3",
    )


@pytest.mark.parametrize(
    ("language", "expected_reason", "expected_move"),
    [
        ("en", "3 points, and one bonus closer to a noble", "The companion buys {card}"),
        (
            "fr",
            "3 points de prestige, et un bonus de plus vers un noble",
            "Le compagnon achète {card}",
        ),
    ],
)
def test_the_suggestion_is_the_hard_levels_choice_with_its_reason_in_the_players_language(
    language: str, expected_reason: str, expected_move: str
) -> None:
    game = _table()
    move = Hard(seed=1, rollouts=60).choose(game)  # type: ignore[arg-type]
    assert move == Buy("2W6", player=0)
    set_language(language)
    assert reason(game, move) == expected_reason  # type: ignore[arg-type]
    text = announce(game, move)  # type: ignore[arg-type]
    # The card as the move log and the status line say it: one wording of a card.
    assert text.startswith(expected_move.format(card=card_words(CARDS["2W6"])))
    assert localise(Tokens(white=6)) in text


def test_every_kind_of_move_is_announced_with_what_to_do_on_the_table() -> None:
    game, _ = play_levels(["hard", "medium"], seed=5, think=0.03)
    moves = list(game.moves)
    while game.moves:
        game.undo()
    said: dict[str, str] = {}
    for move in moves:
        asked = with_parts(move, reveal=None)
        if isinstance(asked, Reserve) and asked.deck is not None:
            asked = with_parts(asked, card=None)
        text = announce(game, asked, name="Ada")
        assert reason(game, asked)
        said.setdefault(type(move).__name__, text)
        if asked.returned is not None:
            said.setdefault("return", text)
        game.push(move)
    assert said["Take"].startswith("Ada takes 1 ")
    assert "from the bank" in said["Take"]
    bought = next(m for m in moves if isinstance(m, Buy))
    assert said["Buy"].startswith(f"Ada buys {card_words(CARDS[bought.card])}")
    assert said["Reserve"].startswith("Ada reserves ")
    if "return" in said:
        assert "gives back" in said["return"]


def test_a_take_that_gives_tokens_back_says_which() -> None:
    game = position(Hand(tokens="WWWUUUGGGR"), Hand(), market=MARKET)
    move = Take(Tokens.parse("RKU"), player=0, returned=Tokens.parse("WWW"))
    assert game.is_legal(move)
    set_language("fr")
    text = announce(game, move)
    tokens = localise(Tokens.parse("URK"))
    assert text.startswith(f"Le compagnon prend {tokens} au centre de la table")
    assert "table\u00a0; puis rend " + localise(Tokens(white=3)) in text  # French spacing


def test_suggest_a_move_gives_the_hard_levels_choice_and_one_line() -> None:
    from companion.ai import suggest

    set_language("fr")
    move, line = suggest(_table(), seed=1, think=0.1)  # type: ignore[arg-type]
    assert move == Buy("2W6", player=0)
    assert line == "3 points de prestige, et un bonus de plus vers un noble"
    assert "\n" not in line


def test_a_nobles_visit_is_announced_by_what_the_noble_asks_for_never_its_id() -> None:
    market = ("1G1 1G2 1R1 1R2", "2W6 2U1 2G1 2R1", "3W1 3U1 3G1 3R1")
    game = position(
        Hand(tokens="WWWWWW", cards="1W1 1W2 1W3 1U1 1U2 1U3 1U4"),
        Hand(),
        market=market,
        nobles="N1 N2 N3",
    )
    move = Buy("2W6", player=0)
    text = announce(game, move)  # type: ignore[arg-type]
    assert "the noble asking for " + localise(Tokens(white=4, blue=4)) + " visits" in text
    assert "N1" not in text
    assert "a noble's visit, 3 points" in reason(game, move)  # type: ignore[arg-type]


def test_at_a_larger_table_a_reason_names_the_rival_that_matters_most() -> None:
    """Three players: Ben and Cleo could both buy 2W6 (or nearly); the reason of reserving
    or buying it names Cleo, who leads, not the first seat that could."""
    set_language("en")
    game = position(
        Hand(tokens="WWWWWW", points=4),
        Hand(tokens="WWWWW", points=5),
        Hand(tokens="WWWWWW", points=9),
        market=MARKET,
        nobles="N3 N4 N5 N6",
    )
    card = card_words(CARDS["2W6"])
    reserve = Reserve(player=0, card="2W6")
    assert reason(game, reserve) == f"keeps {card} away from Cleo, and a gold token"  # type: ignore[arg-type]
    buy = next(m for m in game.legal_moves() if isinstance(m, Buy) and m.card == "2W6")  # type: ignore[attr-defined]
    said = reason(game, buy)  # type: ignore[arg-type]
    assert said == "3 points, one bonus closer to a noble, and keeps it from Cleo"
    # Nobody near it: no rival named.
    far = position(
        Hand(tokens="WWWWWW", points=4),
        Hand(tokens="RR", points=5),
        Hand(tokens="GG", points=9),
        market=MARKET,
        nobles="N3 N4 N5 N6",
    )
    assert reason(far, buy) == "3 points, and one bonus closer to a noble"  # type: ignore[arg-type]


def test_a_noble_a_rival_was_one_bonus_from_is_said_so() -> None:
    set_language("en")
    # N3 wants 4 blue and 4 green bonuses. Ada has 4 and 3 and buys a green card; Ben has
    # 4 and 3 too: her noble is the one he was one bonus from.
    game = position(
        Hand(tokens="WWRRKK", cards="1U1 1U2 1U3 1U4 1G1 1G2 1G3"),
        Hand(cards="1U5 1U6 1U7 1U8 1G5 1G6 1G7"),
        Hand(),
        market=("1G4 1W1 1W2 1R1", "2W6 2U1 2G1 2R1", "3W1 3U1 3G1 3R1"),
        nobles="N3 N5 N6 N7",
    )
    buy = next(m for m in game.legal_moves() if isinstance(m, Buy) and m.card == "1G4")  # type: ignore[attr-defined]
    said = reason(game, buy)  # type: ignore[arg-type]
    assert said.endswith("the noble Ben was one bonus from, 3 points"), said


@pytest.mark.parametrize(
    ("language", "why"),
    [
        ("en", "Why: keeps it away from Cleo"),
        ("fr", "Pourquoi\u00a0: "),
        ("it", "Perché: "),
        ("pt", "Por quê: "),
        ("sv", "Varför: "),
    ],
)
def test_the_companions_move_says_why_naming_the_rival_once_its_card_is_said(
    language: str, why: str
) -> None:
    """The sentence the table shows for the companion's move ends with its reason; a card
    it reserves is named once (in the move), the rival it keeps it from by name."""
    from companion.ai.words import explained

    set_language(language)
    try:
        game = position(
            Hand(tokens="WWWWWW", points=4),
            Hand(tokens="WWWWW", points=5),
            Hand(tokens="WWWWWW", points=9),
            market=MARKET,
            nobles="N3 N4 N5 N6",
        )
        reserve = Reserve(player=0, card="2W6")
        said = explained("Robo reserves it", game, reserve)  # type: ignore[arg-type]
        assert said.startswith("Robo reserves it. " + why), said
        assert said.endswith(reason(game, reserve, told=True)), said  # type: ignore[arg-type]
        assert "Cleo" in said and card_words(CARDS["2W6"]) not in said
    finally:
        set_language("en")
