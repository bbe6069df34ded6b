"""The ``splendor-companion`` command: the app with no arguments, tools as subcommands."""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from . import i18n
from .errors import RecordError
from .files import write_atomic
from .i18n import _
from .record import Record, Replay, load, malformed_summary, replay, summary, write
from .simulate import simulate

EXIT_OK, EXIT_ILLEGAL, EXIT_MALFORMED = 0, 1, 2


def _standings_text(result: Replay) -> list[str]:
    game = result.game
    lines = []
    for s in game.standings():
        nobles = ", ".join(s.nobles) or "-"
        lines.append(
            _("{rank}. {player}: {points} points, {cards} cards, nobles {nobles}").format(
                rank=s.rank, player=s.player, points=s.points, cards=s.cards, nobles=nobles
            )
        )
    return lines


def replay_text(result: Replay) -> str:
    """The human-readable replay summary, in the current language."""
    game = result.game
    lines = [
        _("Players: {players}").format(players=", ".join(game.names)),
    ]
    if result.error is not None:
        move = result.error_move
        lines.append(
            _("Move {n} is illegal: {reason} [{code}]").format(
                n=move, reason=result.error.message, code=result.error.code.value
            )
        )
        lines.append(_("{n} moves before it are legal.").format(n=result.moves_applied))
    else:
        lines.append(_("All {n} moves are legal.").format(n=result.moves_applied))
    if game.over:
        winners = game.winners()
        if len(winners) > 1:
            lines.append(
                _("Game over: {names} share the victory.").format(names=", ".join(winners))
            )
        else:
            lines.append(_("Game over: {name} wins.").format(name=winners[0]))
    else:
        lines.append(_("The game is not over (round {n}).").format(n=game.round))
    lines.extend(_standings_text(result))
    return "\n".join(lines)


def cmd_replay(args: argparse.Namespace) -> int:
    try:
        record = load(args.file)
    except RecordError as err:
        if args.json:
            print(json.dumps(malformed_summary(err), ensure_ascii=False))
        else:
            print(
                _("{file} is not a valid game record: {reason}").format(
                    file=args.file, reason=err.message
                ),
                file=sys.stderr,
            )
        return EXIT_MALFORMED
    result = replay(record)
    if args.json:
        print(json.dumps(summary(result), ensure_ascii=False))
    else:
        print(replay_text(result))
    return EXIT_OK if result.valid else EXIT_ILLEGAL


def cmd_simulate(args: argparse.Namespace) -> int:
    game = simulate(players=args.players, seed=args.seed)
    text = write(Record.of(game, app={"name": "splendor-companion simulate", "seed": args.seed}))
    if args.out:
        try:
            write_atomic(Path(args.out), text)
        except OSError as err:
            print(
                _("Cannot write {file}: {reason}").format(
                    file=args.out, reason=err.strerror or err
                ),
                file=sys.stderr,
            )
            return EXIT_MALFORMED
    else:
        sys.stdout.write(text)
    return EXIT_OK


def cmd_bench(args: argparse.Namespace) -> int:
    from . import bench

    return bench.main(quick=args.quick)


def cmd_app(args: argparse.Namespace) -> int:
    try:
        # Imported by name: the core must not depend on the UI (nor on Kivy) to load.
        app = importlib.import_module("ui.app")
    except ImportError as err:
        print(
            _(
                "The touchscreen app cannot start: {reason}. Install it with the first command "
                "of README.md."
            ).format(reason=err),
            file=sys.stderr,
        )
        return EXIT_MALFORMED
    code: int = app.run(args)
    return code


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="splendor-companion",
        description="A companion for a physical game of Splendor. With no command: the app.",
    )
    parser.add_argument("--lang", choices=i18n.LANGUAGES, help="language of messages")
    parser.add_argument("--fullscreen", action="store_true", help="app: fill the screen")
    parser.add_argument("--size", help="app: window size, like 800x480")
    parser.add_argument("--demo", action="store_true", help="app: open a game in progress")
    parser.set_defaults(func=cmd_app)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("replay", help="check a game record and show its result")
    p.add_argument("file", help="a game record (JSON)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("simulate", help="play a random legal game and write its record")
    p.add_argument("--players", type=int, choices=(2, 3, 4), default=2)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", help="file to write (default: standard output)")
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser("bench", help="measure the engine's speed")
    p.add_argument("--quick", action="store_true", help="a short run")
    p.set_defaults(func=cmd_bench)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.lang:
        i18n.set_language(args.lang)
    try:
        code: int = args.func(args)
    except BrokenPipeError:
        # The reader went away (``| head``): not an error of ours, and nothing to say.
        sys.stderr.close()
        return EXIT_OK
    return code


if __name__ == "__main__":
    sys.exit(main())
