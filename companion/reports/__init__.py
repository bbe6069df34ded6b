"""Statistics and exports of the games played; imports the coach, the journal and below."""
