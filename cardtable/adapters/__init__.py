"""Research adapters: cardtable games as PettingZoo, Gymnasium and OpenSpiel environments.

An optional extra (``python3 -m pip install -e ".[rl]"``): nothing in the core
imports this package, and this module imports no framework, so
``import cardtable.adapters`` is always safe. Import the adapter you need:

- :mod:`cardtable.adapters.observations` -- the flat observation vectors and
  action masks every adapter shares (needs numpy);
- :mod:`cardtable.adapters.pettingzoo` -- ``env()`` / ``raw_env()``, an AEC
  environment with one agent per seat;
- :mod:`cardtable.adapters.gymnasium` -- ``make()``, one learner seat against
  cardtable bots;
- :mod:`cardtable.adapters.openspiel` -- the games as ``pyspiel`` games.

Spaces, observation layouts, rewards and seeding are documented in
``docs/research.md``.
"""
