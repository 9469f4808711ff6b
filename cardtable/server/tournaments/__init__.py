"""Tournaments for people on the server: duplicate and Swiss
(:mod:`.rules`), stored by :mod:`.ledger`, run by :mod:`.director`."""
