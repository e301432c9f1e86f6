"""Pure game engines. No I/O, no clock, no global randomness (ARCHITECTURE.md, layer 1).

Each game lives in its own package (``engine.catch_the_witch``; *Burn the Witch*
will sit beside it) and shares only the small pieces here: errors and the
seeded random number generator.
"""
