"""A game's record and what it tells (timeline, times, move log); imports the engine and below."""
