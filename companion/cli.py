"""The ``splendor-companion`` command: the app with no arguments, tools as subcommands."""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from . import i18n
from .errors import CompanionError, RecordError
from .export import FORMATS, export_all, export_file, render, verdict
from .files import write_atomic
from .i18n import _
from .paths import database_path
from .record import Record, Replay, load, malformed_summary, replay, summary, write
from .simulate import simulate
from .stats import PlayedGame, head_to_head, played_games, stats_of
from .store import GameState, Store, StoreError, resolve
from .text import printable

EXIT_OK, EXIT_ILLEGAL, EXIT_MALFORMED = 0, 1, 2


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
    lines.extend(verdict(game))
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


def _seat_levels(text: str) -> list[str]:
    from .ai.players import LEVELS

    levels = [w.strip().lower() for w in text.split(",")]
    if not 2 <= len(levels) <= 4 or any(level not in LEVELS for level in levels):
        raise argparse.ArgumentTypeError(
            _(
                "write 2 to 4 levels separated by commas ({levels}), like hard,easy; not {text}"
            ).format(levels=", ".join(LEVELS), text=text)
        )
    return levels


def cmd_simulate(args: argparse.Namespace) -> int:
    app: dict[str, object] = {"name": "splendor-companion simulate", "seed": args.seed}
    if args.seats is not None:
        from .ai.play import play_levels

        if args.players is not None and args.players != len(args.seats):
            return _fail(
                _("--players {n} does not match the {seats} seats of --seats").format(
                    n=args.players, seats=len(args.seats)
                )
            )
        game, seats = play_levels(args.seats, seed=args.seed, think=args.think)
        app.update(seats=seats, think=args.think)
    else:
        game = simulate(players=args.players or 2, seed=args.seed)
    text = write(Record.of(game, app=app))
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


def _open_store(args: argparse.Namespace, reader: bool = False) -> Store:
    """The journal; a ``reader`` reads it even while the app has it (changing nothing)."""
    store = Store(database_path(args.data_dir), reader=reader)
    for notice in store.notices:
        print(notice, file=sys.stderr)
    return store


def _fail(message: str) -> int:
    print(message, file=sys.stderr)
    return EXIT_MALFORMED


def cmd_games(args: argparse.Namespace) -> int:
    with _open_store(args, reader=True) as store:
        games = store.games()
        if not games:
            print(_("No games yet."))
        for info in games:
            state = _(info.state)
            winner = ", ".join(info.winners) or "-"
            line = _("{id:>4}  {date}  {players}  winner: {winner}  {state}, {moves} moves")
            print(
                printable(
                    line.format(
                        id=info.id,
                        date=info.started_at.replace("T", " ").rstrip("Z"),
                        players=", ".join(info.players),
                        winner=winner,
                        state=state,
                        moves=info.moves,
                    )
                )
            )
    return EXIT_OK


def cmd_export(args: argparse.Namespace) -> int:
    with _open_store(args, reader=True) as store:
        if args.all:
            if not args.to:
                return _fail(_("export --all needs --to FOLDER (a USB stick, say)"))
            done = export_all(store, Path(args.to))
            print(
                _("{games} finished games exported: {files} files in {folder}").format(
                    games=done.games, files=len(done.written), folder=args.to
                )
            )
            for err in done.skipped:
                print(printable(err.message), file=sys.stderr)
            return EXIT_MALFORMED if done.skipped else EXIT_OK
        if args.game is None:
            return _fail(_("name the game to export (see 'splendor-companion games'), or --all"))
        record = store.record(args.game, with_journal=args.format in ("json", "bgstats"))
        aliases = store.aliases()

        def person(name: str) -> str:
            return resolve(aliases, name)

        if args.out:
            export_file(record, args.format, Path(args.out), person)
        else:
            sys.stdout.write(render(record, args.format, person))
    return EXIT_OK


def cmd_import(args: argparse.Namespace) -> int:
    try:
        record = load(args.file)
    except RecordError as err:
        return _fail(
            _("{file} is not a valid game record: {reason}").format(
                file=args.file, reason=err.message
            )
        )
    result = replay(record)
    if not result.valid:
        assert result.error is not None
        print(
            _("{file} was not imported: move {n} is illegal: {reason} [{code}]").format(
                file=args.file,
                n=result.error_move,
                reason=result.error.message,
                code=result.error.code.value,
            ),
            file=sys.stderr,
        )
        return EXIT_ILLEGAL
    try:
        with _open_store(args) as store:
            game_id = store.import_record(record, GameState.of(result.game))
    except StoreError as err:
        # Already stored (as game N), a journal in use or read-only: nothing was stored.
        return _fail(
            _("{file} was not imported: {reason}").format(file=args.file, reason=err.message)
        )
    print(_("Imported as game {id}.").format(id=game_id))
    return EXIT_OK


def cmd_stats(args: argparse.Namespace) -> int:
    with _open_store(args, reader=True) as store:
        games = played_games(store)
    if args.vs:
        a, b = args.vs
        h = head_to_head(games, a, b)
        print(
            _(
                "{a} against {b}: {games} games together; {a} ahead {a_ahead}, {b} ahead "
                "{b_ahead}, level {level}; wins {a_wins} to {b_wins}; {a_points:.1f} to "
                "{b_points:.1f} points on average"
            ).format(
                a=a,
                b=b,
                games=h.games,
                a_ahead=h.a_ahead,
                b_ahead=h.b_ahead,
                level=h.level,
                a_wins=h.a_wins,
                b_wins=h.b_wins,
                a_points=h.a_points,
                b_points=h.b_points,
            )
        )
        return EXIT_OK
    # Games against the companion are counted apart: a person's lines, then theirs.
    lines = stats_of(g for g in games if not g.against_companion)
    apart = stats_of(g for g in games if g.against_companion)
    if not lines and not apart:
        print(_("No finished games yet."))
    for s in lines + apart:
        if apart and s is apart[0]:
            print(_("Against the companion:"))
        colour = _(s.favourite_bonus.key) if s.favourite_bonus is not None else "-"
        print(
            _(
                "{name}: {games} games, {wins} wins ({rate:.0%}), {points:.1f} points and "
                "{rounds:.1f} rounds on average, favourite bonus {colour}"
            ).format(
                name=s.name,
                games=s.games,
                wins=s.wins,
                rate=s.win_rate,
                points=s.average_points,
                rounds=s.average_rounds,
                colour=colour,
            )
        )
        if s.fastest_win is not None:
            print("  " + fastest_text(s.fastest_win))
    return EXIT_OK


def fastest_text(game: PlayedGame) -> str:
    """``Fastest win: 12 rounds (34 min), game 7``."""
    if game.minutes is None:
        return _("Fastest win: {rounds} rounds, game {id}").format(rounds=game.rounds, id=game.id)
    return _("Fastest win: {rounds} rounds ({minutes} min), game {id}").format(
        rounds=game.rounds, minutes=game.minutes, id=game.id
    )


def cmd_names(args: argparse.Namespace) -> int:
    with _open_store(args) as store:
        if args.merge:
            name, person = args.merge
            store.merge_name(name, person)
            print(_("{name} now counts as {person}.").format(name=name, person=person))
        elif args.unmerge:
            store.unmerge_name(args.unmerge)
            print(_("{name} counts as itself again.").format(name=args.unmerge))
        aliases = store.aliases()
    for name, person in aliases.items():
        print(printable(_("{name} counts as {person}").format(name=name, person=person)))
    return EXIT_OK


def cmd_bench(args: argparse.Namespace) -> int:
    from . import bench

    return bench.main(quick=args.quick)


def _optional(module: str, args: argparse.Namespace, failure: str) -> int:
    """Run ``module.run(args)``; the module is imported by name, so that the core loads
    without the UI (Kivy) or the hardware (pyserial, gpiozero)."""
    try:
        part = importlib.import_module(module)
    except ImportError as err:
        print(failure.format(reason=err), file=sys.stderr)
        return EXIT_MALFORMED
    code: int = part.run(args)
    return code


def cmd_app(args: argparse.Namespace) -> int:
    failure = _(
        "The touchscreen app cannot start: {reason}. Install it with the first command "
        "of README.md."
    )
    return _optional("ui.app", args, failure)


def cmd_rfid(args: argparse.Namespace) -> int:
    failure = _(
        "The RFID tools cannot start: {reason}. Install them with the first command of README.md."
    )
    return _optional("hardware.cli", args, failure)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="splendor-companion",
        description="A companion for a physical game of Splendor. With no command: the app.",
    )
    parser.add_argument("--lang", choices=i18n.LANGUAGES, help="language of messages")
    parser.add_argument("--fullscreen", action="store_true", help="app: fill the screen")
    parser.add_argument("--size", help="app: window size, like 800x480")
    parser.add_argument("--demo", action="store_true", help="app: open a game in progress")
    parser.add_argument("--data-dir", help="where games are kept (or SPLENDOR_DATA_DIR)")
    parser.set_defaults(func=cmd_app)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("replay", help="check a game record and show its result")
    p.add_argument("file", help="a game record (JSON)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("simulate", help="play a random legal game and write its record")
    p.add_argument("--players", type=int, choices=(2, 3, 4), help="players (default 2)")
    p.add_argument("--seats", type=_seat_levels, help="companions' levels, one per seat: hard,easy")
    p.add_argument(
        "--think",
        type=float,
        default=1.0,
        help="with --seats: the hard level's budget per decision, in seconds on a Raspberry "
        "Pi 4 (a number of playouts: the same seed gives the same game on any machine)",
    )
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", help="file to write (default: standard output)")
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser("games", help="list the stored games")
    p.set_defaults(func=cmd_games)

    p = sub.add_parser("export", help="export a game (or all finished games)")
    p.add_argument("game", nargs="?", type=int, help="the game's number, from 'games'")
    p.add_argument("--format", choices=FORMATS, default="json")
    p.add_argument("--out", help="file to write (default: standard output)")
    p.add_argument("--all", action="store_true", help="every finished game, in every format")
    p.add_argument("--to", help="with --all: the folder to write into")
    p.set_defaults(func=cmd_export)

    p = sub.add_parser("import", help="check a game record and store it")
    p.add_argument("file")
    p.set_defaults(func=cmd_import)

    p = sub.add_parser("stats", help="statistics per player across finished games")
    p.add_argument("--vs", nargs=2, metavar="NAME", help="two players head to head")
    p.set_defaults(func=cmd_stats)

    p = sub.add_parser("names", help="the names merged as one person (and merge or split them)")
    p.add_argument("--merge", nargs=2, metavar=("NAME", "INTO"), help="count NAME as INTO")
    p.add_argument("--unmerge", metavar="NAME", help="count NAME as itself again")
    p.set_defaults(func=cmd_names)

    p = sub.add_parser("bench", help="measure the engine's speed")
    p.add_argument("--quick", action="store_true", help="a short run")
    p.set_defaults(func=cmd_bench)

    try:  # the hardware registers its own command (its reader kinds)
        from hardware.cli import register as register_rfid
    except ImportError:
        pass
    else:
        register_rfid(sub, cmd_rfid)
    return parser


def _output_failed(err: OSError) -> int:
    """Standard output cannot be written (``> /dev/full``): say so on standard error, and
    keep Python from failing again on the same buffered text at exit."""
    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(devnull, sys.stdout.fileno())
        finally:
            os.close(devnull)
    with contextlib.suppress(OSError, ValueError):
        print(
            _("cannot write the output: {reason}").format(reason=err.strerror or err),
            file=sys.stderr,
        )
    return EXIT_MALFORMED


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.lang:
        i18n.set_language(args.lang)
    try:
        code: int = args.func(args)
        if sys.stdout is not None:  # None: started with standard output closed
            sys.stdout.flush()  # here, where a failure can still be said and counted
    except (CompanionError, RecordError) as err:
        print(printable(err.message), file=sys.stderr)
        return EXIT_MALFORMED
    except BrokenPipeError:
        # The reader went away (``| head``): not an error of ours, and nothing to say.
        sys.stderr.close()
        return EXIT_OK
    except OSError as err:
        if err.filename is None:
            return _output_failed(err)
        return _fail(
            _("Cannot write {file}: {reason}").format(file=err.filename, reason=err.strerror or err)
        )
    return code


if __name__ == "__main__":
    sys.exit(main())
