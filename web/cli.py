"""``splendor-companion serve``: the table's web page on the local network.

:func:`register` adds the command (``splendor_companion.program`` asks); aiohttp and
Jinja2 are imported only when it runs.
"""

from __future__ import annotations

import argparse
import errno
import sys
from collections.abc import Callable
from typing import Any

from companion.i18n import _, os_reason

EXIT_OK, EXIT_ERROR = 0, 2
DEFAULT_HOST = "0.0.0.0"  # every network of the kiosk: the phones around the table
DEFAULT_PORT = 8080

Command = Callable[[Any, str, str], argparse.ArgumentParser]


def _port(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 65535:
        raise argparse.ArgumentTypeError(
            _("a port is a number from 1 to 65535, not {text}").format(text=text)
        )
    return int(text)


def _clients(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 1000:
        raise argparse.ArgumentTypeError(_("a number from 1 to 1000, not {text}").format(text=text))
    return int(text)


def register(sub: Any, command: Command) -> None:
    p = command(sub, "serve", _("serve the table's read-only web page to the phones around it"))
    p.add_argument(
        "--host",
        default=DEFAULT_HOST,
        help=_("the address to listen on (127.0.0.1: this machine only)"),
    )
    p.add_argument("--port", type=_port, default=DEFAULT_PORT, help=_("the port to listen on"))
    p.add_argument(
        "--max-clients",
        type=_clients,
        help=_(
            "how many phones may follow the table live at once (default: the "
            "web_max_clients setting, else 32)"
        ),
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        from .server import data_files, serve
    except ImportError as err:  # aiohttp or Jinja2 missing: an install without them
        print(
            _(
                "The web page cannot start: {reason}. Install it with the first command "
                "of README.md."
            ).format(reason=err),
            file=sys.stderr,
        )
        return EXIT_ERROR
    journal, settings = data_files(getattr(args, "data_dir", None))

    def ready() -> None:
        print(
            _("Serving the table on http://{host}:{port}/ (Ctrl-C stops)").format(
                host=args.host if ":" not in args.host else f"[{args.host}]", port=args.port
            ),
            flush=True,
        )

    try:
        serve(
            journal,
            args.host,
            args.port,
            settings_file=settings,
            max_clients=args.max_clients,
            ready=ready,
        )
    except OSError as err:
        if err.errno == errno.EADDRINUSE:
            reason = _("the port is in use by another program: choose another with --port")
        else:
            reason = os_reason(err)
        print(
            _("Cannot serve on {host}:{port}: {reason}").format(
                host=args.host, port=args.port, reason=reason
            ),
            file=sys.stderr,
        )
        return EXIT_ERROR
    return EXIT_OK
