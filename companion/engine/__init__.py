"""The rules engine: cards, moves, games, their compiled build; imports the bottom layer only."""
