"""The ``splendor-companion`` command: the app with no arguments, tools as subcommands."""

from __future__ import annotations

import argparse
import contextlib
import difflib
import json
import os
import random
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from . import i18n
from .arguments import (
    THINK_RANGE,
    Formatter,
    add_common,
    common_options,
    in_language,
    language_in,
    think_seconds,
)
from .engine.simulate import simulate
from .errors import CompanionError, FileUnread, RecordError
from .files import OUT_ELSEWHERE, write_atomic
from .i18n import _, ngettext, number, os_reason, percent
from .interrupt import stopped
from .journal.seats import seat_titles
from .journal.store import GameInfo, GameState, Store, StoreError, resolve
from .paths import DATA_DIR_VARIABLE, DATABASE_NAME, database_path
from .records.playtime import local_time
from .records.record import Record, Replay, load, malformed_summary, replay, summary, write
from .reports.export import (
    FORMAT,
    FORMATS,
    ExportAll,
    export_all,
    export_file,
    export_game,
    render,
    verdict,
)
from .reports.stats import (
    PlayedGame,
    PlayerStats,
    head_to_head,
    level_words,
    people_and_levels,
    played_games,
)
from .text import normal_name, printable
from .version import __version__

EXIT_OK, EXIT_ILLEGAL, EXIT_MALFORMED = 0, 1, 2
THINK_DEFAULT = 1.0  # simulate --think: seconds of a Pi 4 per decision of the hard level


def replay_text(result: Replay) -> str:
    """The human-readable replay summary, in the current language."""
    game = result.game
    lines = [
        _("Players: {players}").format(players=", ".join(game.names)),
    ]
    n = result.moves_applied
    if result.error is not None:
        move = result.error_move
        lines.append(
            _("Move {n} is illegal: {reason} [{code}]").format(
                n=move, reason=result.error.message, code=result.error.code.value
            )
        )
        if n == 0:
            lines.append(_("It is the first move: no move before it was played."))
        else:
            lines.append(
                ngettext(
                    "The {n} move before it is legal.", "The {n} moves before it are legal.", n
                ).format(n=number(n))
            )
    elif n == 0:
        # "All 0 moves are legal" (French "0 coup valide") reads as a failure: say there is none.
        lines.append(_("No move yet."))
    else:
        lines.append(
            ngettext("The {n} move is legal.", "All {n} moves are legal.", n).format(n=number(n))
        )
    lines.extend(verdict(game))
    return "\n".join(lines)


def not_a_record(file: str, err: RecordError) -> str:
    """Why ``file`` was not read as a record: a file that cannot be read at all (it does
    not exist...) said as such, never as a record that is wrong."""
    if isinstance(err, FileUnread):
        return err.message
    return _("{file} is not a valid game record: {reason}").format(file=file, reason=err.message)


def cmd_replay(args: argparse.Namespace) -> int:
    try:
        record = load(args.file)
    except RecordError as err:
        if args.json:
            print(json.dumps(malformed_summary(err), ensure_ascii=False, allow_nan=False))
        else:
            print(not_a_record(args.file, err), file=sys.stderr)
        return EXIT_MALFORMED
    result = replay(record)
    if args.json:
        print(json.dumps(summary(result), ensure_ascii=False, allow_nan=False))
    else:
        print(replay_text(result))
    return EXIT_OK if result.valid else EXIT_ILLEGAL


def _seat_levels(text: str) -> list[str]:
    from .journal.seats import LEVELS

    levels = [w.strip().lower() for w in text.split(",")]
    if not 2 <= len(levels) <= 4 or any(level not in LEVELS for level in levels):
        raise argparse.ArgumentTypeError(
            _(
                "write 2 to 4 levels separated by commas ({levels}), like hard,easy; not {text}"
            ).format(levels=", ".join(LEVELS), text=text)
        )
    return levels


def cmd_simulate(args: argparse.Namespace) -> int:
    # Without --seed a new game each time; the seed is said so that it can be played again.
    seed = args.seed if args.seed is not None else random.randrange(1_000_000)
    app: dict[str, object] = {"name": "splendor-companion simulate", "seed": seed}
    if args.think is not None and args.seats is None:
        # The random game of simulate thinks about nothing: the budget would be dropped.
        return _fail(
            _("--think is for the companions of --seats: give --seats too, like hard,easy")
        )
    think = THINK_DEFAULT if args.think is None else args.think
    if args.seats is not None:
        from .coach.play import play_levels

        if args.players is not None and args.players != len(args.seats):
            return _fail(
                _("--players {n} does not match the {seats} seats of --seats").format(
                    n=args.players, seats=len(args.seats)
                )
            )
        game, seats = play_levels(args.seats, seed=seed, think=think)
        app.update(seats=seats, think=think)
    else:
        game = simulate(players=args.players or 2, seed=seed)
    text = write(Record.of(game, app=app))
    if args.out:
        try:
            write_atomic(Path(args.out), text, advice=OUT_ELSEWHERE, streams=True)
        except OSError as err:
            return _fail(
                _("Cannot write {file}: {reason}").format(file=args.out, reason=os_reason(err))
            )
        where = args.out
    else:
        sys.stdout.write(text)
        sys.stdout.flush()  # written before it is said to be (a full output fails here)
        where = _("standard output")
    moves = len(game.moves)
    print(
        ngettext(
            "Seed {seed}: a {players}-player game of {n} move written to {where}.",
            "Seed {seed}: a {players}-player game of {n} moves written to {where}.",
            moves,
        ).format(seed=seed, players=len(game.names), n=moves, where=where),
        file=sys.stderr,
    )
    return EXIT_OK


def data_folder(args: argparse.Namespace, writes: bool) -> None:
    """Check the folder ``--data-dir`` names before the journal is opened there: a typo
    must not become a new, empty store ("No games yet."). A folder that does not exist is
    made only for a command that stores something, which says so; otherwise refused with
    the hint. A file is refused as such (the journal's own file: its folder is meant)."""
    if not args.data_dir:
        # The environment's or the default folder: made when first needed, as ever; but
        # a file there would be opened as no journal at all (serve would start, empty).
        named = os.environ.get(DATA_DIR_VARIABLE)
        if named and os.path.lexists(named) and not os.path.isdir(named):
            raise StoreError(
                "{variable} names {folder}, a file, not a folder: set it to the folder that "
                "holds the games (games.sqlite3)",
                variable=DATA_DIR_VARIABLE,
                folder=named,
            )
        return
    folder = Path(os.environ.get(DATA_DIR_VARIABLE) or args.data_dir)
    if folder.is_dir():
        return
    if os.path.lexists(folder):
        hint = (
            _("give the folder that holds it: --data-dir {folder}").format(folder=folder.parent)
            if folder.name == DATABASE_NAME
            else _("give the folder that holds the games (games.sqlite3)")
        )
        raise StoreError(
            "--data-dir {folder} is a file, not a folder: {hint}", folder=str(folder), hint=hint
        )
    if not writes:
        raise StoreError(
            "there is no folder {folder}: check --data-dir for a typo (a command that stores "
            "a game or a name, like import, makes a new one)",
            folder=str(folder),
        )
    try:
        folder.mkdir(parents=True)
    except (OSError, ValueError) as err:
        raise StoreError(
            "cannot create the folder {folder}: {reason}", folder=str(folder), reason=os_reason(err)
        ) from None
    print(_("Made the data folder {folder}.").format(folder=folder), file=sys.stderr)


def _open_store(args: argparse.Namespace, reader: bool = False) -> Store:
    """The journal; a ``reader`` reads it even while the app has it (changing nothing)."""
    data_folder(args, writes=not reader)
    store = Store(database_path(args.data_dir), reader=reader)
    for notice in store.notices:
        print(notice, file=sys.stderr)
    return store


def unknown_language(value: str) -> str:
    """What ``SPLENDOR_LANG`` set to a language the companion does not speak is told."""
    return printable(
        _(
            "SPLENDOR_LANG={value} is not a language of the companion; {language} is used. "
            "Set it to one of {choices}."
        ).format(
            value=value,
            language=i18n.language_name(i18n.language()),
            choices=", ".join(i18n.LANGUAGES),
        )
    )


def _fail(message: str) -> int:
    print(message, file=sys.stderr)
    return EXIT_MALFORMED


def _left_out(errors: Sequence[CompanionError], said: str) -> int:
    """Each damaged game on a line of its own (standard error), with what was done about
    it; exit 2 when there was one, though every other game was listed or counted."""
    for err in errors:
        print(printable(f"{err.message}. {said}"), file=sys.stderr)
    return EXIT_MALFORMED if errors else EXIT_OK


def started_text(info: GameInfo) -> str:
    """When a game started, in local time as every output shows it; for a game imported
    from a record that gives no start, when it was imported, said as such."""
    at = local_time(info.started_at) or printable(info.started_at)
    return _("imported {date}").format(date=at) if info.undated else at


def cmd_games(args: argparse.Namespace) -> int:
    with _open_store(args, reader=True) as store:
        games = store.games()
        if not games:
            print(_("No games yet."))
            return EXIT_OK
        rows = [
            (  # names come from strangers: no control character reaches the terminal
                str(info.id),
                started_text(info),
                printable(", ".join(seat_titles(info.players, info.levels))) or "?",
                printable(", ".join(info.winners)) or "-",
                _(info.state) if info.problem is None else _("damaged"),
                number(info.moves),
            )
            for info in games
        ]
    header = (_("Game"), _("Started"), _("Players"), _("Winner"), _("State"), _("Moves"))
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    for row in [header, *rows]:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip())
    damaged = [info.problem for info in games if info.problem is not None]
    return _left_out(
        damaged, _("It is kept in the journal as it is; exports and statistics leave it out.")
    )


def _export_refusal(args: argparse.Namespace) -> str | None:
    """Why these export options do not go together, or ``None``."""
    if args.all and args.game is not None:
        return _("give a game's number or --all, not both")
    if args.all and args.out:
        return _("--all writes one file per game and format: give --to FOLDER, not --out")
    if args.out and args.to:
        return _("give --out FILE or --to FOLDER, not both")
    if args.all and not args.to:
        return _("export --all needs --to FOLDER (a USB stick, say)")
    if not args.all and args.game is None:
        return _("name the game to export (see 'splendor-companion games'), or --all")
    if args.out and Path(args.out).is_dir() and not Path(args.out).is_symlink():
        return _(
            "--out takes a file, and {path} is a folder: give --to {path} to write the "
            "game into it (one file per format)"
        ).format(path=printable(args.out))
    if args.to and _file_name(Path(args.to)):
        return _(
            "--to takes a folder, and {path} is a file: give --out {path} to write one file"
        ).format(path=printable(args.to))
    return None


def _file_name(path: Path) -> bool:
    """``--to g3.csv``: a file there already, or the name of an export file (which would
    become a folder of that name)."""
    if path.exists() or path.is_symlink():
        return not path.is_dir()
    return path.name.lower().endswith(tuple("." + FORMAT[f].suffix for f in FORMATS))


def files_text(n: int) -> str:
    return ngettext("{n} file", "{n} files", n).format(n=n)


def _said_failures(done: ExportAll) -> int:
    """Each game not read (left out, and kept) and each file refused, a line each: exit 2
    if there is one."""
    left_out = _left_out(done.skipped, _("It is left out, and kept in the journal as it is."))
    for err in done.refused:
        print(printable(err.message), file=sys.stderr)
    return EXIT_MALFORMED if left_out or done.refused else EXIT_OK


def cmd_export(args: argparse.Namespace) -> int:
    refusal = _export_refusal(args)
    if refusal:
        return _fail(refusal)
    # Into a folder: the format asked for, else every one; a file or the screen: json.
    formats = (args.format,) if args.format else FORMATS
    with _open_store(args, reader=True) as store:
        if args.all:
            done = export_all(store, Path(args.to), formats)
            print(
                ngettext(
                    "{games} finished game exported: {files} in {folder}",
                    "{games} finished games exported: {files} in {folder}",
                    done.games,
                ).format(games=done.games, files=files_text(len(done.written)), folder=args.to)
            )
            return _said_failures(done)
        info = store.info(args.game)
        if not info.finished and "bgstats" in formats:
            # BG Stats keeps one play per game (its sourcePlayId): a play pushed before the
            # end would be replaced by the finished one, or replace it if pushed after.
            unfinished = _("game {id} is not over: BG Stats takes a game once it is finished")
            if args.format == "bgstats":
                return _fail(
                    unfinished.format(id=info.id)
                    + "; "
                    + _("export it in another format (json, csv, txt)")
                )
            print(unfinished.format(id=info.id) + ".", file=sys.stderr)
            formats = tuple(f for f in formats if f != "bgstats")
        if args.to:
            done = export_game(store, info, Path(args.to), formats)
            for path in done.written:
                said = _("Already there, the same: {file}") if path in done.unchanged else None
                print(printable((said or _("Written: {file}")).format(file=path)))
            return _said_failures(done)
        fmt = args.format or "json"
        record = store.record(args.game, with_journal=True)
        aliases = store.aliases()

        def person(name: str) -> str:
            return resolve(aliases, name)

        if args.out:
            export_file(record, fmt, Path(args.out), person)
            print(printable(_("Written: {file}").format(file=args.out)), file=sys.stderr)
        else:
            sys.stdout.write(render(record, fmt, person))
    return EXIT_OK


def cmd_import(args: argparse.Namespace) -> int:
    try:
        record = load(args.file)
    except RecordError as err:
        return _fail(not_a_record(args.file, err))
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


def _count(value: float) -> int:
    """The count that picks a plural form for a number that may have decimals."""
    return int(value) if float(value).is_integer() else 2


def _games(n: int) -> str:
    return ngettext("{n} game", "{n} games", n).format(n=number(n))


def _average(singular: str, plural: str, value: float) -> str:
    return ngettext(singular, plural, _count(round(value, 1))).format(n=number(value, 1))


def cmd_stats(args: argparse.Namespace) -> int:
    unreadable: list[StoreError] = []
    with _open_store(args, reader=True) as store:
        games = played_games(store, unreadable=unreadable)
        aliases = store.aliases()
    if args.vs:
        # Typed as stored, and as the person a merged spelling counts as.
        args.vs = [resolve(aliases, normal_name(n)) for n in args.vs]
        refusal = _vs_refusal(args.vs, games)
        if refusal:
            return _fail(refusal)
    code = _print_stats(args, games)
    left_out = _left_out(unreadable, _("It is left out, and kept in the journal as it is."))
    return code or left_out


def _vs_refusal(names: Sequence[str], games: list[PlayedGame]) -> str | None:
    """Why ``stats --vs`` cannot compare these two, or ``None``: one person twice, or a
    name that played no finished game (its zeros would read as results)."""
    a, b = names
    if a == b:
        return _("--vs compares two players: give two different names, not {name} twice").format(
            name=printable(a)
        )
    played = {p for g in games for s, p in enumerate(g.players) if not g.is_companion(s)}
    missing = [n for n in names if n not in played]
    if missing:
        return ngettext(
            "{names} played no finished game (the names are in 'splendor-companion stats')",
            "{names} played no finished game (the names are in 'splendor-companion stats')",
            len(missing),
        ).format(names=printable(", ".join(missing)))
    return None


def _print_stats(args: argparse.Namespace, games: list[PlayedGame]) -> int:
    if args.vs:
        a, b = args.vs
        h = head_to_head(games, a, b)
        print(
            _(
                "{a} against {b}: {games} together; {a} ahead {a_ahead}, {b} ahead "
                "{b_ahead}, tied {level}; wins {a_wins} to {b_wins}; {a_points} to "
                "{b_points} on average"
            ).format(
                a=a,
                b=b,
                games=_games(h.games),
                a_ahead=number(h.a_ahead),
                b_ahead=number(h.b_ahead),
                level=number(h.level),
                a_wins=number(h.a_wins),
                b_wins=number(h.b_wins),
                a_points=number(h.a_points, 1),
                b_points=_average("{n} point", "{n} points", h.b_points),
            )
        )
        return EXIT_OK
    # Games against the companion are counted apart, level by level as the statistics
    # screen shows them: each level's line, then each person's line at that level. The
    # companion's seats are never a person's line, under any name.
    lines, levels = people_and_levels(games)
    if not lines and not levels:
        print(_("No finished games yet."))
    for s in lines:
        print("\n".join(_player_lines(s)))
    if levels:
        print(_("Against the companion:"))
    for level in levels:
        print(level_words(level))
        for s in level.players:
            print("\n".join("  " + line for line in _player_lines(s)))
    return EXIT_OK


def _player_lines(s: PlayerStats) -> list[str]:
    """A person's figures, and their fastest win on a line of its own."""
    colour = _(s.favourite_bonus.key) if s.favourite_bonus is not None else "-"
    said = [
        _(
            "{name}: {games}, {wins} ({rate}), {points} and {rounds} on average, "
            "favourite bonus {colour}"
        ).format(
            name=s.name,
            games=_games(s.games),
            wins=ngettext("{n} win", "{n} wins", s.wins).format(n=number(s.wins)),
            rate=percent(s.win_rate),
            points=_average("{n} point", "{n} points", s.average_points),
            rounds=_average("{n} round", "{n} rounds", s.average_rounds),
            colour=colour,
        )
    ]
    if s.fastest_win is not None:
        said.append("  " + fastest_text(s.fastest_win))
    return said


def fastest_text(game: PlayedGame) -> str:
    """``Fastest win: 12 rounds (34 min), game 7 (2026-11-21)``: the number and the date
    that ``games`` shows."""
    rounds = ngettext("{n} round", "{n} rounds", game.rounds).format(n=number(game.rounds))
    day = (local_time(game.started_at) or printable(game.started_at))[:10]
    if game.undated:
        day = _("imported {date}").format(date=day)
    if game.minutes is None:
        return _("Fastest win: {rounds}, game {id} ({date})").format(
            rounds=rounds, id=game.id, date=day
        )
    return _("Fastest win: {rounds} ({minutes} min), game {id} ({date})").format(
        rounds=rounds, minutes=number(game.minutes), id=game.id, date=day
    )


def never_played(name: str, played: set[str]) -> str:
    """A name no stored game has: a typo, most likely; the nearest name that played."""
    near = difflib.get_close_matches(name, sorted(played), n=1, cutoff=0.6)
    if near:
        return _("{name} never played a stored game: did you mean {near}?").format(
            name=printable(name), near=printable(near[0])
        )
    return _("{name} never played a stored game: nothing to merge").format(name=printable(name))


def cmd_names(args: argparse.Namespace) -> int:
    if args.merge and args.unmerge:
        return _fail(_("give --merge or --unmerge, not both: one change at a time"))
    with _open_store(args, reader=not (args.merge or args.unmerge)) as store:
        # Typed names, compared with the stored ones: in the form names are stored in.
        if args.merge:
            name, person = (normal_name(n) for n in args.merge)
            played = {p for info in store.games() for p in info.players}
            for typed in (name, person):
                if typed not in played and typed not in store.aliases().values():
                    return _fail(never_played(typed, played))
            store.merge_name(name, person)
            print(_("{name} now counts as {person}.").format(name=name, person=person))
        elif args.unmerge:
            name = normal_name(args.unmerge)
            aliases = store.aliases()
            # As `names` shows a merge, "ada counts as Ada": either name undoes it.
            spellings = [name] if name in aliases else [a for a, p in aliases.items() if p == name]
            if not spellings:
                return _fail(
                    _("{name} is not merged with another name: nothing to undo").format(
                        name=printable(name)
                    )
                )
            for spelling in spellings:
                store.unmerge_name(spelling)
                print(_("{name} counts as itself again.").format(name=spelling))
        aliases = store.aliases()
    if not aliases:
        print(_("No names are merged."))
    for name, person in aliases.items():
        print(printable(_("{name} counts as {person}").format(name=name, person=person)))
    return EXIT_OK


def _review_record(args: argparse.Namespace) -> tuple[Record, dict[str, object] | None]:
    """The record to review: a file, else a game of the journal by its number; and the
    review the journal keeps for it, if any."""
    from .coach.review import VERSION
    from .records.record import fingerprint

    given = args.record
    if not given.isdigit() or os.path.lexists(given):
        return load(given), None
    with _open_store(args, reader=True) as store:
        record = store.record(int(given))
        return record, store.stored_review(int(given), VERSION, fingerprint(record))


def _progress(done: int, total: int) -> None:
    """The review's progress on a terminal's standard error, on one line."""
    end = "\n" if done == total else ""
    print(
        "\r" + _("Reviewing: move {n} of {total}").format(n=done, total=total),
        end=end,
        file=sys.stderr,
        flush=True,
    )


def _checking(done: int, total: int) -> None:
    """The deeper search's checks of the costliest moves, on the line after the moves'."""
    end = "\n" if done == total else ""
    print(
        "\r"
        + _("Checking the costliest moves with a deeper search: {n} of {total}").format(
            n=done, total=total
        ),
        end=end,
        file=sys.stderr,
        flush=True,
    )


def cmd_review(args: argparse.Namespace) -> int:
    from .coach.review import Review, review, summary, text_lines
    from .journal.seats import companion_levels, seat_titles

    try:
        record, stored = _review_record(args)
    except RecordError as err:
        return _fail(not_a_record(args.record, err))
    # Judged first, as replay and import do: a record with an illegal move is refused, not
    # reviewed up to it ("0 moves reviewed" read as a clean game).
    # Exit 1, as replay and import say an illegal move (2 is a file that is no record).
    judged = replay(record)
    if judged.error is not None:
        print(
            _("{file} cannot be reviewed: move {n} is illegal: {reason} [{code}]").format(
                file=args.record,
                n=judged.error_move,
                reason=judged.error.message,
                code=judged.error.code.value,
            ),
            file=sys.stderr,
        )
        return EXIT_ILLEGAL
    done = None
    if stored is not None and args.playouts is None and args.seed == 0:
        with contextlib.suppress(ValueError):  # kept by an older companion: computed again
            done = Review.from_document(stored)
    if done is None:
        tty = sys.stderr is not None and sys.stderr.isatty()
        done = review(
            record,
            args.playouts,
            args.seed,
            progress=_progress if tty else None,
            checking=_checking if tty else None,
        )
    levels = companion_levels(record.extra, len(record.players))
    if args.json:
        doc = summary(record, done, levels)
        print(json.dumps(doc, ensure_ascii=False, allow_nan=False))
    else:
        titles = seat_titles(record.players, record.extra)
        print("\n".join(printable(line) for line in text_lines(record, done, titles, levels)))
    return EXIT_OK


def _playouts(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if not 1 <= value <= 100_000:
        raise argparse.ArgumentTypeError(
            _("{value} is not a number of playouts: give a whole number from 1 to 100000").format(
                value=text
            )
        )
    return value


def cmd_bench(args: argparse.Namespace) -> int:
    from . import bench

    return bench.main(quick=args.quick, base=args.baseline)


def command(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], name: str, text: str
) -> argparse.ArgumentParser:
    """A command's parser: its help, the defaults shown, the common options after it."""
    p = sub.add_parser(name, help=text, description=text, formatter_class=Formatter)
    add_common(p, top=False)
    return p


# A part above the core adds its options and commands to the program (the app, the
# hardware: see ``splendor_companion.program``); the core never imports them.
Extension = Callable[
    [argparse.ArgumentParser, "argparse._SubParsersAction[argparse.ArgumentParser]"], None
]


def no_such_command(name: str, commands: Sequence[str]) -> str:
    """An unknown command named, with the nearest one ("did you mean games?") when a typo
    explains it, else the list of commands."""
    near = difflib.get_close_matches(name, commands, n=1, cutoff=0.6)
    if near:
        return _("there is no command {name}: did you mean {command}?").format(
            name=printable(name), command=near[0]
        )
    return _("there is no command {name}; the commands: {commands}").format(
        name=printable(name), commands=", ".join(commands)
    )


def no_such_choice(value: str, choices: Sequence[str]) -> str | None:
    """A word that is not one of an option's choices, with the nearest ("did you mean
    enroll?") when a typo explains it; None when none is near (argparse lists them)."""
    near = difflib.get_close_matches(value, choices, n=1, cutoff=0.6)
    if not near:
        return None
    return _("{value} is not one of the choices: did you mean {near}?").format(
        value=printable(value), near=near[0]
    )


def no_such_options(extras: Sequence[str], known: Sequence[str]) -> str:
    """Words the command does not take; an option mistyped gets the nearest of the
    command's own ("--mrege: did you mean --merge?")."""
    for word in extras:
        name = word.split("=", 1)[0]
        if name.startswith("--"):
            near = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
            if near:
                return _("there is no option {option}: did you mean {near}?").format(
                    option=printable(name), near=near[0]
                )
    return _("unrecognized arguments: %s") % printable(" ".join(extras))


class Program(argparse.ArgumentParser):
    """The program's parser, and each command's: a mistyped command, action, choice or
    option gets the nearest one, not argparse's list of every choice."""

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        choices = action.choices
        if choices is not None and isinstance(value, str) and value not in choices:
            if isinstance(action, argparse._SubParsersAction):
                raise argparse.ArgumentError(None, no_such_command(value, list(choices)))
            words = [c for c in choices if isinstance(c, str)]
            said = no_such_choice(value, words)
            if said is not None:
                raise argparse.ArgumentError(action, said)
        super()._check_value(action, value)

    def parse_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> argparse.Namespace:
        parsed, extras = self.parse_known_args(args, namespace)
        if extras:
            parser, known = self._chosen(parsed)
            parser.error(no_such_options(extras, known))
        return parsed

    def _chosen(self, parsed: argparse.Namespace) -> tuple[argparse.ArgumentParser, list[str]]:
        """The parser of the command (and action) chosen, and every option it and the
        parsers above it take."""
        parser: argparse.ArgumentParser = self
        known: list[str] = []
        while True:
            known += [o for a in parser._actions for o in a.option_strings if o.startswith("--")]
            below = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
            name = getattr(parsed, below[0].dest, None) if below and below[0].dest else None
            if not below or name not in below[0].choices:
                return parser, known
            parser = below[0].choices[name]


def build_parser(extensions: Sequence[Extension] = ()) -> argparse.ArgumentParser:
    """The command line, in the current language: the core's commands, then each
    extension's. With no command and no extension that takes it, the help."""
    parser = Program(
        prog="splendor-companion",
        description=_("A companion for a physical game of Splendor. With no command: the app."),
        formatter_class=Formatter,
    )
    add_common(parser, top=True)
    parser.add_argument(
        "--version",
        action="version",
        version=f"%(prog)s {__version__}",  # the installed package's own (its metadata)
        help=_("show the program's version and exit"),
    )
    parser.set_defaults(func=lambda args: _usage(parser))
    # Each command's parser is a Program too (as are its actions' below it), so a typo
    # anywhere gets the nearest word; the extensions see argparse's own type.
    sub: argparse._SubParsersAction[argparse.ArgumentParser] = parser.add_subparsers(
        dest="command",
        metavar=_("COMMAND"),
        title=_("commands"),
        parser_class=Program,
    )

    p = command(sub, "replay", _("check a game record and show its result"))
    p.add_argument("file", metavar=_("FILE"), help=_("a game record (JSON)"))
    p.add_argument("--json", action="store_true", help=_("print one JSON object"))
    p.set_defaults(func=cmd_replay)

    p = command(sub, "simulate", _("play a random legal game and write its record"))
    # No default value, so that --seats alone says how many play; the help says 2 all the same.
    players_help = _("how many play") + " (" + _("default: {value}").format(value=2) + ")"
    p.add_argument("--players", type=int, choices=(2, 3, 4), help=players_help)
    p.add_argument(
        "--seats", type=_seat_levels, help=_("companions' levels, one per seat: hard,easy")
    )
    p.add_argument(
        "--think",
        type=think_seconds,
        # No default value, so that --think without --seats is refused; the help says it.
        help=_(
            "with --seats: the hard level's budget per decision, in seconds on a Raspberry Pi 4 "
            "(a number of playouts: the same seed gives the same game on any machine)"
        )
        + "; "
        + _("from {low} to {high} seconds").format(
            low=number(THINK_RANGE[0], 2), high=number(THINK_RANGE[1])
        )
        + " ("
        + _("default: {value}").format(value=number(THINK_DEFAULT, 1))
        + ")",
    )
    p.add_argument(
        "--seed", type=int, help=_("the same seed plays the same game (default: a new one)")
    )
    p.add_argument("--out", metavar=_("FILE"), help=_("file to write (default: standard output)"))
    p.set_defaults(func=cmd_simulate)

    p = command(sub, "games", _("list the stored games"))
    p.set_defaults(func=cmd_games)

    p = command(sub, "export", _("export a game (or all finished games)"))
    p.add_argument(
        "game", nargs="?", type=int, metavar=_("GAME"), help=_("the game's number, from 'games'")
    )
    p.add_argument(
        "--format",
        choices=FORMATS,
        help=_("the format (default: json to a file or the screen, every format into --to)"),
    )
    p.add_argument("--out", metavar=_("FILE"), help=_("file to write (default: standard output)"))
    p.add_argument("--all", action="store_true", help=_("every finished game (needs --to)"))
    p.add_argument(
        "--to", metavar=_("FOLDER"), help=_("the folder to write into, one file per format")
    )
    p.set_defaults(func=cmd_export)

    p = command(sub, "import", _("check a game record and store it"))
    p.add_argument("file", metavar=_("FILE"), help=_("a game record (JSON)"))
    p.set_defaults(func=cmd_import)

    p = command(sub, "stats", _("statistics per player across finished games"))
    p.add_argument("--vs", nargs=2, metavar=_("NAME"), help=_("two players head to head"))
    p.set_defaults(func=cmd_stats)

    p = command(sub, "names", _("the names merged as one person (and merge or split them)"))
    p.add_argument("--merge", nargs=2, metavar=(_("NAME"), _("INTO")), help=_("count NAME as INTO"))
    p.add_argument("--unmerge", metavar=_("NAME"), help=_("count NAME as itself again"))
    p.set_defaults(func=cmd_names)

    from .coach.review import default_playouts

    p = command(sub, "review", _("review a game: each person's costliest moves, and why"))
    p.add_argument(
        "record",
        metavar=_("RECORD"),
        help=_("a game record (JSON), or a game's number from 'games'"),
    )
    p.add_argument("--json", action="store_true", help=_("print one JSON object"))
    p.add_argument(
        "--playouts",
        type=_playouts,
        help=_(
            "playouts a move (default: {n}, under half a minute for a 60-move game on a "
            "Raspberry Pi 4)"
        ).format(n=default_playouts()),
    )
    p.add_argument("--seed", type=int, default=0, help=_("the same seed gives the same review"))
    p.set_defaults(func=cmd_review)

    p = command(sub, "bench", _("measure the engine's speed"))
    p.add_argument("--quick", action="store_true", help=_("a short run"))
    p.add_argument(
        "--baseline",
        metavar="REF",
        help=_("compare with the engine of this git commit, built beside it, in the same run"),
    )
    p.set_defaults(func=cmd_bench)

    from .club.commands import add_commands

    add_commands(sub, command)

    for extend in extensions:
        extend(parser, sub)

    # Last, so that it knows every command (the extensions' too).
    p = command(sub, "help", _("show the help of the program or of a command"))
    p.add_argument("topic", nargs="?", metavar=_("COMMAND"), help=_("the command to explain"))
    p.set_defaults(func=lambda args: _help(parser, sub, args.topic))
    return parser


def _help(
    parser: argparse.ArgumentParser,
    sub: argparse._SubParsersAction[argparse.ArgumentParser],
    topic: str | None,
) -> int:
    """``help [COMMAND]``: what ``--help`` prints, on standard output."""
    if topic is None:
        parser.print_help()
        return EXIT_OK
    if topic not in sub.choices:
        return _fail(no_such_command(topic, list(sub.choices)))
    sub.choices[topic].print_help()
    return EXIT_OK


COMMON_DESTS = ("help", "lang", "data_dir")


def _program_only(parser: argparse.ArgumentParser, args: argparse.Namespace) -> str | None:
    """An option of the program itself (the app's ``--size``, ``--demo``...) given with a
    command, which would drop it without a word: the option, or ``None``."""
    if args.command is None:
        return None
    for action in parser._actions:
        if not action.option_strings or action.dest in COMMON_DESTS:
            continue
        if getattr(args, action.dest, None) not in (None, False, action.default):
            return str(action.option_strings[0])
    return None


def _usage(parser: argparse.ArgumentParser) -> int:
    """No command, and no app to run: what the program can do."""
    parser.print_help(sys.stderr)
    return EXIT_MALFORMED


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
            _("cannot write the output: {reason}").format(reason=os_reason(err)),
            file=sys.stderr,
        )
    return EXIT_MALFORMED


def main(argv: Sequence[str] | None = None, extensions: Sequence[Extension] = ()) -> int:
    try:
        return _main(argv, extensions)
    except KeyboardInterrupt:
        # Ctrl-C, wherever it came: files are written whole or not at all (write_atomic),
        # games stored in one transaction; one line, never a traceback.
        return stopped()


def _main(argv: Sequence[str] | None, extensions: Sequence[Extension]) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    # The language first: the parser's help texts are written in it.
    language = language_in(words)
    if language:
        i18n.set_language(language)
    with in_language():
        parser = build_parser(extensions)
        args = parser.parse_args(words)
    with common_options(args), in_language():
        unknown = i18n.unknown_environment_language()
        if unknown is not None and not language:  # --lang given: the variable is not read
            print(unknown_language(unknown), file=sys.stderr)
        dropped = _program_only(parser, args)
        if dropped:
            return _fail(
                _(
                    "{option} is for the app, which runs with no command: "
                    "{command} does not take it"
                ).format(option=dropped, command=args.command)
            )
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
                _("Cannot write {file}: {reason}").format(file=err.filename, reason=os_reason(err))
            )
    return code


if __name__ == "__main__":
    sys.exit(main())
