"""Burn the Witch bots, the first version: random legal moves read from the bot's own view
alone (``me.can``, the houses, ``complying``, ``trial``, ``pending``). Branch btw-bots
replaces it with bots that reason (issue 19, deliverable 3)."""

from typing import Any

from ..game import BotMove, View
from ..rng import Rng


def choose_move(view: View, rng: Rng) -> BotMove:
    me = view.get("me")
    if not me:
        return None
    can = me["can"]
    if "bewitch" in can:
        return {"type": "bewitch", "direction": rng.choice(("left", "right"))}
    if "accuse" in can:
        traits = sorted({t for house in view["houses"] for v in house["villagers"]
                         for t in v["traits"]})  # fmt: skip
        return {"type": "accuse", "trait": rng.choice(traits)}
    if "vote" in can and me["my_vote"] is None:
        living = _living_count(view, me["name"])
        burn = rng.below(living + 1)
        return {"type": "vote", "burn": burn, "save": living - burn}
    if "execute" in can:
        return {"type": "execute", "villager": rng.choice(view["complying"])}
    if "point" in can:
        targets = [t for t in view["trial"]["targets"] if t != me["name"]]
        return {"type": "point", "target": rng.choice(targets), "locked": True}
    if "choose_villager" in can:
        return {"type": "choose_villager", "villager": rng.choice(view["pending"]["choices"])}
    if "retribute" in can:
        options: list[Any] = [*view["pending"]["choices"], None]
        return {"type": "retribute", "target": rng.choice(options)}
    return None


def _living_count(view: View, name: str) -> int:
    house = next(h for h in view["houses"] if h["owner"] == name)
    return len(house["villagers"])
