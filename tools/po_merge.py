"""A git merge driver for the catalogs: two branches that each add messages merge cleanly.

Every branch that adds a message adds an entry to the same four ``.po`` files, so a plain
line merge conflicts on nearly every rebase. A catalog is a set of entries keyed by their
``msgctxt``/``msgid``, so it merges as one: an entry changed on one side only takes that
side, an entry added on either side is kept, one removed on one side and untouched on the
other is removed. Where both sides changed one entry differently, ours wins and the merge is
reported as a conflict (exit 1) with theirs kept beside it as a comment, for a person to
choose. Run ``python tools/messages.py`` afterwards to put the entries back in code order.

Set up once per clone (``.gitattributes`` names the files)::

    git config merge.po.driver "python3 tools/po_merge.py %O %A %B"
"""

from __future__ import annotations

import sys
from pathlib import Path


def _blocks(text: str) -> tuple[list[str], dict[str, str]]:
    """The entries of a catalog in order: (keys, key -> entry text)."""
    order: list[str] = []
    entries: dict[str, str] = {}
    for raw in text.replace("\r\n", "\n").split("\n\n"):
        block = raw.strip("\n")
        if not block.strip():
            continue
        # The key is the msgctxt and msgid lines (continuations up to msgstr included).
        key: list[str] = []
        for line in block.splitlines():
            if line.startswith("msgstr"):
                break
            if not line.startswith("#"):
                key.append(line)
        name = "\n".join(key) or block
        if name not in entries:
            order.append(name)
        entries[name] = block
    return order, entries


def merge(base: str, ours: str, theirs: str) -> tuple[str, bool]:
    """The merged catalog and whether a person must look at it."""
    _, b = _blocks(base)
    o_order, o = _blocks(ours)
    t_order, t = _blocks(theirs)
    conflict = False
    out: list[str] = []
    for key in o_order + [k for k in t_order if k not in o]:
        mine, other, old = o.get(key), t.get(key), b.get(key)
        if mine is None:  # added by theirs, or removed by us
            if other is not None and other != old:
                out.append(other)
            continue
        if other is None:  # removed by theirs, or added by us
            if old is None or mine != old:
                out.append(mine)
            continue
        if mine == other or other == old:
            out.append(mine)
        elif mine == old:
            out.append(other)
        else:
            conflict = True
            theirs_note = "\n".join("#| " + line for line in other.splitlines())
            out.append(f"{mine}\n{theirs_note}")
    return "\n\n".join(out) + "\n", conflict


def main(argv: list[str]) -> int:
    base, ours, theirs = (Path(a) for a in argv[1:4])
    text, conflict = merge(
        base.read_text(encoding="utf-8"),
        ours.read_text(encoding="utf-8"),
        theirs.read_text(encoding="utf-8"),
    )
    ours.write_text(text, encoding="utf-8")
    return 1 if conflict else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
