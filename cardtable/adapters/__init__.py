"""Research adapters: cardtable games as PettingZoo, Gymnasium and OpenSpiel environments.

An optional extra (``python3 -m pip install -e ".[rl]"``): nothing in the core
imports this package, and this module imports no framework, so ``import
cardtable.adapters`` is always safe. The adapters know no game by name: each
game's manifest names its observation encoder and OpenSpiel layout. Import
the adapter you need:

- :mod:`cardtable.adapters.observations` -- observation vectors and action
  masks through each game's encoder (needs numpy);
- :mod:`cardtable.adapters.common` -- what the two environment adapters share
  (arguments, spaces, seeds, rewards);
- :mod:`cardtable.adapters.pettingzoo` -- ``env()`` / ``raw_env()``, an AEC
  environment with one agent per seat;
- :mod:`cardtable.adapters.gymnasium` -- ``make()``, one learner seat against
  cardtable bots (needs gymnasium, not pettingzoo);
- :mod:`cardtable.adapters.openspiel` -- the games as ``pyspiel`` games, laid
  out by :mod:`cardtable.adapters.openspiel_layout`; the arena bot
  ``openspiel-ismcts`` is :mod:`cardtable.adapters.openspiel_bot`.

Spaces, observation layouts, rewards and seeding are documented in
``docs/research.md``.
"""
