"""Pure game engines. No I/O, no clock, no global randomness (ARCHITECTURE.md, layer 1).

Each game lives in its own package (``engine.catch_the_witch``; *Burn the Witch*
will sit beside it), implements the interface in ``engine/game.py`` and is listed in
``engine/games.py``, the one place the room service looks a game up. Games share only
the small pieces here: that interface, effects, errors and the seeded random number
generator.
"""
