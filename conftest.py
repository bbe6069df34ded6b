"""pytest, for the whole tree: a module that runs compiled (:mod:`companion.engine.native`) is not
collected for its doctests, which pytest would look for in the compiled file and refuse;
``tests/test_native.py`` runs them from its source instead."""

from companion.engine import native

collect_ignore = [
    str(native.source(m).relative_to(native.PACKAGE.parent))
    for m in native.MODULES
    if native.compiled(m)
]
