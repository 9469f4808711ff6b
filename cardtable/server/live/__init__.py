"""Tables at play: the hub that holds them, moves, bots and stand-ins, the lobby's lifecycle,
chat moderation, analyses and the metrics collector."""
