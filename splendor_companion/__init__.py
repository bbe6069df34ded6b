"""The program ``splendor-companion``, put together: the composition root.

The parts stand in layers, and only this package sees them all: the core
(:mod:`companion`: rules, journal, records, the command line's own commands) imports
nothing above it; the touchscreen app (:mod:`ui`) and the devices (:mod:`hardware`) add
their options and commands here (:mod:`splendor_companion.program`).
"""
