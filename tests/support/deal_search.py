"""The attack that once computed the deal, as a cheating onlooker would run it: search the
keys of a Burn the Witch game for the one whose public draws give the villagers the table
screen shows, then deal that key again to read every hidden identity.

Against the landed 32-bit seeds this search took 1–2.5 minutes on two cores. Against a
256-bit key (engine/rng.py) it cannot end: each key costs a BLAKE2b block, and 2^256 of
them is beyond any computer (docs/security.md). The tests run it over a deliberately
weakened key space of 2^20 to show the search itself works and that the only thing
standing between the table screen and the deal is the size of the key.
"""

import hashlib
import struct
from collections.abc import Iterable, Sequence
from typing import Any

from engine.burn_the_witch import new_game, table_view
from engine.burn_the_witch.state import Settings
from engine.burn_the_witch.villagers import VILLAGERS
from engine.rng import KEY_BYTES, PUBLIC

_WORDS = struct.Struct("<8Q")
_BLOCK_0 = (0).to_bytes(8, "little")


def shown_villagers(view: dict[str, Any]) -> list[str]:
    """The villagers laid out, house by house in seat order: what the table screen shows."""
    return [villager["name"] for house in view["houses"] for villager in house["villagers"]]


def _first_block_fits(words: Sequence[int], shown: Sequence[str], hidden: set[str]) -> bool:
    """Whether the first eight swaps of the villagers' shuffle (engine/rng.py ``sample``:
    Fisher–Yates from the last position down) can give what is shown: each position they
    settle holds the villager shown there, or one not laid out."""
    order = [name for name, _ in VILLAGERS]
    last = len(order) - 1
    for step, word in enumerate(words):
        position = last - step
        bound = position + 1
        if word >= (1 << 64) - (1 << 64) % bound:
            return True  # a rejected draw (about 1 in 2^59): let the full check decide
        other = word % bound
        order[position], order[other] = order[other], order[position]
        settled = order[position]
        if position < len(shown) and settled != shown[position]:
            return False
        if position >= len(shown) and settled not in hidden:
            return False
    return True


def search_keys(view: dict[str, Any], players: Sequence[str], settings: Settings,
                keys: Iterable[int]) -> list[int]:  # fmt: skip
    """Every key in ``keys`` that deals the villagers ``view`` (a table screen's first view)
    shows: a cheap test of the public stream's first block, then a full deal."""
    shown = shown_villagers(view)
    hidden = {name for name, _ in VILLAGERS} - set(shown)
    person = PUBLIC.encode()
    found = []
    for key in keys:
        block = hashlib.blake2b(_BLOCK_0, key=key.to_bytes(KEY_BYTES, "big"), person=person,
                                digest_size=64).digest()  # fmt: skip
        if not _first_block_fits(_WORDS.unpack(block), shown, hidden):
            continue
        dealt = new_game(players, settings, seed=key, host=players[0])
        if shown_villagers(table_view(dealt)) == shown:
            found.append(key)
    return found
