"""Compile the engine with mypyc, or remove the build: ``python -m companion.engine.build``
(when the build is missing or older than the source), ``--force`` (always), ``clean``.

``./setup.sh`` runs it; see :mod:`companion.engine.native` for what is compiled and why. A build
that fails leaves none behind, and the engine runs as pure Python.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from ..i18n import _, ngettext
from . import native


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args == [] and native.up_to_date():
        print(_("the compiled engine is up to date"))
        return 0
    if args in ([], ["--force"]):
        try:
            written = native.build()
        except SystemExit:  # mypy's type errors, printed above, end in an exit
            reason = _("mypy refused it, see above")
        except Exception as err:  # the compiler's or setuptools' own words
            reason = str(err) or type(err).__name__
        else:
            names = sorted(str(p.relative_to(native.PACKAGE)) for p in written)
            print(_("compiled the engine: {files}").format(files=", ".join(names)))
            return 0
        print(
            _("the engine was not compiled ({reason}): it runs as pure Python").format(
                reason=reason
            ),
            file=sys.stderr,
        )
        return 1
    if args == ["clean"]:
        gone = native.clean()
        print(
            ngettext(
                "removed {n} file: the engine runs as pure Python",
                "removed {n} files: the engine runs as pure Python",
                len(gone),
            ).format(n=len(gone))
        )
        return 0
    print(_("usage: python -m companion.engine.build [--force | clean]"), file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
