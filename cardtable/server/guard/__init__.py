"""What keeps a server usable under abuse: the same-origin guard and the rate limits (in
memory, and their Redis twin for several processes)."""
