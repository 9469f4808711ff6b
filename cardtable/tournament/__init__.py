"""Duplicate tournaments: the same deals at every table, each result compared
with the results of those who held the same cards (:mod:`.matchpoints`);
bots-only tournaments run here without a server (:mod:`.duplicate`)."""
