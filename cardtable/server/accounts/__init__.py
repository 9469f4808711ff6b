"""People: accounts and their sessions, password hashing, the sign-in limits, the server's
secret, and puzzle ratings."""
