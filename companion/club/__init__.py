"""A club's kiosks as one league in PostgreSQL (docs/club.md); imports the reports and below."""
