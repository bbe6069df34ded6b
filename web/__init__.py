"""The table on every phone: a read-only web page the kiosk serves on the local network.

A part above the core, beside ``ui`` and ``hardware``: the core never imports it. It reads
the app's journal (SQLite, ``mode=ro``) and never writes it; see docs/web.md.
"""
