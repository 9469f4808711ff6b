"""One process's tables in memory, no I/O: a table's facts, seats and journal, its chat, the
messages each seat is sent, replay steps, the lobby's rules for a new table and its listing, and
what a finished table's outcome means for ratings."""
