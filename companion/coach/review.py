"""The game review: where each person's game was won and lost, move by move.

For each move of a record, the mover's chance of winning before it (with the best move the
companion's search finds) and after it (with the move played), estimated by the hard
level's search on what the mover could know at that moment: :func:`~.view.public_view`
hides the blind reserves of others, then each round of playouts deals them afresh from the
cards the mover has not seen (:func:`~companion.ai.expert.determinised`: a rival can buy the card it
reserved blind), and every card still to come is dealt at random from the unseen ones, per
playout (the engine never holds the decks' order). The same seed and
budget give the same review on any machine; a budget is a number of playouts a move,
scaled from seconds on a Raspberry Pi 4 as the companion's own budget is
(:func:`~.search.rollouts_for`).

Each seat's three costliest moves, among those a deeper search confirms (:func:`check`: a
move it does not confirm is not shown as a mistake), come with the move the companion
prefers, the chance it would have kept, and a one-line reason built from the two moves and
what the others did next (:func:`why`). The numbers are stored (:meth:`Review.document`,
in the journal and in a record's ``annotations.review``); the words are made when shown,
in the reader's language. The command's JSON is in ``docs/review.md``.

>>> from companion.records.record import Record
>>> from companion.engine.simulate import simulate
>>> record = Record.of(simulate(players=2, seed=3, max_moves=4))
>>> done = review(record, playouts=6)
>>> len(done.moves), done.moves[0].seat, 0.0 <= done.moves[0].after <= 1.0
(4, 0, True)
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..ai.expert import determinised
from ..ai.search import ROUNDS, Stopped, candidates, policy, rollouts_for
from ..ai.thinking import Worker
from ..ai.value import outlook
from ..ai.view import dealt, public_view
from ..ai.words import visiting
from ..engine.cards import CARDS, NOBLES, Card
from ..engine.game import Game
from ..engine.moves import Buy, Move, Reserve, Take, with_parts
from ..engine.naming import card_words
from ..i18n import _, localise, ngettext, percent
from ..records.movelog import tell
from ..records.record import Record, fingerprint, move_document, read_move, replay
from ..records.timeline import Step, timeline
from .calibration import calibrated

FORMAT = "splendor-review"
VERSION = 2
"""The review's version: a stored review of another version is computed again (2: its
costly moves checked by a deeper search)."""
THINK = 0.3
"""Seconds of a Raspberry Pi 4 a move by default: a 60-move game in under half a minute."""
COSTLY = 3  # moves listed a seat
NOTICED = 0.01  # a move costing less than this (1 point of chance) is not a mistake
CONFIRM = 2
"""A costly move is checked again, the preferred move against the move played alone, with this
many times the review's budget a move: about twenty times what each candidate had (the review
shares its budget among eight to fourteen). Only a move the check confirms is listed."""
CHECKS = 6  # candidate mistakes checked at most a seat (the costliest first)

Progress = Callable[[int, int], object]  # moves reviewed, moves in all


def default_playouts() -> int:
    """The default budget: playouts a move, as :data:`THINK` seconds on a Pi 4."""
    return rollouts_for(THINK)


@dataclass(frozen=True)
class Judged:
    """One move, judged from its mover's seat."""

    number: int  # 1-based
    seat: int
    before: float  # the mover's chance with the best move found (the move played included)
    after: float  # the mover's chance after the move played
    preferred: Move | None  # the companion's move where it is not the one played
    chances: tuple[float, ...]  # every seat's share of the chances after the move
    # Every seat's judgement after the move before calibration (not stored: what the
    # calibration is fitted on, :mod:`.calibrate`).
    outlooks: tuple[float, ...] = field(default=(), compare=False)

    @property
    def cost(self) -> float:
        """The chance the move played gave away."""
        return max(0.0, self.before - self.after)


@dataclass(frozen=True)
class Review:
    seed: int
    playouts: int
    record: str  # the fingerprint of the record reviewed (see records.record.fingerprint)
    moves: tuple[Judged, ...]
    # Each costly move checked by the deeper search: its number, and the chance the preferred
    # move keeps over the one played by that search's judgement (above 0: confirmed).
    # ``None``: not checked (every costly move is listed).
    checked: Mapping[int, float] | None = None

    def candidates(self, seat: int) -> list[Judged]:
        """The seat's moves that cost it something, the costliest first (the first of
        equals first): what the deeper search checks."""
        mistakes = [
            j
            for j in self.moves
            if j.seat == seat and j.preferred is not None and j.cost >= NOTICED
        ]
        return sorted(mistakes, key=lambda j: (-j.cost, j.number))

    def costly(self, seat: int, n: int = COSTLY) -> list[Judged]:
        """The seat's ``n`` moves that cost it most, among those the deeper search confirmed
        (a move it does not confirm is not shown as a mistake)."""
        checked = self.checked
        if checked is None:
            return self.candidates(seat)[:n]
        return [j for j in self.candidates(seat) if checked.get(j.number, 0.0) > 0][:n]

    def document(self) -> dict[str, Any]:
        """What is stored: the numbers, not the words (those are said in the reader's
        language when shown)."""
        return {
            "format": FORMAT,
            "version": VERSION,
            "seed": self.seed,
            "playouts": self.playouts,
            "record": self.record,
            "checked": None
            if self.checked is None
            else [[n, margin] for n, margin in sorted(self.checked.items())],
            "moves": [
                {
                    "move": j.number,
                    "seat": j.seat,
                    "before": j.before,
                    "after": j.after,
                    "preferred": None if j.preferred is None else move_document(j.preferred),
                    "chances": list(j.chances),
                }
                for j in self.moves
            ],
        }

    @classmethod
    def from_document(cls, doc: object) -> Review:
        """A stored review; ``ValueError`` if it is not one of this version (a record's
        annotations come from anywhere)."""
        try:
            return _read(doc)
        except (KeyError, TypeError, ValueError, AttributeError) as err:
            raise ValueError(f"not a review of version {VERSION}: {err}") from None


def _chance(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError("a chance is a number")
    if not 0.0 <= value <= 1.0:
        raise ValueError("a chance lies between 0 and 1")
    return float(value)


def _read(doc: Any) -> Review:
    if doc["format"] != FORMAT or doc["version"] != VERSION:
        raise ValueError("another format or version")
    moves = []
    for n, entry in enumerate(doc["moves"], start=1):
        if entry["move"] != n or not isinstance(entry["seat"], int):
            raise ValueError("moves out of order")
        preferred = entry["preferred"]
        moves.append(
            Judged(
                number=n,
                seat=entry["seat"],
                before=_chance(entry["before"]),
                after=_chance(entry["after"]),
                preferred=None if preferred is None else read_move(preferred),
                chances=tuple(_chance(c) for c in entry["chances"]),
            )
        )
    seed, playouts, record = doc["seed"], doc["playouts"], doc["record"]
    if not isinstance(seed, int) or not isinstance(playouts, int) or not isinstance(record, str):
        raise ValueError("seed, playouts or record")
    checked = None
    if doc["checked"] is not None:
        checked = {}
        for n, margin in doc["checked"]:
            if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= len(moves):
                raise ValueError("a move checked that is not reviewed")
            if isinstance(margin, bool) or not isinstance(margin, int | float):
                raise ValueError("a margin is a number")
            checked[n] = float(margin)
    return Review(seed, playouts, record, tuple(moves), checked)


# ------------------------------------------------------------------ judging


def as_chosen(move: Move) -> Move:
    """``move`` as its player chose it: without the card the table turned face up, nor
    the card a blind reserve turned out to be (neither was known when choosing)."""
    if isinstance(move, Reserve) and move.deck is not None:
        return with_parts(move, reveal=None, card=None)
    return with_parts(move, reveal=None) if move.reveal is not None else move


def _key(move: Move) -> tuple[object, ...]:
    """What makes two moves the same choice (a payment or a noble the engine would pick
    anyway do not)."""
    kind = type(move).__name__
    returned = move.returned if move.returned is not None and move.returned.total else None
    if isinstance(move, Take):
        return (kind, tuple(move.gems), returned)
    if isinstance(move, Reserve):
        return (kind, move.card, move.deck, returned)
    if isinstance(move, Buy):
        return (kind, move.card, returned)
    return (kind,)


def _playout(
    game: Game, move: Move, rng: random.Random, plies: int, everyone: bool
) -> tuple[float, ...]:
    """Play ``move`` then ``plies`` more moves of the playouts' policy: the mover's outlook
    (``everyone``: each seat's). Leaves ``game`` as it found it. As
    :func:`.search.playout`, judging every seat at the end rather than one."""
    seat = game.to_act
    game.push(dealt(game, move, rng))
    pushed = 1
    while pushed <= plies and not game.over and not game.stalled:
        game.push(dealt(game, policy(game, rng), rng))
        pushed += 1
    if everyone:
        scores = tuple(outlook(game, s) for s in range(len(game.seats)))
    else:
        scores = (outlook(game, seat),)
    for _pushed in range(pushed):
        game.undo()
    return scores


def shares(outlooks: Sequence[float]) -> tuple[float, ...]:
    """Each seat's outlook as a share of all: chances that add up to one. (With two
    players they do already: the outlook compares a seat with its one rival.)"""
    total = sum(outlooks)
    if total <= 0:
        return tuple(1.0 / len(outlooks) for _ in outlooks)
    return tuple(o / total for o in outlooks)


def _round(x: float) -> float:
    return round(x, 4)


def judge(
    game: Game, move: Move, playouts: int, seed: int, stop: Callable[[], bool] | None = None
) -> Judged:
    """``move``, the next of ``game``, judged from its mover's seat with what they could
    know. ``game`` is left as it was. ``stop`` is asked between rounds of playouts: when
    it says yes, :class:`~.search.Stopped` is raised."""
    number = len(game.moves) + 1
    seat = game.to_act
    view = public_view(game, seat)
    rng = random.Random(f"review:{seed}:{number}")
    played = as_chosen(move)
    moves = candidates(view, seat, True, rng)
    keys = [_key(m) for m in moves]
    if _key(played) in keys:
        mine = keys.index(_key(played))
    else:
        moves.append(played)
        mine = len(moves) - 1
    means, everyone = _means(view, seat, moves, mine, playouts, rng, stop)
    best = max(range(len(moves)), key=lambda i: (means[i], i == mine))
    size = len(view.seats)
    # A judgement is a share of all the seats' (after the move played, the chart's); then a
    # rate, by the calibration fitted on games played on (docs/review.md). The mover's before
    # and after are on the same scale: their judgements over the seats' total after the move.
    total = sum(everyone)

    def chance(outlook: float) -> float:
        share = min(1.0, outlook / total) if total > 0 else 1.0 / size
        return calibrated(share, size)

    return Judged(
        number=number,
        seat=seat,
        before=_round(chance(means[best])),
        after=_round(chance(means[mine])),
        preferred=None if best == mine else moves[best],
        chances=tuple(_round(c) for c in shares([calibrated(s, size) for s in shares(everyone)])),
        outlooks=tuple(_round(o) for o in everyone),
    )


def _means(
    view: Game,
    seat: int,
    moves: Sequence[Move],
    mine: int,
    playouts: int,
    rng: random.Random,
    stop: Callable[[], bool] | None = None,
) -> tuple[list[float], list[float]]:
    """The mover's mean outlook after each of ``moves`` over the same playouts, and every
    seat's mean outlook after ``moves[mine]`` (the move played)."""
    plies = ROUNDS * len(view.seats)
    rounds = max(1, playouts // len(moves))
    totals = [0.0] * len(moves)
    everyone = [0.0] * len(view.seats)
    for _deal in range(rounds):
        if stop is not None and stop():
            raise Stopped
        # Every candidate meets the same cards (common random numbers): the comparison is
        # between moves, not luck.
        deal = rng.random()
        # The others' blind reserves as they may be, the same for every candidate too.
        table = determinised(view, random.Random(f"{deal}:reserves"))
        for i, candidate in enumerate(moves):
            scores = _playout(table, candidate, random.Random(deal), plies, i == mine)
            totals[i] += scores[seat] if i == mine else scores[0]
            if i == mine:
                everyone = [a + b for a, b in zip(everyone, scores, strict=True)]
    return [t / rounds for t in totals], [e / rounds for e in everyone]


def compare(
    game: Game,
    moves: Sequence[Move],
    playouts: int,
    seed: int,
    stream: str = "check",
    stop: Callable[[], bool] | None = None,
) -> list[float]:
    """The mover's chance after each of ``moves`` (each a move of the seat to act in
    ``game``), judged as :func:`judge` judges, over the same playouts for all, with a random
    stream of its own (named ``stream``: the review's check and the benchmark's deeper one
    never share their cards): how a deeper search checks a review's verdict. ``game`` is
    left as it was."""
    seat = game.to_act
    view = public_view(game, seat)
    rng = random.Random(f"{stream}:{seed}:{len(game.moves) + 1}")
    means, _everyone = _means(view, seat, [as_chosen(m) for m in moves], 0, playouts, rng, stop)
    return means


def check(
    record: Record,
    judged: Sequence[Judged],
    playouts: int,
    seed: int,
    stop: Callable[[], bool] | None = None,
    progress: Progress | None = None,
) -> dict[int, float]:
    """Each seat's costliest moves checked, the preferred move against the one played, at
    ``playouts`` a move (:func:`compare`): the costliest first, until :data:`COSTLY` are
    confirmed or :data:`CHECKS` were tried. ``progress(done, total)`` after each check."""
    unchecked = Review(seed, playouts, "", tuple(judged))
    seats = sorted({j.seat for j in judged})
    queues = {seat: unchecked.candidates(seat)[:CHECKS] for seat in seats}
    # The least there is to check: the first three of each seat; a move refuted adds one.
    total = sum(min(COSTLY, len(q)) for q in queues.values())
    margins: dict[int, float] = {}
    for seat in seats:
        confirmed = 0
        for tried, j in enumerate(queues[seat]):
            if confirmed == COSTLY:
                break
            if tried >= COSTLY:
                total += 1
            game = Game(record.setup)
            for move in record.moves[: j.number - 1]:
                game.push(move)
            assert j.preferred is not None
            better, played = compare(
                game, [j.preferred, record.moves[j.number - 1]], playouts, seed, "confirm", stop
            )
            margins[j.number] = _round(better - played)
            confirmed += margins[j.number] > 0
            if progress is not None:
                progress(len(margins), total)
    return margins


def review(
    record: Record,
    playouts: int | None = None,
    seed: int = 0,
    progress: Progress | None = None,
    stop: Callable[[], bool] | None = None,
    on_judged: Callable[[Judged], object] | None = None,
    checking: Progress | None = None,
    confirm: bool = True,
) -> Review:
    """Every legal move of ``record`` judged (a move that breaks a rule ends the review),
    then each seat's costliest moves checked by a deeper search (:func:`check`; not when
    ``confirm`` is false, as when the benchmark measures the review's raw verdicts).

    ``progress(done, total)`` is called after each move, ``checking(done, total)`` after
    each check, ``on_judged`` with each move judged; ``stop`` is asked between rounds of
    playouts: when it says yes, :class:`~.search.Stopped` is raised.
    """
    budget = default_playouts() if playouts is None else max(1, playouts)
    moves = record.moves[: replay(record).moves_applied]
    game = Game(record.setup)
    judged = []
    for done, move in enumerate(moves, start=1):
        judged.append(judge(game, move, budget, seed, stop))
        if on_judged is not None:
            on_judged(judged[-1])
        game.push(move)
        if progress is not None:
            progress(done, len(moves))
    checked = check(record, judged, budget * CONFIRM, seed, stop, checking) if confirm else None
    return Review(seed, budget, fingerprint(record), tuple(judged), checked)


class Reviewing(Worker):
    """A review computed in a daemon thread (a :class:`Worker`): ``on_progress``,
    ``on_checking`` and ``on_done`` are called from that thread; :meth:`stop` makes it give
    up before the next round of playouts, and then ``on_done`` is not called."""

    def __init__(
        self,
        record: Record,
        on_done: Callable[[Reviewing], object],
        on_progress: Progress | None = None,
        playouts: int | None = None,
        seed: int = 0,
        on_checking: Progress | None = None,
    ) -> None:
        super().__init__("companion-reviews", on_done)
        self.record = record
        self.result: Review | None = None
        self.judged: list[Judged] = []  # the moves judged so far (a chart drawn meanwhile)
        self._on_progress = on_progress
        self._on_checking = on_checking
        self._playouts = playouts
        self._seed = seed

    def work(self, stop: Callable[[], bool]) -> None:
        self.result = review(
            self.record,
            self._playouts,
            self._seed,
            self._progress,
            stop,
            self.judged.append,
            self._checking,
        )

    def _progress(self, done: int, total: int) -> None:
        if self._on_progress is not None and not self.stopped:
            self._on_progress(done, total)

    def _checking(self, done: int, total: int) -> None:
        if self._on_checking is not None and not self.stopped:
            self._on_checking(done, total)


# ------------------------------------------------------------------ words


def doing(move: Move) -> str:
    """A move as the subject of a sentence: ``Buying a blue level-1 card (1 point)``."""
    if isinstance(move, Take):
        return _("Taking {tokens}").format(tokens=localise(move.gems))
    if isinstance(move, Buy):
        return _("Buying {card}").format(card=card_words(_card(move.card)))
    if isinstance(move, Reserve):
        if move.deck is not None:
            return _("Reserving from the level-{level} deck").format(level=move.deck)
        return _("Reserving {card}").format(card=card_words(_card(move.card or "")))
    return _("Passing")


def _card(card_id: str) -> Card:
    return CARDS[card_id]


def why(game: Game, judged: Judged, played: Move, next_steps: Sequence[Step]) -> str:
    """The one-line reason ``judged.preferred`` beats ``played`` (the move ``game`` is
    about to play), from the two moves and what the others did before the mover's next
    turn (``next_steps``)."""
    preferred = judged.preferred
    assert preferred is not None
    said, better = doing(played), doing(preferred)
    noble = visiting(game, preferred)
    if noble is not None and visiting(game, played) is None:
        for step in next_steps:
            if step.noble is not None and step.noble.id == noble:
                points = step.noble.points
                return ngettext(
                    "{played} let {name} take a noble ({n} point)",
                    "{played} let {name} take a noble ({n} points)",
                    points,
                ).format(played=said, name=step.player, n=points)
    card = _taken_by(preferred)
    if card is not None and card != _taken_by(played):
        for step in next_steps:
            if _taken_by(step.move) == card:
                return _("{played} let {name} take {card}").format(
                    played=said, name=step.player, card=card_words(_card(card))
                )
    if noble is not None and visiting(game, played) is None:
        points = NOBLES[noble].points
        return ngettext(
            "{preferred} would have brought a noble ({n} point)",
            "{preferred} would have brought a noble ({n} points)",
            points,
        ).format(preferred=better, n=points)
    points = _card(preferred.card).points if isinstance(preferred, Buy) else 0
    now = game.seat(preferred.player).points
    if points and now < game.rules.winning_points <= now + points:
        return _("{preferred} would have reached {n} points: enough to win").format(
            preferred=better, n=now + points
        )
    if points and (not isinstance(played, Buy) or _card(played.card).points < points):
        return ngettext(
            "{preferred} would have scored {n} point",
            "{preferred} would have scored {n} points",
            points,
        ).format(preferred=better, n=points)
    given = played.returned.total if played.returned is not None else 0
    kept = preferred.returned.total if preferred.returned is not None else 0
    if given > kept:
        return ngettext(
            "{played} handed {n} token back for nothing",
            "{played} handed {n} tokens back for nothing",
            given - kept,
        ).format(played=said, n=given - kept)
    if isinstance(preferred, Buy) and not isinstance(played, Buy):
        return _("{preferred} would have added a lasting {colour} bonus").format(
            preferred=better, colour=localise(_card(preferred.card).bonus)
        )
    return _("{preferred} kept a better chance of winning ({kept} rather than {after})").format(
        preferred=better, kept=percent(judged.before), after=percent(judged.after)
    )


def _taken_by(move: Move) -> str | None:
    if isinstance(move, Buy):
        return move.card
    if isinstance(move, Reserve) and move.deck is None:
        return move.card
    return None


@dataclass(frozen=True)
class Mistake:
    """A costly move, told: for the screen, the command and the exports."""

    judged: Judged
    step: Step  # the move played, as the move log tells it
    preferred: str  # the companion's move, as the subject of a sentence
    reason: str


def mistakes(record: Record, done: Review, seat: int) -> list[Mistake]:
    """The seat's costliest moves, told in the current language."""
    steps = timeline(record)
    told: list[Mistake] = []
    costly = done.costly(seat)
    if not costly:
        return told
    game = Game(record.setup)
    for judged in sorted(costly, key=lambda j: j.number):
        while len(game.moves) < judged.number - 1:
            game.push(record.moves[len(game.moves)])
        step = steps[judged.number - 1]
        after = steps[judged.number : judged.number + len(record.players) - 1]
        assert judged.preferred is not None
        told.append(
            Mistake(judged, step, doing(judged.preferred), why(game, judged, step.move, after))
        )
    return sorted(told, key=lambda m: (-m.judged.cost, m.judged.number))


def seat_order(levels: Sequence[str | None]) -> list[int]:
    """The seats as a review lists them: the people's first, then the companion's."""
    return sorted(range(len(levels)), key=lambda s: (levels[s] is not None, s))


def summary(record: Record, done: Review, levels: Sequence[str | None]) -> dict[str, Any]:
    """The ``review --json`` object (``docs/review.md``)."""
    steps = timeline(record)
    seats = []
    for seat in seat_order(levels):
        mine = [j for j in done.moves if j.seat == seat]
        seats.append(
            {
                "seat": seat,
                "player": record.players[seat],
                "companion": levels[seat],
                "moves": len(mine),
                "chance_lost": _round(sum(j.cost for j in mine)),
                "costly": [
                    {
                        "move": m.judged.number,
                        "round": m.step.round,
                        "played": move_document(m.step.move),
                        "played_words": tell(m.step),
                        "chance_before": m.judged.before,
                        "chance_after": m.judged.after,
                        "preferred": move_document(_required(m.judged.preferred)),
                        "preferred_words": m.preferred,
                        "chance_kept": m.judged.before,
                        "reason": m.reason,
                    }
                    for m in mistakes(record, done, seat)
                ],
            }
        )
    return {
        "format": FORMAT,
        "version": VERSION,
        "seed": done.seed,
        "playouts": done.playouts,
        "players": list(record.players),
        "seats": seats,
        "moves": [
            {
                "move": j.number,
                "round": steps[j.number - 1].round,
                "seat": j.seat,
                "played": move_document(steps[j.number - 1].move),
                "chance_before": j.before,
                "chance_after": j.after,
                "preferred": None if j.preferred is None else move_document(j.preferred),
                "chances": list(j.chances),
            }
            for j in done.moves
        ],
    }


def _required(move: Move | None) -> Move:
    assert move is not None
    return move


def chances_by_move(record: Record, done: Review) -> list[list[float]]:
    """Each seat's chance before move 1 (even), then after each move: the chart's lines."""
    n = len(record.players)
    return [[1.0 / n] * n, *([*j.chances] for j in done.moves)]


def review_of(extra: Mapping[str, Any], record: Record) -> Review | None:
    """The review a record carries in ``annotations.review`` (the journal's export puts
    it there), if it is one of this version and of this very record."""
    annotations = extra.get("annotations")
    if not isinstance(annotations, Mapping) or "review" not in annotations:
        return None
    try:
        done = Review.from_document(annotations["review"])
    except ValueError:
        return None
    return done if done.record == fingerprint(record) else None


def overall(done: Review, seat: int) -> float:
    """The chance the seat gave away over the game, all its moves together."""
    return math.fsum(j.cost for j in done.moves if j.seat == seat)


def seat_lines(record: Record, done: Review, seat: int, title: str) -> list[str]:
    """One seat's review in words: a heading, then its costly moves (or that none was)."""
    mine = [j for j in done.moves if j.seat == seat]
    lines = [
        ngettext("{player}: {n} move reviewed", "{player}: {n} moves reviewed", len(mine)).format(
            player=title, n=len(mine)
        )
    ]
    told = mistakes(record, done, seat)
    if not told:
        lines.append("  " + _("No move cost more than {share}.").format(share=percent(NOTICED)))
    for i, m in enumerate(told, start=1):
        lines.append(
            f"  {i}. "
            + _("Move {n}, round {round}: {move}").format(
                n=m.judged.number, round=m.step.round, move=tell(m.step)
            )
            + " "
            + _("({before} before, {after} after)").format(
                before=percent(m.judged.before), after=percent(m.judged.after)
            )
        )
        lines.append(
            "     "
            + _("{move} was the companion's choice: it keeps the chance at {kept}.").format(
                move=m.preferred, kept=percent(m.judged.before)
            )
        )
        lines.append("     " + m.reason)
    return lines


def text_lines(
    record: Record, done: Review, titles: Sequence[str], levels: Sequence[str | None]
) -> list[str]:
    """The whole review in words, the people's seats first (the command, the text export)."""
    lines = [
        _("Review by the companion ({playouts} playouts a move, seed {seed})").format(
            playouts=done.playouts, seed=done.seed
        )
    ]
    for seat in seat_order(levels):
        lines.extend(seat_lines(record, done, seat, titles[seat]))
    return lines
