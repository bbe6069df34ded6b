"""The kiosk's link to its club: where the club is, the password kept for libpq, the
connection, and the club's schema checked.

The club is a libpq connection string: a URL (``postgresql://table1@club.local/splendor_club
?sslmode=verify-full``) or a service name (``service=club``, or just ``club``, from
``~/.pg_service.conf``). ``club join`` keeps it without its password in ``club.json``
beside the journal (never in settings.ini); a password given in the URL goes to libpq's
password file (``$PGPASSFILE``, else ``~/.pgpass``, mode 0600), where libpq finds it.

psycopg is imported only here, when a club is used: a kiosk without a club needs no
PostgreSQL client (``setup.sh --club`` installs it). A missing part is said as one
(``club-missing-part``), never taken for a bug.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import re
import socket
import stat
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from ..errors import CompanionError
from ..files import write_atomic
from ..i18n import N_
from ..paths import data_dir

if TYPE_CHECKING:
    import psycopg

SCHEMA = 1
"""The club's schema this companion knows (``schema.sql``'s ``club_schema``)."""

SETTINGS_NAME = "club.json"
CONNECT_TIMEOUT = 5  # seconds: the push waits no longer for an unreachable club


class ClubError(CompanionError):
    """The club cannot do what was asked; ``message`` says why and what to do. ``code``:
    ``club-missing-part``, ``club-unreachable``, ``club-schema``, ``no-club``, ``club-refused``."""

    def __init__(self, template: str, *, code: str = "club-refused", **params: Any) -> None:
        super().__init__(code, template, params)


def need(module: str) -> ModuleType:
    """``psycopg`` or ``openskill``, imported now; a clear refusal when not installed (a
    module missing inside them is their own bug, and raised as it is)."""
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as err:
        if err.name is None or err.name.split(".")[0] != module.split(".")[0]:
            raise
        raise ClubError(
            "the club needs {module}, which is not installed: run ./setup.sh --club",
            code="club-missing-part",
            module=module.split(".")[0],
        ) from None


@dataclass(frozen=True, slots=True)
class Club:
    """A joined club: its connection string (no password) and this kiosk's name in it."""

    conninfo: str
    kiosk: str

    def shown(self) -> str:
        """The connection as it can be shown: no password, whatever was given."""
        return hide_password(self.conninfo)


def settings_path(folder: str | os.PathLike[str] | None = None) -> Path:
    return data_dir(folder) / SETTINGS_NAME


def joined(folder: str | os.PathLike[str] | None = None) -> Club | None:
    """The club this kiosk joined, or ``None`` (a file that does not read: none, said)."""
    path = settings_path(folder)
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as err:
        raise ClubError(
            "cannot read {path}: {reason}. Join the club again (club join), or delete it",
            path=str(path),
            reason=str(err),
        ) from None
    if (
        not isinstance(doc, dict)
        or not isinstance(doc.get("conninfo"), str)
        or not isinstance(doc.get("kiosk"), str)
    ):
        raise ClubError(
            "cannot read {path}: it is not a club's settings. Join the club again (club join), "
            "or delete it",
            path=str(path),
            reason="",
        )
    return Club(doc["conninfo"], doc["kiosk"])


def save(club: Club, folder: str | os.PathLike[str] | None = None) -> Path:
    path = settings_path(folder)
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps({"conninfo": club.conninfo, "kiosk": club.kiosk}, ensure_ascii=False)
    write_atomic(path, text + "\n")
    return path


def forget(folder: str | os.PathLike[str] | None = None) -> bool:
    """Leave the club: its settings removed (``True`` when there were some)."""
    try:
        settings_path(folder).unlink()
    except FileNotFoundError:
        return False
    return True


def default_kiosk() -> str:
    return socket.gethostname() or "kiosk"


# A password as it may stand in a string libpq cannot read: a URL's ``user:secret@``, or
# ``password=secret`` (quoted or not). Hidden by its letters, since such a string does not parse.
_URL_PASSWORD = re.compile(r"(://[^:/@\s]*):[^@\s]*@")
_KEY_PASSWORD = re.compile(r"(password\s*=\s*)('(?:[^'\\]|\\.)*'|\S+)", re.IGNORECASE)


def mask(text: str) -> str:
    """``text`` with any password in it hidden (``***``), whether or not it parses."""
    return _KEY_PASSWORD.sub(r"\1***", _URL_PASSWORD.sub(r"\1:***@", text))


def _parts(conninfo: str) -> dict[str, str]:
    pg = need("psycopg")
    try:
        parts: dict[str, str] = pg.conninfo.conninfo_to_dict(conninfo)
    except pg.ProgrammingError as err:
        raise ClubError(
            "{url} is not a club's address: {reason}. Give a URL like "
            "postgresql://table1@club.local/splendor_club, or a service name",
            url=mask(conninfo),
            reason=mask(str(err).splitlines()[0]),
        ) from None
    return {k: str(v) for k, v in parts.items()}


def conninfo_of(given: str) -> str:
    """What ``club join`` was given as libpq's connection string: a URL or ``key=value``
    pairs as they are, a bare word as a service name."""
    text = given.strip()
    if "://" in text or "=" in text:
        return text
    return f"service={text}"


def hide_password(conninfo: str) -> str:
    """The connection string without its password (for messages and club.json)."""
    try:
        parts = _parts(conninfo) if "password" in conninfo or "@" in conninfo else None
    except ClubError:
        return mask(conninfo)
    if parts is None or "password" not in parts:
        return conninfo
    pg = need("psycopg")
    parts.pop("password")
    shown: str = pg.conninfo.make_conninfo(**parts)
    return shown


def password_file() -> Path:
    """libpq's password file: ``$PGPASSFILE``, else ``~/.pgpass``."""
    named = os.environ.get("PGPASSFILE")
    return Path(named) if named else Path.home() / ".pgpass"


def _escape(field: str) -> str:
    return field.replace("\\", "\\\\").replace(":", "\\:")


def keep_password(conninfo: str) -> str:
    """The password of ``conninfo``, if any, moved to libpq's password file (mode 0600,
    a line for this host, port, database and user, replacing one there); the connection
    string without it is returned."""
    parts = _parts(conninfo)
    password = parts.pop("password", None)
    if password is None:
        return conninfo
    fields = [
        parts.get("host", "localhost") or "localhost",
        parts.get("port", "5432") or "5432",
        parts.get("dbname", "*") or "*",
        parts.get("user", "*") or "*",
    ]
    head = ":".join(_escape(f) for f in fields) + ":"
    path = password_file()
    lines: list[str] = []
    with contextlib.suppress(FileNotFoundError):
        lines = [
            ln for ln in path.read_text(encoding="utf-8").splitlines() if not ln.startswith(head)
        ]
    lines.append(head + _escape(password))
    path.parent.mkdir(parents=True, exist_ok=True)
    # Created 0600 from the start: libpq ignores a password file others may read.
    fd = os.open(path.with_name(path.name + ".new"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write("\n".join(lines) + "\n")
    os.chmod(path.with_name(path.name + ".new"), stat.S_IRUSR | stat.S_IWUSR)
    os.replace(path.with_name(path.name + ".new"), path)
    pg = need("psycopg")
    without: str = pg.conninfo.make_conninfo(**parts)
    return without


def connect(club: Club | str, *, check: bool = True) -> psycopg.Connection[Any]:
    """A connection to the club, its schema checked (``check``); ``ClubError`` when it
    cannot be reached or is not a club this companion can use."""
    pg = need("psycopg")
    conninfo = club.conninfo if isinstance(club, Club) else club
    _parts(conninfo)  # an address libpq cannot read is said as one, its password hidden
    try:
        conn: psycopg.Connection[Any] = pg.connect(
            conninfo,
            connect_timeout=CONNECT_TIMEOUT,
            application_name="splendor-companion",
            # Each ``conn.transaction()`` is then a transaction of its own, committed at
            # its end (never a savepoint of one left open by a read before it): the
            # outbox forgets a game only once the club has committed it.
            autocommit=True,
        )
    except pg.Error as err:
        raise unreachable(conninfo, err) from None
    if check:
        try:
            check_schema(conn, conninfo)
        except BaseException:
            conn.close()
            raise
    return conn


def unreachable(conninfo: str, err: BaseException) -> ClubError:
    """Why the club could not be reached, said with what to do where libpq's reason is
    one a person can act on (a wrong password, a name mistyped, TLS refused); the reason
    itself is libpq's, in English (``reason``; ``club join`` reads it)."""
    text = str(err)
    parts = _parts(conninfo)
    params: dict[str, Any] = {
        "url": hide_password(conninfo),
        "reason": reason_of(err),
        "user": parts.get("user", ""),
        "database": parts.get("dbname", ""),
        "host": parts.get("host", "localhost"),
        "sslmode": parts.get("sslmode", ""),
        "port": parts.get("port", "5432"),
    }
    if "password authentication failed" in text:
        template = N_(
            "the club at {url} refused the password of {user}: ask the club's owner for "
            "this kiosk's password, and join again with it (club join URL)"
        )
    elif re.search(r'database ".*" does not exist', text):
        template = N_(
            "the club's server has no database {database}: check the database's name at "
            "the end of the club's URL, and join again"
        )
    elif re.search(r'role ".*" does not exist', text):
        template = N_(
            "the club's server knows no kiosk named {user}: check the user in the club's "
            "URL, or ask the club's owner to make it (docs/club.md)"
        )
    elif "does not support SSL" in text:
        template = N_(
            "the club's server at {host} does not take TLS connections, which this URL "
            "asks (sslmode={sslmode}): its owner switches TLS on (docs/club.md), or the URL "
            "asks no TLS on a network the club owns"
        )
    elif "certificate" in text and ("verify" in text or "root" in text):
        template = N_(
            "the certificate of the club's server at {host} could not be checked ({reason}): "
            "put the certificate of the authority that signed it in ~/.postgresql/root.crt, "
            "or name it with sslrootcert= in the URL (docs/club.md)"
        )
    elif "no pg_hba.conf entry" in text:
        template = N_(
            "the club's server does not let this kiosk in ({reason}): its owner adds a line "
            "for the kiosks' network to pg_hba.conf (docs/club.md)"
        )
    elif "failed to resolve host" in text or "could not translate host name" in text:
        template = N_(
            "no machine named {host} is found on this network: check the host in the "
            "club's URL ({url})"
        )
    elif "Connection refused" in text or "Is the server running" in text:
        template = N_(
            "nothing answers at {host}, port {port}: is the club's server running, and "
            "listening on the club's network (listen_addresses, docs/club.md)?"
        )
    else:
        template = N_("cannot reach the club at {url}: {reason}")
    return ClubError(template, code="club-unreachable", **params)


def reason_of(err: BaseException) -> str:
    """libpq's reason on one line (its messages carry the server's hints below), any
    password it quotes hidden."""
    lines = [ln.strip() for ln in str(err).splitlines() if ln.strip()]
    return mask(lines[-1]) if lines else type(err).__name__


def check_schema(conn: psycopg.Connection[Any], conninfo: str) -> int:
    """The club's schema version; refused when there is none or it is newer than ours."""
    pg = need("psycopg")
    try:
        with conn.transaction():
            row = conn.execute("SELECT max(version) FROM club_schema").fetchone()
    except pg.errors.UndefinedTable:
        raise ClubError(
            "{url} has no club's tables: its owner runs the companion's schema.sql on it "
            "first (docs/club.md)",
            code="club-schema",
            url=hide_password(conninfo),
        ) from None
    except pg.Error as err:
        raise ClubError(
            "cannot reach the club at {url}: {reason}",
            code="club-unreachable",
            url=hide_password(conninfo),
            reason=reason_of(err),
        ) from None
    found = int(row[0]) if row and row[0] is not None else 0
    if found > SCHEMA:
        raise ClubError(
            "the club's database has schema {found}, and this companion knows {known}: "
            "update this kiosk (git pull && ./setup.sh --club)",
            code="club-schema",
            found=found,
            known=SCHEMA,
        )
    return found
