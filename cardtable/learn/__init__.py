"""Learning to play: guided first games and puzzles made from real decisions.

Generic over games, like the analysis: a game takes part through its
manifest. Its ``tutorial`` folder holds the lesson's steps
(``steps.json``), their words in each language (``en.json``, ``de.json``…)
and the shipped puzzles (``puzzles.json``); its optional ``puzzle_theme``
names a puzzle's idea in the game's own terms. The pieces:

- :mod:`.tutorial`: the steps and their words, loaded and checked;
- :mod:`.lesson`: one step at a time against the engine (the faces draw it);
- :mod:`.puzzles`: a decision whose best move is clearly best, from the seat's view;
- :mod:`.build`: games played by bots and analysed into puzzles;
- :mod:`.glicko`: Glicko-2 ratings of puzzles and players;
- :mod:`.trainer`: a player's puzzle rating, the next puzzle, the daily one.
"""
