"""Several processes over PostgreSQL and Redis: who serves which table, the relay of sockets
to a table's owner, and the lobby listed across processes."""
