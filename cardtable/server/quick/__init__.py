"""Quick match: the matching itself, and its ticket store (in memory, and its Redis twin for
several processes)."""
