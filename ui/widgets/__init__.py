"""The app's own widgets and drawing, by job:

- :mod:`.text`: text drawn on a canvas and measured, labels, names shortened;
- :mod:`.drawing`: the pieces drawn on a canvas (gems, cards, nobles, places);
- :mod:`.pieces`: the pieces as widgets (a card, a noble, a bank pile, a row of gems);
- :mod:`.buttons`: buttons for a finger;
- :mod:`.modal`: a modal panel over the screen (dialogs, pickers, the history's panels).
"""
