"""What every game shares: errors, the game protocol, the registry, records and replay."""
