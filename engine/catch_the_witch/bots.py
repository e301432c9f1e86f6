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
from collections.abc import Callable
from typing import Any

from ..game import BotMove, View
from ..rng import Rng
from . import tables
from .belief import Belief, belief, days_so_far, failed_ritual, gentle, told_today
from .domain import EMPTY_PAW, NIGHTSHADE, Place
from .steps import CONFIRM_PHASES, PICKPOCKET_PHASES

#: Strategy knobs (bots only; the rules' [design] numbers live in tables.py).
KNIGHT_GUARD_CHANCE = 0.3
#: A witch sabotages a ritual unless that would take her this share of the way to being
#: exiled (the village's bar, EXILE_AT…).
WITCH_CAUTION = 0.9
CROW_SABOTAGE_CHANCE = 0.7
#: A witch says no to a ritual with no saboteur on it this often (not always: the village
#: reads the yes/no votes, belief.py).
WITCH_REJECT_CHANCE = 0.2
SEER_LOOKS_AT = "doubtful"
#: The Jester baits: he says no to a ritual he trusts this often, and on a ritual plays a
#: wrong card this often, to look like a witch.
JESTER_REJECT_CHANCE = 0.2
JESTER_SABOTAGE_CHANCE = 0.05
#: …and takes part in this share of the exile votes, as a villager would (never voting
#: would give him away).
JESTER_VOTES = 0.5
#: A villager votes to exile the likeliest witch once she is at least this likely (more
#: likely than not: lower, and the village exiles its own cats and the Jester; higher,
#: and the Seer is left to vote alone).
EXILE_AT = 0.5
#: [design] The gentle table (the room's ``bot_level``, read from the view's
#: settings; belief.GENTLE_WEIGHT softens the belief itself): a villager votes only for a
#: cat at least this likely to be a witch (the witches, who blend in, wait for that bar
#: too)…
GENTLE_EXILE_AT = 0.7
#: …and, this often, gives the vote it meant to cast to any other cat it could vote for,
#: at random (a learner's witch is not hunted down by a village voting as one). At the
#: sharp table no bot draws these numbers from its rng: the balance's games are the same.
GENTLE_STRAY_VOTE = 0.35
#: The witches vote once the village's likeliest cat is this share of the way to a vote.
WITCH_VOTE_EARLY = 0.85
#: Nobody votes for a cat at least this likely to be the Jester (his win is everyone
#: else's loss), nor less than this many times as likely as the average cat who could
#: be him (so that, as cats are exiled, a small table never spares everyone); how
#: likely, each judges by how he plays (``_likely_jesters``).
SPARE_JESTER = 0.2
SPARE_OVER_AVERAGE = 1.5
#: How much likelier the Jester does each thing than a villager, to the witches' eyes:
#: say no to a ritual with no witch on it (he baits), yes to it, cast an exile vote (he
#: votes half as often, JESTER_VOTES), skip it.
JESTER_NO_TO_CLEAN = 2.3
JESTER_YES_TO_CLEAN = 0.8
JESTER_CASTS = 0.5
JESTER_SKIPS = 1.5
#: A villager says yes to a ritual at least this likely to be clean as the cleanest one
#: the Chief could have proposed (his belief, belief.py) times this.
APPROVE_RATIO = 0.8

_PICKPOCKET_STEPS = frozenset(phase.value for phase in PICKPOCKET_PHASES)


def decide(v: View, rng: Rng) -> BotMove:
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


def _witch_side(me: dict) -> bool:
    return me["role"] in ("witch", "crow")


def _mind(v: View) -> Belief:
    """What this cat goes by: its own belief, or for the witch side (who know the truth)
    the table's, so as to act as a villager would (they blend in)."""
    return belief(v, private=not _witch_side(v["me"]))


def _exile_at(v: View) -> float:
    """How likely a witch a cat must be for the village to vote it out, at this table."""
    return GENTLE_EXILE_AT if gentle(v) else EXILE_AT


def _likeliest(names: list[str], odds: dict[str, float]) -> str:
    """Ties go to the earlier seat, so cats reading the same evidence agree."""
    return max(names, key=lambda n: (round(odds[n], 3), -names.index(n)))


# -- steps ---------------------------------------------------------------------------------
def _role_check(v: View, me: dict, rng: Rng) -> BotMove:
    return {"type": "ready"} if not me.get("done") else None


def _confirm(v: View, me: dict, rng: Rng) -> BotMove:
    return {"type": "ok"} if not me.get("done") else None


def _place_choice(v: View, me: dict, rng: Rng) -> BotMove:
    if not v["your_turn"]:
        return None
    mine = told_today(v).get(me["name"])
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
            odds = _mind(v).saboteur
            action["restore"] = min(frogs, key=lambda n: odds[n])
    return action


def _guard(v: View, me: dict, rng: Rng) -> BotMove:
    if not v["your_turn"]:
        return None
    counts = me.get("counts", {})
    lone = [p for p, n in counts.items() if n == 1]
    if lone:
        return {"type": "guard_place", "place": rng.choice(lone)}
    return {"type": "guard_place", "place": max(counts, key=lambda p: counts[p])}


def _witches(v: View, me: dict, rng: Rng) -> BotMove:
    if "witch_choices" not in me:
        return _guess(v, me)
    if not v["your_turn"]:
        return None
    choices = me.get("witch_choices", {})
    own = choices.get(me["name"])
    counts: dict[str, int] = me["counts"]
    spells = v["unlocked_spells"]
    if own is None:
        taken = {c["place"] for n, c in choices.items() if n != me["name"]}
        few = 1 + v["frog_witnesses"]
        lone = [p for p, n in counts.items() if 1 <= n <= few and p not in taken]
        if "frog" in spells and lone:
            return {"type": "witch_place", "place": _frog_place(v, me, lone)}
        crowded = max(counts, key=lambda p: (counts[p], rng.below(100)))
        return {"type": "witch_place", "place": crowded}
    allies = set(me.get("witches", []))
    targets = [n for n in me.get("at_my_place", []) if n not in allies]
    place = own["place"]
    few = 1 + v["frog_witnesses"]
    if "frog" in spells and 1 <= counts.get(place, 0) <= few and targets:
        odds = _mind(v).saboteur
        return {
            "type": "witch_spell",
            "spell": "frog",
            "target": min(targets, key=lambda n: (odds[n], targets.index(n))),
        }
    if "spoil" in spells and counts.get(place, 0) >= 3:
        return {"type": "witch_spell", "spell": "spoil"}
    if "snatch" in spells and targets:
        return {"type": "witch_spell", "spell": "snatch", "target": rng.choice(targets)}
    return {"type": "witch_spell", "spell": "none"}


def _guess(v: View, me: dict) -> BotMove:
    """[design] Everyone else's tap in the witches' 15 s (docs/engine.md), made as a person
    at the table would make it: a place, then a spell. The rules never read a guess, so a
    bot's is the same plain one each day and draws nothing from ``rng`` (its play, and so
    the balance figures, are what they were before guesses)."""
    if me["form"] != "human" or me["away"]:
        return None
    guess = me.get("guess")
    if guess is None:
        places = v["open_places"]
        return {"type": "guess_place", "place": places[v["day"] % len(places)]}
    if guess["spell"] is None:
        return {"type": "guess_spell", "spell": "none"}
    return None


def _frog_place(v: View, me: dict, lone: list[str]) -> str:
    """Where to frog: the lone place of the cat the witches fear most, by the table
    convention of who gathers where. A cat who voted to exile a witch the village did not
    suspect is likely the Seer; else the cat the village trusts most, who will sit on its
    rituals and lead its votes."""
    allies = set(me.get("witches", [])) | {me["name"]}
    told = told_today(v)
    odds = _mind(v).saboteur
    seer_like = _seer_like(v, allies)

    def fear(place: str) -> tuple[float, int]:
        there = [n for n, card in told.items() if tables.place_of(card).value == place]
        cats = [n for n in there if n not in allies]
        if not cats:
            return (-1.0, -lone.index(place))
        return (max(seer_like.get(n, 0) + 1 - odds[n] for n in cats), -lone.index(place))

    return max(lone, key=fear)


def _seer_like(v: View, allies: set[str]) -> dict[str, int]:
    """How often each cat voted to exile a witch: the Seer's mark, to a witch's eyes."""
    found: Counter[str] = Counter()
    for day in v["history"]:
        for voter, target in (day["vote"] or {}).get("votes", {}).items():
            if target in allies:
                found[voter] += 1
    return found


def _discussion(v: View, me: dict, rng: Rng) -> BotMove:
    if me["form"] != "human":
        return None
    special = _seer_or_pickpocket(v, me, rng)
    if special:
        return special
    return {"type": "end_talk"} if not me.get("done") else None


def _seer_or_pickpocket(v: View, me: dict, rng: Rng) -> BotMove:
    if me["form"] != "human":
        return None
    if me["role"] == "seer" and not me.get("seer_used_today") and v["day"] >= v["seer_first_day"]:
        looked = {r["target"] for r in me["seer_results"]}
        options = [
            p["name"] for p in v["players"]
            if p["form"] != "exiled" and p["name"] != me["name"] and p["name"] not in looked
        ]  # fmt: skip
        if options:
            return {"type": "seer_look", "target": _seer_target(v, options)}
    if me["role"] == "pickpocket" and v["phase"] in _PICKPOCKET_STEPS:
        if "peek" in me:
            return {"type": "pickpocket_take", "card": _wanted_card(v, me)}
        if not me.get("pickpocket_used_today"):
            options = [n for n in humans(v) if n != me["name"]]
            if options:
                odds = _mind(v).saboteur
                return {"type": "pickpocket_peek", "target": _likeliest(options, odds)}
    return None


def _seer_target(v: View, options: list[str]) -> str:
    """SEER_LOOKS_AT "likeliest": the cat the village is likeliest to exile (she checks
    before it votes); "doubtful": the cat whose odds are nearest even (a look there tells
    the most)."""
    odds = _mind(v).witch
    if SEER_LOOKS_AT == "likeliest":
        return _likeliest(options, odds)
    return _likeliest(options, {n: -abs(p - 0.5) for n, p in odds.items()})


def _wanted_card(v: View, me: dict) -> str | None:
    """Rob only a suspect (a villager's cards are the village's ritual): take a needed
    ingredient the Pickpocket lacks, else leave the hand alone. The witch side robs
    anyone of what the village needs tonight."""
    theirs = me["peek"]["hand"]
    needed = [card for card in v["today"]["required"] if card in theirs]
    if not needed:
        return None
    if me["side"] == "villagers" and _mind(v).saboteur[me["peek"]["target"]] < EXILE_AT:
        return None
    hand = Counter(me["hand"])
    return next((card for card in needed if hand[card] == 0), needed[0])


def _proposal(v: View, me: dict, rng: Rng) -> BotMove:
    if not v["your_turn"]:
        return _seer_or_pickpocket(v, me, rng)
    size = len(v["today"]["required"])
    return {"type": "propose", "members": _team(v, me, size)}


def _team(v: View, me: dict, size: int) -> list[str]:
    """The ritual this cat would have: the cats it trusts most, one told to gather each
    needed ingredient where it can (a witch puts herself on it, and no other witch)."""
    odds = _mind(v).saboteur
    everyone = humans(v)
    trust = sorted(everyone, key=lambda n: (round(odds[n], 3), everyone.index(n)))
    members: list[str] = []
    if _witch_side(me):
        members.append(me["name"])
        allies = set(me.get("witches", []))
        trust = [n for n in trust if n not in allies]
    by_card = told_today(v)
    for card in v["today"]["required"]:
        for name in trust:
            if len(members) < size and name not in members and by_card.get(name) == card:
                members.append(name)
                break
    for name in [*trust, *everyone]:  # other witches only when nobody else is left
        if len(members) < size and name not in members:
            members.append(name)
    return members[:size]


def _approval(v: View, me: dict, rng: Rng) -> BotMove:
    if not v["your_turn"]:
        return _seer_or_pickpocket(v, me, rng)
    members = v["today"]["proposals"][-1]["members"]
    if v["curse"] >= v["curse_capacity"] - 1:
        return {"type": "approve", "yes": True}  # a full gauge only costs the village
    if _witch_side(me):
        allies = set(me.get("witches", [])) | {me["name"]}
        if me["role"] == "crow":
            allies.discard(me["name"])
        if allies & set(members):
            return {"type": "approve", "yes": True}
        return {"type": "approve", "yes": _looks_clean(v, me, members)
                and not rng.chance(WITCH_REJECT_CHANCE)}  # fmt: skip
    bait = me["role"] == "jester" and rng.chance(JESTER_REJECT_CHANCE)  # looks like a witch
    return {"type": "approve", "yes": _looks_clean(v, me, members) and not bait}


def _looks_clean(v: View, me: dict, members: list[str]) -> bool:
    """Nearly as likely to be free of saboteurs as the best ritual of other cats (a cat
    trusts itself: measured against rituals with itself on them, it said no to every
    ritual it was left off, and day 1 always ran to the curse gauge's last proposal)."""
    mind = _mind(v)
    others = [n for n in humans(v) if n != me["name"]]
    best = sorted(others, key=lambda n: (mind.saboteur[n], others.index(n)))[: len(members)]
    return mind.clean(members) >= APPROVE_RATIO * mind.clean(best)


def _ritual(v: View, me: dict, rng: Rng) -> BotMove:
    if not v["your_turn"]:
        return _seer_or_pickpocket(v, me, rng)
    playable = me["playable"]
    required = v["today"]["required"]
    members = v["today"]["ritual_members"]
    if me["role"] == "witch" and _sabotages(v, me, members):
        return {"type": "play_card", "card": NIGHTSHADE}
    witches_on_it = set(me.get("witches", [])) & set(members)
    if me["role"] == "crow" and not witches_on_it and rng.chance(CROW_SABOTAGE_CHANCE):
        return {"type": "play_card", "card": NIGHTSHADE}
    if me["role"] == "jester" and rng.chance(JESTER_SABOTAGE_CHANCE):  # wants to look guilty
        wrong = [c for c in playable if c not in required]
        if wrong:
            return {"type": "play_card", "card": wrong[0]}
    part = ritual_parts(v)[me["name"]]
    if part in playable:
        return {"type": "play_card", "card": part}
    useful = [c for c in required if c in playable]
    if useful:
        return {"type": "play_card", "card": useful[0]}
    cards = [c for c in playable if c != NIGHTSHADE]
    return {"type": "play_card", "card": cards[0] if cards else EMPTY_PAW}


def _sabotages(v: View, me: dict, members: list[str]) -> bool:
    """One witch of a ritual sabotages it (the one the table trusts most), unless the
    failure would leave her about to be exiled: then she plays true and waits, except
    when the ritual would complete the seals or it is the Knights' day."""
    witches = [n for n in members if n == me["name"] or n in me["witches"]]
    odds = _mind(v).saboteur
    if min(witches, key=lambda n: (odds[n], members.index(n))) != me["name"]:
        return False
    if v["seals"] + 1 >= v["seals_to_win"] or v["day"] >= v["knights_day"]:
        return True
    names = [p["name"] for p in v["players"]]
    after = belief(v, private=False, then=failed_ritual(names, members)).witch[me["name"]]
    return after < _exile_at(v) * WITCH_CAUTION


def ritual_parts(v: View) -> dict[str, str]:
    """Which needed card each member brings, by the convention every bot reads alike: the
    ingredient a member was told to gather today where it is still needed, then the
    needed cards left over, in order, for the members left over. Without it two members
    told to gather Fish both played Fish for a ritual needing one."""
    members = v["today"]["ritual_members"]
    left = list(v["today"]["required"])
    told = told_today(v)
    parts: dict[str, str] = {}
    for name in members:
        card = told.get(name)
        if card is not None and card.value in left:
            parts[name] = card.value
            left.remove(card.value)
    for name in members:
        if name not in parts:
            parts[name] = left.pop(0) if left else EMPTY_PAW
    return parts


def _vote(v: View, me: dict, rng: Rng) -> BotMove:
    if not v["your_turn"]:
        return None
    options = [n for n in humans(v) if n != me["name"]]
    if not options or (me["role"] == "jester" and not rng.chance(JESTER_VOTES)):
        return {"type": "vote", "target": None}
    mind = _mind(v)
    odds = mind.witch
    final_day = v["day"] >= v["knights_day"]
    needed = _exile_at(v)
    if _witch_side(me):
        # Together, on the village's likeliest cat who is not a witch, a little before the
        # village would vote: their votes look like its own, and a vote on a witch splits
        # (a tie exiles no one).
        allies = set(me.get("witches", []))
        witches = _known_witches(me)
        if not final_day and max(odds[n] for n in options) < needed * WITCH_VOTE_EARLY:
            return {"type": "vote", "target": None}
        jesters = _likely_jesters(v, me, lambda members: 0.0 if witches & set(members) else 1.0)
        options = [n for n in options if n not in allies | jesters]
        return {"type": "vote", "target": _likeliest(options, odds) if options else None}
    jesters = _likely_jesters(v, me, mind.clean)
    options = [n for n in options if n not in jesters]
    if not options:
        return {"type": "vote", "target": None}
    target = _likeliest(options, odds)
    if odds[target] >= needed or final_day:
        if gentle(v) and rng.chance(GENTLE_STRAY_VOTE):
            target = rng.choice(options)
        return {"type": "vote", "target": target}
    return {"type": "vote", "target": None}


def _likely_jesters(v: View, me: dict, clean: Callable[[list[str]], float]) -> set[str]:
    """The cats too likely to be the Jester to vote out (SPARE_JESTER). How likely, from
    how each said yes or no to rituals likely free of saboteurs (``clean``: the witches
    know which had a witch on them; a villager goes by its belief) and whether it voted
    to exile; a cat exiled is not him (the game would be over). Each cat starts even:
    the belief reads the Jester's bait as a saboteur's, so starting from the chance not
    to be one would count that bait twice (measured: the village then voted the Jester
    out twice as often)."""
    if not v["role_set"].get("jester"):
        return set()
    witches = _known_witches(me)
    weight = {
        p["name"]: 1.0
        for p in v["players"]
        if p["form"] != "exiled" and p["name"] not in witches | {me["name"]}
    }
    for day in days_so_far(v):
        for proposal in day["proposals"]:
            if proposal.get("yes") is None:
                continue
            chance = clean(proposal["members"])  # a witch on it: the Jester says no as a cat
            for name in set(proposal["yes"]) & weight.keys():
                weight[name] *= 1 + chance * (JESTER_YES_TO_CLEAN - 1)
            for name in set(proposal["no"]) & weight.keys():
                weight[name] *= 1 + chance * (JESTER_NO_TO_CLEAN - 1)
        for voter, target in ((day["vote"] or {}).get("votes") or {}).items():
            if voter in weight:
                weight[voter] *= JESTER_CASTS if target else JESTER_SKIPS
    total = sum(weight.values())
    bar = max(SPARE_JESTER, SPARE_OVER_AVERAGE / max(1, len(weight))) * total
    return {name for name, w in weight.items() if total and w >= bar}


def _known_witches(me: dict) -> set[str]:
    """The witches this cat knows: the witch side's team (§2.3), the Seer's finds."""
    witches = set(me.get("witches", [])) | ({me["name"]} if me["role"] == "witch" else set())
    return witches | {look["target"] for look in me.get("seer_results", []) if look["witch"]}


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
