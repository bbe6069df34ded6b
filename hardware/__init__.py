"""Optional devices at the table: an RFID card reader, buttons, LEDs and a buzzer.

- :mod:`hardware.rfid`: serial RFID readers (RDM6300, line readers), debounced, reconnecting;
- :mod:`hardware.tagmap`: the tag-to-card map that enrollment builds;
- :mod:`hardware.scanner`: a scanned tag declared to the table (setup or turn);
- :mod:`hardware.gpio`: undo and confirm buttons, green and red LEDs, a buzzer (gpiozero);
- :mod:`hardware.cli`: ``splendor-companion rfid monitor|enroll``;
- :mod:`hardware.bench`: tag-to-journal latency (``python -m hardware.bench``).

The core (``companion``) never imports this package; see ``docs/hardware.md``.
"""
