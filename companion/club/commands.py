"""``splendor-companion club ...``: join a club, push to it, read its league, run a
tournament night (docs/club.md). Nothing here imports psycopg until a command runs."""

from __future__ import annotations

import argparse
import getpass
import sys
from collections.abc import Callable
from typing import Any

from ..i18n import _, ngettext, number
from ..journal.outbox import Outbox
from ..journal.seats import level_word
from ..journal.store import Store, resolve
from ..paths import database_path
from ..records.playtime import local_time
from ..text import normal_name, printable
from . import link, ratings, tournament
from .link import Club, ClubError


def add_commands(sub: Any, command: Callable[[Any, str, str], argparse.ArgumentParser]) -> None:
    """The ``club`` command and its own commands, on the program's parser."""
    club = command(sub, "club", _("the club's league: join it, its standings, a tournament night"))
    club.set_defaults(func=lambda args: _usage(club))
    inner = club.add_subparsers(dest="club_command", metavar=_("COMMAND"))

    p = command(inner, "join", _("join a club: this kiosk's games go to its PostgreSQL"))
    p.add_argument(
        "url",
        metavar="URL",
        help=_("the club's address: a libpq URL (postgresql://...) or a service name"),
    )
    p.add_argument("--name", help=_("this kiosk's name in the club (default: the machine's name)"))
    p.set_defaults(func=cmd_join)

    p = command(inner, "status", _("the club this kiosk joined, and the games waiting for it"))
    p.set_defaults(func=cmd_status)

    p = command(inner, "leave", _("leave the club (its games stay there, this kiosk's here)"))
    p.set_defaults(func=cmd_leave)

    p = command(inner, "push", _("send the games waiting for the club now"))
    p.set_defaults(func=cmd_push)

    p = command(inner, "standings", _("the club's ratings: every person and companion level"))
    p.add_argument("--person", metavar=_("NAME"), help=_("a person's rating, game by game"))
    p.add_argument("--vs", nargs=2, metavar=_("NAME"), help=_("two players head to head"))
    p.set_defaults(func=cmd_standings)

    p = command(inner, "names", _("the names merged in the club (and merge or split them)"))
    p.add_argument("--merge", nargs=2, metavar=(_("NAME"), _("INTO")), help=_("count NAME as INTO"))
    p.add_argument("--unmerge", metavar=_("NAME"), help=_("count NAME as itself again"))
    p.set_defaults(func=cmd_names)

    p = command(inner, "tournament", _("a tournament night: players, rounds, tables, standings"))
    p.add_argument(
        "action",
        choices=("start", "add", "drop", "pair", "tables", "table", "standings", "end"),
        help=_(
            "start [NAME], add NAME..., drop NAME, pair (the next round), tables, table "
            "(this kiosk's), standings, end"
        ),
    )
    p.add_argument("names", nargs="*", metavar=_("NAME"))
    p.set_defaults(func=cmd_tournament)


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_help(sys.stderr)
    return 2


def _club(args: argparse.Namespace) -> Club:
    found = link.joined(args.data_dir)
    if found is None:
        raise ClubError(
            "this kiosk has joined no club: join one with 'splendor-companion club join URL'",
            code="no-club",
        )
    return found


def cmd_join(args: argparse.Namespace) -> int:
    given = link.conninfo_of(args.url)
    kiosk = normal_name(args.name) if args.name else link.default_kiosk()
    try:
        conn = link.connect(given)
    except ClubError as err:
        # A club that asks a password not given: asked for on a terminal, never echoed.
        if err.code != "club-unreachable" or "password" not in str(err.params.get("reason")):
            raise
        if not sys.stdin.isatty():
            raise
        password = getpass.getpass(_("The club's password for this kiosk: "))
        given = link.keep_password(_with_password(given, password))
        conn = link.connect(given)
    conn.close()
    conninfo = link.keep_password(given)  # the password, if given, to libpq's file
    club = Club(conninfo, kiosk)
    path = link.save(club, args.data_dir)
    journal = database_path(args.data_dir)
    # Made, or brought to the current schema (the outbox); read only while the app has it.
    Store(journal, reader=True).close()
    with Outbox(journal) as outbox:
        outbox.queue_finished()
    print(
        printable(
            _("This kiosk joined the club at {url} as {kiosk} (kept in {path}).").format(
                url=club.shown(), kiosk=kiosk, path=path
            )
        )
    )
    return _push(args, club)


def _with_password(conninfo: str, password: str) -> str:
    psycopg = link.need("psycopg")
    parts = psycopg.conninfo.conninfo_to_dict(conninfo)
    parts["password"] = password
    made: str = psycopg.conninfo.make_conninfo(**parts)
    return made


def _push(args: argparse.Namespace, club: Club) -> int:
    from .push import push_waiting

    done = push_waiting(database_path(args.data_dir), club)
    print(
        _("Sent to the club: {added} new, {known} it had already; {waiting} waiting.").format(
            added=number(done.added), known=number(done.known), waiting=number(done.waiting)
        )
    )
    if done.error is not None:
        print(printable(done.error.message), file=sys.stderr)
        return 2
    return 0


def cmd_push(args: argparse.Namespace) -> int:
    return _push(args, _club(args))


def cmd_status(args: argparse.Namespace) -> int:
    club = link.joined(args.data_dir)
    if club is None:
        print(_("This kiosk has joined no club."))
        return 0
    print(
        printable(_("Club: {url}, this kiosk: {kiosk}").format(url=club.shown(), kiosk=club.kiosk))
    )
    journal = database_path(args.data_dir)
    waiting = []
    if journal.exists():
        with Outbox(journal) as outbox:
            waiting = outbox.waiting()
    print(
        ngettext(
            "{n} game waiting for the club", "{n} games waiting for the club", len(waiting)
        ).format(n=number(len(waiting)))
    )
    last = next((w.last_error for w in waiting if w.last_error), None)
    if last:
        print(printable(_("Last failure: {reason}").format(reason=last)))
    try:
        conn = link.connect(club)
    except ClubError as err:
        print(printable(err.message))
        return 0
    with conn:
        row = conn.execute(
            "SELECT count(*), count(*) FILTER (WHERE kiosk = %s) FROM games", (club.kiosk,)
        ).fetchone()
    assert row is not None
    games, mine = row
    print(
        _("The club has {games}, {mine} of them from this kiosk.").format(
            games=ngettext("{n} game", "{n} games", games).format(n=number(games)),
            mine=number(mine),
        )
    )
    return 0


def cmd_leave(args: argparse.Namespace) -> int:
    club = link.joined(args.data_dir)
    if club is None or not link.forget(args.data_dir):
        print(_("This kiosk has joined no club."))
        return 0
    print(printable(_("This kiosk left the club at {url}.").format(url=club.shown())))
    return 0


def _rating(value: float) -> str:
    return number(value, 1)


def cmd_standings(args: argparse.Namespace) -> int:
    club = _club(args)
    with link.connect(club) as conn:
        ratings.update(conn)  # any reader brings the ratings up to date
        if args.vs:
            m = ratings.head_to_head(conn, *args.vs)
            print(
                printable(
                    _(
                        "{a} against {b}: {games} together; {a} ahead {a_ahead}, {b} ahead "
                        "{b_ahead}; wins {a_wins} to {b_wins}"
                    ).format(
                        a=m.a,
                        b=m.b,
                        games=ngettext("{n} game", "{n} games", m.games).format(n=number(m.games)),
                        a_ahead=number(m.a_ahead),
                        b_ahead=number(m.b_ahead),
                        a_wins=number(m.a_wins),
                        b_wins=number(m.b_wins),
                    )
                )
            )
            return 0
        if args.person:
            aliases = ratings.names_of(conn)
            person = resolve(aliases, normal_name(args.person))
            steps = ratings.history(conn, person)
            if not steps:
                print(printable(_("{name} has no rated game in the club.").format(name=person)))
                return 2
            for step in steps:
                at = local_time(step.at.strftime("%Y-%m-%dT%H:%M:%SZ")) or str(step.at)
                print(printable(f"{at}  {_rating(step.ordinal)}"))
            return 0
        league = ratings.league(conn, latest=0)
    print(
        _("The club: {games} from {kiosks}.").format(
            games=ngettext("{n} game", "{n} games", league.games).format(n=number(league.games)),
            kiosks=ngettext("{n} kiosk", "{n} kiosks", league.kiosks).format(
                n=number(league.kiosks)
            ),
        )
    )
    if not league.people and not league.levels:
        print(_("No rated games yet."))
    for place, r in enumerate(league.people, start=1):
        print(printable(_standing_line(place, r.who, r)))
    if league.levels:
        print(_("The companion:"))
    for place, r in enumerate(league.levels, start=1):
        print(printable(_standing_line(place, level_word(r.who), r)))
    return 0


def _standing_line(place: int, who: str, r: ratings.Rating) -> str:
    games = ngettext("{n} game", "{n} games", r.games).format(n=number(r.games))
    return f"{place:>3}. {who}  {_rating(r.ordinal)}  ({games})"


def cmd_names(args: argparse.Namespace) -> int:
    from . import names

    if args.merge and args.unmerge:
        raise ClubError("give --merge or --unmerge, not both: one change at a time")
    club = _club(args)
    with link.connect(club) as conn:
        if args.merge:
            name, person = (normal_name(n) for n in args.merge)
            target = names.merge(conn, name, person, club.kiosk)
            print(printable(_("{name} now counts as {person}.").format(name=name, person=target)))
        elif args.unmerge:
            if not names.unmerge(conn, args.unmerge):
                raise ClubError(
                    "{name} is not merged with another name: nothing to undo",
                    name=normal_name(args.unmerge),
                )
            print(printable(_("{name} counts as itself again.").format(name=args.unmerge)))
        aliases = ratings.names_of(conn)
        if args.merge or args.unmerge:
            _rate_quietly(conn)
    if not aliases:
        print(_("No names are merged."))
    for name, person in aliases.items():
        print(printable(_("{name} counts as {person}").format(name=name, person=person)))
    return 0


def _rate_quietly(conn: Any) -> None:
    try:
        ratings.update(conn)
    except ClubError as err:
        print(printable(err.message), file=sys.stderr)


def table_words(t: tournament.Table) -> str:
    """``Round 2, table 3: Ada, Ben, Cleo``."""
    return _("Round {round}, table {table}: {players}").format(
        round=t.round, table=t.number, players=", ".join(t.players)
    )


def _result(t: tournament.Table) -> str:
    if t.ranks is None or t.points is None:
        return _("playing")
    return ", ".join(
        f"{r}. {p} ({pts})" for r, p, pts in sorted(zip(t.ranks, t.players, t.points, strict=True))
    )


def cmd_tournament(args: argparse.Namespace) -> int:
    club = _club(args)
    action = args.action
    with link.connect(club) as conn:
        if action == "start":
            name = " ".join(args.names) or tournament.night_name()
            found = tournament.start(conn, name)
            print(printable(_("Tournament {name} started.").format(name=found.name)))
        elif action == "add":
            if not args.names:
                raise ClubError("name the players to add: club tournament add Ada Ben Cleo")
            present = tournament.register(conn, args.names)
            print(printable(_("Players: {players}").format(players=", ".join(present))))
        elif action == "drop":
            for name in args.names:
                if not tournament.drop(conn, name):
                    raise ClubError("{name} is not in the tournament", name=normal_name(name))
            print(_("Done."))
        elif action == "pair":
            for t in tournament.pair(conn):
                print(printable(table_words(t)))
        elif action == "tables":
            for t in tournament.tables(conn):
                print(printable(f"{table_words(t)}  [{_result(t)}]"))
        elif action == "table":
            mine = tournament.my_table(conn, club.kiosk)
            if mine is None:
                print(_("No table is waiting for this kiosk in this round."))
                return 0
            print(printable(table_words(mine)))
        elif action == "standings":
            for place, e in enumerate(tournament.standings(conn), start=1):
                print(
                    printable(
                        f"{place:>3}. {e.person}  {number(e.score, 2)}  "
                        + ngettext("{n} point", "{n} points", e.points).format(n=number(e.points))
                        + "  "
                        + ngettext("{n} game", "{n} games", e.played).format(n=number(e.played))
                    )
                )
        else:
            found = tournament.end(conn)
            print(printable(_("Tournament {name} ended.").format(name=found.name)))
    return 0
