"""Optional devices at the table: an RFID card reader, buttons, LEDs and a buzzer.

- :mod:`hardware.readers`: the kinds of reader, in one place;
- :mod:`hardware.rfid`: the RFID readers (RDM6300, PN532, keyboard wedge, line readers),
  debounced, reconnecting; :mod:`hardware.pn532` and :mod:`hardware.keyboard` their protocols;
- :mod:`hardware.ports`: which serial port is the GPIO UART on this board, and its console;
- :mod:`hardware.tagmap`: the tag-to-card map that enrollment builds;
- :mod:`hardware.scanner`: a scanned tag declared to the table (setup or turn);
- :mod:`hardware.gpio`: undo and confirm buttons, green and red LEDs, a buzzer (gpiozero);
- :mod:`hardware.cli`: ``splendor-companion rfid monitor|enroll``;
- :mod:`hardware.bench`: tag-to-journal latency (``python -m hardware.bench``).

The core (``companion``) never imports this package; see ``docs/hardware.md``.
"""
