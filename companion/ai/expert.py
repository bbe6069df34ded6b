"""The expert level's search: information-set Monte Carlo tree search, single observer.

Hard plays a few candidate moves and then lets every seat follow the quick policy (flat
Monte Carlo). The expert grows a tree of the moves of every seat instead, over the
information its own seat has (Cowling, Powley and Whitehouse, "Information Set Monte Carlo
Tree Search", 2012):

- each iteration draws a fresh *determinisation* of what the seat cannot see: the cards the
  other seats reserved blind are dealt from the cards it has not seen
  (:func:`determinised`), and every card turned face up is dealt the same way as the
  iteration goes (:func:`~.view.dealt`: a fresh order of the decks each time);
- the root's candidates (the quick score's best, as hard's, but ranked one move ahead by
  the expert's own judgement, :func:`~.fitted.chance`) share out the iterations by
  sequential halving: each phase gives every candidate still in the same number of rounds,
  each round one determinisation and deal met by every candidate (common random numbers,
  as hard's playouts), then drops the worse half; the last one standing is played;
- below a candidate, the tree's nodes are the seat to act's information sets: a node's
  children are moves (as chosen, without the card the table turns face up), shared by every
  determinisation in which the move is legal. A child is chosen by UCB1 counted over the
  iterations in which it was available (ISMCTS's "availability"), so that a move legal only
  in some deals is not favoured for being tried less. Each seat picks its own best: a
  rival's reply is searched as its own move is, not assumed;
- progressive widening: a node with ``n`` visits considers only the ``WIDEN * n ** ALPHA``
  best of its moves by the quick score, so the iterations go deep on plausible replies
  rather than wide on silly ones; one node is added an iteration;
- below the tree the quick policy plays on to a fixed horizon, the same for every leaf
  (hard's: the candidate and two rounds), where every seat's chance is judged at once by
  the expert's own judgement, fitted to the outcomes of games (:func:`~.fitted.outlooks`:
  the hand-tuned judgement's ingredients and whose turn it is, weighed by what wins).

The budget is the same as hard's: one iteration per playout of hard (:func:`~.search.rollouts_for`),
each as many moves deep. The same seed gives the same move on any machine.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field

from ..engine.cards import Card
from ..engine.game import Game
from ..engine.moves import Move
from ..engine.position import Hidden
from .fitted import chance, outlooks
from .search import ROUNDS, Search, Stopped, candidates, policy
from .value import Quick
from .view import choices, dealt, public_view, stuck, unstick

EXPLORE = 0.1  # UCB1's exploration constant (outlooks lie between 0 and 1)
WIDEN = 0.5  # progressive widening: WIDEN * visits ** ALPHA children considered
ALPHA = 0.5
ROOT_WIDTH = 8  # the root's candidates (hard searches 6)
DEPTH = ROUNDS  # rounds of play after the candidate, to the leaves (hard's, by default)


def determinised(view: Game, rng: random.Random) -> Game:
    """``view`` with every blind reserve it does not know dealt from the cards it has not
    seen (distinct cards, drawn afresh at each call): a game in which such a card can be
    bought. The same game (no copy) when there is none."""
    pos = view.position()
    hidden = [
        (s, i, c.level)
        for s, seat in enumerate(pos.seats)
        for i, c in enumerate(seat.reserved)
        if isinstance(c, Hidden)
    ]
    if not hidden:
        return view
    pools = {level: view.unseen(level) for level in {h[2] for h in hidden}}
    seats = list(pos.seats)
    seen = pos.seen_bits
    for s, i, level in hidden:
        pool = pools[level]
        card: Card = pool.pop(rng.randrange(len(pool)))
        reserved = list(seats[s].reserved)
        reserved[i] = card
        seats[s] = seats[s]._replace(reserved=tuple(reserved))
        seen |= 1 << card.index
    return Game(view.setup, view.rules, start=pos._replace(seats=tuple(seats), seen_bits=seen))


@dataclass(eq=False)
class Node:
    """An information set of the seat to act there: its moves tried, each with the
    statistics of the seat that made it."""

    visits: int = 0
    total: float = 0.0  # the rewards of the seat whose move led here
    available: int = 0  # iterations in which the move leading here was legal and considered
    children: dict[Move, Node] = field(default_factory=dict)

    def pick(self, moves: list[Move]) -> Move:
        """Among ``moves`` (ranked, best first): the first not tried yet, else UCB1's best
        (counted over availability)."""
        for move in moves:
            if move not in self.children:
                return move
        best, best_score = moves[0], -1.0
        for move in moves:
            child = self.children[move]
            child.available += 1
            score = child.total / child.visits + EXPLORE * math.sqrt(
                math.log(child.available) / child.visits
            )
            if score > best_score:
                best, best_score = move, score
        return best


def widened(visits: int) -> int:
    """How many of a node's moves it considers after ``visits`` visits."""
    return max(1, math.ceil(WIDEN * math.pow(visits + 1, ALPHA)))


def ranked(game: Game) -> list[Move]:
    """The legal moves of the seat to act, best first by the quick score."""
    moves = list(game.legal_moves())
    if len(moves) > 1:
        score = Quick(game).score
        moves.sort(key=score, reverse=True)
    return moves


def iterate(node: Node, move: Move, view: Game, rng: random.Random, horizon: int) -> None:
    """One iteration below the root's ``move`` (its ``node``): a determinisation, ``move``,
    down the tree, one node added, the policy to the horizon, every seat's outlook back up
    the path."""
    game = determinised(view, rng)
    if game is view:
        game = view.copy()  # pushed below; the caller's view stays as it was
    path: list[tuple[Node, int]] = [(node, game.to_act)]  # each node, with who moved into it
    game.push(dealt(game, move, rng))
    depth = 1
    expanded = node.visits == 0  # a candidate's first visit: a plain playout
    while depth < horizon and not game.over and not game.stalled:
        if expanded:
            choice = policy(game, rng)
        else:
            seat = game.to_act
            choice = node.pick(ranked(game)[: widened(node.visits)])
            child = node.children.get(choice)
            if child is None:
                child = node.children[choice] = Node(available=1)
                expanded = True  # one node an iteration: below it, the policy plays
            path.append((child, seat))
            node = child
        game.push(dealt(game, choice, rng))
        depth += 1
    rewards = outlooks(game)
    for entered, seat in path:
        entered.visits += 1
        entered.total += rewards[seat]


def expert_search(
    game: Game,
    rng: random.Random,
    iterations: int,
    blind: bool,
    stop: Callable[[], bool] | None = None,
) -> Search:
    """The expert's move after ``iterations`` iterations (hard's playouts, one each).
    ``stop`` is asked between rounds: when it says yes, :class:`~.search.Stopped` is
    raised.

    The root's candidates share out the iterations by sequential halving: in each phase
    every candidate still in gets the same number of rounds, and the worse half is
    dropped after it, so the budget goes to telling the best few apart. In a round every
    candidate meets the same determinisation and the same deal (common random numbers,
    as hard's playouts): the comparison is between moves, not luck."""
    seat = game.to_act
    view = public_view(game, seat)
    if stuck(view):
        move = unstick(view, choices(view, blind), rng)
        return Search(move, {move: 0.0})
    alive = candidates(view, seat, blind, rng, ROOT_WIDTH, judge=chance)
    if len(alive) == 1 or iterations < len(alive):
        # One move, or a test's tiny budget: the one-move-ahead ranking, as hard.
        return Search(alive[0], {alive[0]: 0.0})
    # The budget in moves played: hard's playouts times hard's depth, shared out at ours.
    horizon = 1 + DEPTH * len(game.seats)
    iterations = iterations * (1 + ROUNDS * len(game.seats)) // horizon
    nodes = {m: Node() for m in alive}
    phases = math.ceil(math.log2(len(alive)))
    spent = 0
    for phase in range(phases):
        rounds = max(1, (iterations - spent) // ((phases - phase) * len(alive)))
        for _round in range(rounds):
            if stop is not None and stop():
                raise Stopped
            deal = rng.random()
            for move in alive:
                iterate(nodes[move], move, view, random.Random(deal), horizon)
            spent += len(alive)
        # The better half goes on (equals: the one ranked better one move ahead).
        alive = sorted(alive, key=lambda m: -nodes[m].total / nodes[m].visits)
        alive = alive[: math.ceil(len(alive) / 2)]
    scores = {m: n.total / n.visits for m, n in nodes.items()}
    return Search(alive[0], scores)
