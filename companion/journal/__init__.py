"""The games kept on disk, the session and turn at the table; imports records and below."""
