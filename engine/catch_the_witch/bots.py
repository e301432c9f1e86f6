"""Bot players: legal, sensible cats for every role.

A bot sees exactly what a phone sees: ``decide(view, rng)`` reads only the
dict that ``views.view`` built for that cat, so a bot can never cheat and the
bots double as a check that the views carry what a player needs.

Table talk is replaced by a public convention every bot follows (real players
say "I'll go to the river"): on each day, the cats in human form, in seat
order, are assigned the duck's ingredients in turn. So cats gather in groups
(witnesses stop Frogs, §5) and a Chief can propose cats likely to hold each
needed card. Witches pretend to follow it and use it against the village.
"""

from collections import Counter
from typing import Any

from ..rng import Rng
from . import tables
from .domain import EMPTY_PAW, NIGHTSHADE, Ingredient, Place
from .steps import CONFIRM_PHASES, PICKPOCKET_PHASES

View = dict[str, Any]
Act = dict[str, Any] | None

#: Strategy knobs (bots only; the rules' [design] numbers live in tables.py).
KNIGHT_GUARD_CHANCE = 0.5
WITCH_SABOTAGE_CHANCE = 0.9
WITCH_SABOTAGE_CHANCE_PAIR = 0.5  # on a two-cat ritual the partner knows who failed it
CROW_SABOTAGE_CHANCE = 0.6
WITCH_REJECT_CHANCE = 0.5
SUSPICION_TO_VOTE = 0.6
SUSPICION_TO_VOTE_WITH_JESTER = 1.2  # exiling the Jester loses the game: want more evidence
CLEAR_LEAD_WITH_JESTER = 0.5  # …and a suspect clearly ahead of the next one
JESTER_SABOTAGE_CHANCE = 0.1
SUSPICION_TO_REJECT = 0.9

_PICKPOCKET_STEPS = frozenset(phase.value for phase in PICKPOCKET_PHASES)


def decide(v: View, rng: Rng) -> Act:
    """The action this cat takes now, or None when it has nothing to do."""
    me = v["me"]
    if me is None or v["outcome"] is not None:
        return None
    phase = v["phase"]
    handler = _PHASES.get(phase)
    return handler(v, me, rng) if handler else None


# -- shared reasoning ----------------------------------------------------------------------
def humans(v: View) -> list[str]:
    return [p["name"] for p in v["players"] if p["form"] == "human"]


def assignment(v: View) -> dict[str, Ingredient]:
    """The public convention: who gathers which of today's ingredients."""
    required = v["today"]["required"] if v["today"] else []
    if not required:
        return {}
    day = v["day"]
    return {
        name: Ingredient(required[(i + day) % len(required)]) for i, name in enumerate(humans(v))
    }


def known_witches(v: View) -> set[str]:
    me = v["me"]
    found = set(me.get("witches", []))
    found |= {r["target"] for r in me.get("seer_results", []) if r["witch"]}
    return found


def cleared(v: View) -> set[str]:
    me = v["me"]
    return {r["target"] for r in me.get("seer_results", []) if not r["witch"]} | {me["name"]}


def suspicion(v: View) -> dict[str, float]:
    """Evidence from public facts: failed rituals weigh on their members (on the others
    only, when this cat was a member and so knows it played true), successes clear them,
    frogs were likely attacked by witches. Private knowledge overrides."""
    me = v["me"]["name"]
    score = {p["name"]: 0.0 for p in v["players"]}
    days = [*v["history"], *([v["today"]] if v["today"] else [])]
    for day in days:
        members = day["ritual_members"]
        if day["ritual_result"] == "failure" and members:
            suspects = [n for n in members if n != me] or members
            for name in suspects:
                score[name] += 2.0 / len(suspects)
        elif day["ritual_result"] == "success":
            for name in members:
                score[name] -= 0.4
        for name in day["new_frogs"]:
            score[name] -= 0.5
    for name in known_witches(v):
        score[name] += 100.0
    for name in cleared(v):
        score[name] -= 100.0
    return score


def most_suspected(v: View, names: list[str]) -> str:
    """Ties go to the earlier seat, so cats reading the same evidence agree."""
    score = suspicion(v)
    return max(names, key=lambda n: (score[n], -names.index(n)))


def _witch_side(me: dict) -> bool:
    return me["role"] in ("witch", "crow")


# -- steps ---------------------------------------------------------------------------------
def _role_check(v: View, me: dict, rng: Rng) -> Act:
    return {"type": "ready"} if not me.get("done") else None


def _confirm(v: View, me: dict, rng: Rng) -> Act:
    return {"type": "ok"} if not me.get("done") else None


def _place_choice(v: View, me: dict, rng: Rng) -> Act:
    if not v["your_turn"]:
        return None
    mine = assignment(v).get(me["name"])
    place = tables.place_of(mine) if mine else None
    if place is None or place.value not in v["open_places"]:
        place = Place(rng.choice(v["open_places"]))
    role = me["role"]
    if role == "knight" and v["day"] >= 2 and rng.chance(KNIGHT_GUARD_CHANCE):
        return {"type": "choose_guard"}
    action: dict[str, Any] = {"type": "choose_place", "place": place.value}
    if role == "herbalist":
        frogs = [p["name"] for p in v["players"] if p["form"] == "frog"]
        if frogs:
            score = suspicion(v)
            action["restore"] = min(frogs, key=lambda n: score[n])
    return action


def _guard(v: View, me: dict, rng: Rng) -> Act:
    if not v["your_turn"]:
        return None
    counts = me.get("counts", {})
    lone = [p for p, n in counts.items() if n == 1]
    if lone:
        return {"type": "guard_place", "place": rng.choice(lone)}
    return {"type": "guard_place", "place": max(counts, key=lambda p: counts[p])}


def _witches(v: View, me: dict, rng: Rng) -> Act:
    if not v["your_turn"]:
        return None
    choices = me.get("witch_choices", {})
    own = choices.get(me["name"])
    counts: dict[str, int] = me["counts"]
    spells = v["unlocked_spells"]
    if own is None:
        taken = {c["place"] for n, c in choices.items() if n != me["name"]}
        lone = [p for p, n in counts.items() if n == 1 and p not in taken]
        if "frog" in spells and lone:
            return {"type": "witch_place", "place": rng.choice(lone)}
        crowded = max(counts, key=lambda p: (counts[p], rng.below(100)))
        return {"type": "witch_place", "place": crowded}
    allies = set(me.get("witches", []))
    targets = [n for n in me.get("at_my_place", []) if n not in allies]
    place = own["place"]
    if "frog" in spells and counts.get(place) == 1 and targets:
        return {"type": "witch_spell", "spell": "frog", "target": targets[0]}
    if "spoil" in spells and counts.get(place, 0) >= 3:
        return {"type": "witch_spell", "spell": "spoil"}
    if "snatch" in spells and targets:
        return {"type": "witch_spell", "spell": "snatch", "target": rng.choice(targets)}
    return {"type": "witch_spell", "spell": "none"}


def _discussion(v: View, me: dict, rng: Rng) -> Act:
    if me["form"] != "human":
        return None
    special = _seer_or_pickpocket(v, me, rng)
    if special:
        return special
    return {"type": "end_talk"} if not me.get("done") else None


def _seer_or_pickpocket(v: View, me: dict, rng: Rng) -> Act:
    if me["form"] != "human":
        return None
    score = suspicion(v)
    if me["role"] == "seer" and not me.get("seer_used_today"):
        looked = {r["target"] for r in me["seer_results"]}
        options = [
            p["name"] for p in v["players"]
            if p["form"] != "exiled" and p["name"] != me["name"] and p["name"] not in looked
        ]  # fmt: skip
        if options:
            return {"type": "seer_look", "target": max(options, key=lambda n: score[n])}
    if me["role"] == "pickpocket" and v["phase"] in _PICKPOCKET_STEPS:
        if "peek" in me:
            return {"type": "pickpocket_take", "card": _wanted_card(v, me)}
        if not me.get("pickpocket_used_today"):
            options = [n for n in humans(v) if n != me["name"]]
            if options:
                return {"type": "pickpocket_peek", "target": max(options, key=lambda n: score[n])}
    return None


def _wanted_card(v: View, me: dict) -> str | None:
    """Rob only a suspect (a villager's cards are the village's ritual): take a needed
    ingredient the Pickpocket lacks, else leave the hand alone. The witch side robs
    anyone of what the village needs tonight."""
    theirs = me["peek"]["hand"]
    needed = [card for card in v["today"]["required"] if card in theirs]
    if not needed:
        return None
    if me["side"] == "villagers" and suspicion(v)[me["peek"]["target"]] < SUSPICION_TO_VOTE:
        return None
    hand = Counter(me["hand"])
    return next((card for card in needed if hand[card] == 0), needed[0])


def _proposal(v: View, me: dict, rng: Rng) -> Act:
    if not v["your_turn"]:
        return _seer_or_pickpocket(v, me, rng)
    size = len(v["today"]["required"])
    score = suspicion(v)
    trust = sorted(humans(v), key=lambda n: (score[n], rng.below(1000)))
    members: list[str] = [me["name"]] if _witch_side(me) else []
    by_card = assignment(v)
    for card in v["today"]["required"]:
        for name in trust:
            if len(members) < size and name not in members and by_card.get(name) == card:
                members.append(name)
                break
    for name in trust:
        if len(members) < size and name not in members:
            members.append(name)
    return {"type": "propose", "members": members[:size]}


def _approval(v: View, me: dict, rng: Rng) -> Act:
    if not v["your_turn"]:
        return _seer_or_pickpocket(v, me, rng)
    members = v["today"]["proposals"][-1]["members"]
    if v["curse"] >= v["curse_capacity"] - 1:
        return {"type": "approve", "yes": True}  # a full gauge only costs the village
    if _witch_side(me):
        allies = set(me.get("witches", [])) | {me["name"]}
        if me["role"] == "crow":
            allies.discard(me["name"])
        yes = bool(allies & set(members)) or not rng.chance(WITCH_REJECT_CHANCE)
        return {"type": "approve", "yes": yes}
    score = suspicion(v)
    worst = max(score[n] for n in members)
    return {"type": "approve", "yes": worst < SUSPICION_TO_REJECT}


def _ritual(v: View, me: dict, rng: Rng) -> Act:
    if not v["your_turn"]:
        return _seer_or_pickpocket(v, me, rng)
    playable = me["playable"]
    required = v["today"]["required"]
    members = v["today"]["ritual_members"]
    if me["role"] == "witch":
        first_witch = next(n for n in members if n == me["name"] or n in me["witches"])
        chance = WITCH_SABOTAGE_CHANCE if len(members) > 2 else WITCH_SABOTAGE_CHANCE_PAIR
        if first_witch == me["name"] and rng.chance(chance):
            return {"type": "play_card", "card": NIGHTSHADE}
    witches_on_it = set(me.get("witches", [])) & set(members)
    if me["role"] == "crow" and not witches_on_it and rng.chance(CROW_SABOTAGE_CHANCE):
        return {"type": "play_card", "card": NIGHTSHADE}
    if me["role"] == "jester" and rng.chance(JESTER_SABOTAGE_CHANCE):  # wants to look guilty
        wrong = [c for c in playable if c not in required]
        if wrong:
            return {"type": "play_card", "card": wrong[0]}
    mine = assignment(v).get(me["name"])
    if mine and mine.value in required and mine.value in playable:
        return {"type": "play_card", "card": mine.value}
    by_card = assignment(v)
    covered = Counter(by_card[n].value for n in members if n != me["name"] and n in by_card)
    uncovered = [c for c in required if covered[c] == 0 and c in playable]
    useful = uncovered or [c for c in required if c in playable]
    if useful:
        return {"type": "play_card", "card": useful[0]}
    cards = [c for c in playable if c != NIGHTSHADE]
    return {"type": "play_card", "card": cards[0] if cards else EMPTY_PAW}


def _vote(v: View, me: dict, rng: Rng) -> Act:
    if not v["your_turn"]:
        return None
    options = [n for n in humans(v) if n != me["name"]]
    if me["role"] == "jester":
        return {"type": "vote", "target": None}
    if _witch_side(me):  # vote with the village's evidence, never against a witch
        allies = set(me.get("witches", []))
        options = [n for n in options if n not in allies]
        if not options:
            return {"type": "vote", "target": None}
    # Witches blend in by following the village's own rule on the evidence.
    final_day = v["day"] >= v["knights_day"]
    if v["day"] == 1 and not final_day and not known_witches(v) & set(options):
        # Day 1's only evidence is one failed ritual. A villager Chief (seat 1, the host
        # alone with bots) trusts himself onto it, and ties go to the earlier seat: he was
        # exiled on it in a third of the games. Only hard evidence (a Seer's "Witch")
        # exiles on day 1.
        return {"type": "vote", "target": None}
    target = most_suspected(v, options)
    score = suspicion(v)
    jester = "jester" in v["role_set"]
    needed = SUSPICION_TO_VOTE_WITH_JESTER if jester else SUSPICION_TO_VOTE
    runner_up = max((score[n] for n in options if n != target), default=-1e9)
    clear = not jester or score[target] - runner_up >= CLEAR_LEAD_WITH_JESTER
    if (score[target] >= needed and clear) or final_day:
        return {"type": "vote", "target": target}
    return {"type": "vote", "target": None}


#: Each step's strategy; every scene to confirm (the steps that accept OK) is tapped away.
_PHASES = {phase.value: _confirm for phase in CONFIRM_PHASES} | {
    "role_check": _role_check,
    "place_choice": _place_choice,
    "guard": _guard,
    "witches": _witches,
    "discussion": _discussion,
    "proposal": _proposal,
    "approval": _approval,
    "ritual": _ritual,
    "squabble": _seer_or_pickpocket,  # nothing to do but the optional moves
    "vote": _vote,
}
