"""Bot players for Burn the Witch: legal, sensible choices from a player's own view.

``choose_move(view, rng)`` reads only the dict views.py built for that player (what their
phone shows), so a bot can never cheat, and the bots check that the views carry what a
player needs. Every move is one ``me.can`` allows, on the choices the view lists.

How they reason (RULES-burn-the-witch):

- Everyone values each living villager as a target: how much burning it serves their side.
- A **zealot** (§1) knows their own house is innocent and looks for witches elsewhere: a
  house that has burned a witch belongs to a sympathizer (its other villagers are less
  likely witches: only a coven holds two); the rest is suspicion read from the public
  record: who, as executioner or accuser, keeps burning innocents; whose houses keep being
  spared (a save outcome on a trait they show, by the share of save votes);
  who pointed at whom in a Trial by Fire and what that player's burned villager was.
- A **sympathizer dealt a witch** knows every sympathizer (§2), so every other house is
  innocent: they steer burns there, most of all into zealots' houses, never into their own
  (they do not know which of their villagers is the witch). To look like a zealot, their
  pick among equally good villagers leans to the houses the table suspects.
- A **bewitched** sympathizer knows only their own side: they read the table like a
  zealot and aim at the villagers least likely to be witches.
- The coven taps a player who will execute for an ally (the ally's right neighbour).
"""

import math
from collections import Counter
from dataclasses import dataclass, field

from ..game import BotMove, View
from ..rng import Rng

#: Strategy knobs (bots only; the rules' [design] numbers live in tables.py).
#: Suspicion a free choice (an executioner's, an accuser's) earns by the identity it burned.
BURNED_INNOCENT_SUSPICION = 0.6
BURNED_WITCH_TRUST = 1.0
ACCUSED_INNOCENT_SUSPICION = 0.3
ACCUSED_WITCH_TRUST = 0.4
#: Spared houses: a save outcome on a trait a house shows, weighted by the share of save
#: votes; and a house keeping more villagers than the average, per villager.
SPARED_SUSPICION = 0.4
SPARED_PER_VILLAGER = 0.15
#: Trial by Fire: pointers at a player whose burned villager was a witch are trusted more.
POINTED_AT_WITCH_TRUST = 0.5
POINTED_AT_INNOCENT_SUSPICION = 0.2
#: A house that burned a witch is a sympathizer's; its other villagers are witches only
#: if it held a coven.
AFTER_WITCH_WEIGHT = 0.3
#: A witch-holding sympathizer's value of a villager by its house (certainly innocent in a
#: zealot's house; a bewitched ally's house is innocent too but costs an ally its votes).
ZEALOT_HOUSE_VALUE = 1.0
BEWITCHED_ALLY_VALUE = 0.5
WITCH_ALLY_VALUE = 0.15
#: The suspicion at which a player is as likely a sympathizer as a zealot.
SUSPICION_MIDPOINT = 1.0
#: An innocent burned by an executioner's choice: its house was likely no sympathizer's
#: (a sympathizer executioner never burns an ally's).
BURNED_FROM_TRUST = 0.3
#: How much a sympathizer's choice leans to the table's suspects, to pass for a zealot.
DISGUISE = 0.3
#: A zealot's cost of uncovering a likely innocent in a hexed house (§5: they lose one of
#: their own innocents for it).
HEX_RISK = 0.5


def choose_move(view: View, rng: Rng) -> BotMove:
    """The move this player makes now, or None when they have nothing to do."""
    me = view.get("me")
    if not me or view["over"]:
        return None
    can = set(me.get("can", ()))
    if me.get("my_vote") is not None:
        can.discard("vote")  # a bot votes once (a vote may be changed, §3.2)
    if me.get("my_point") is not None:
        can.discard("point")  # and locks its point at once (§4)
    decisions = [decide for kind, decide in _DECISIONS if kind in can]
    if not decisions:
        return None
    reading = Reading.of(view)
    for decide in decisions:
        move = decide(reading, rng)
        if move is not None:
            return move
    return None


# -- what a view tells -------------------------------------------------------------------------
@dataclass
class Reading:
    """What one player knows, worked out from their view once per decision."""

    view: View
    me: str
    faction: str
    #: Sympathizers this player knows, by kind (coven / witch / bewitched); themself included.
    allies: dict[str, str]
    owner: dict[str, str] = field(default_factory=dict)
    traits: dict[str, list[str]] = field(default_factory=dict)
    hexed: set[str] = field(default_factory=set)
    suspicion: Counter = field(default_factory=Counter)
    witch_chance: dict[str, float] = field(default_factory=dict)

    @classmethod
    def of(cls, view: View) -> "Reading":
        me = view["me"]
        allies = {s["name"]: s["kind"] for s in me.get("sympathizers") or []}
        if me["faction"] == "sympathizer" and me["name"] not in allies:
            allies[me["name"]] = "bewitched" if me.get("bewitched_from") else "witch"
        reading = cls(view=view, me=me["name"], faction=me["faction"], allies=allies)
        for house in view["houses"]:
            if house["hexed"]:
                reading.hexed.add(house["owner"])
            for villager in house["villagers"]:
                reading.owner[villager["name"]] = house["owner"]
                reading.traits[villager["name"]] = villager["traits"]
        reading.suspicion = public_suspicion(view)
        reading.witch_chance = witch_chances(view, reading.suspicion, exclude=reading.me)
        return reading

    @property
    def knows_the_sympathizers(self) -> bool:
        """§2: a sympathizer dealt a witch sees every sympathizer."""
        return self.faction == "sympathizer" and self.allies.get(self.me) != "bewitched"

    def living(self, owner: str) -> int:
        return sum(1 for o in self.owner.values() if o == owner)

    def value(self, villager: str) -> float:
        """How much burning ``villager`` serves this player's side (higher is better)."""
        owner = self.owner[villager]
        chance = self.witch_chance.get(villager, 0.0)
        if self.faction == "zealot":
            if owner == self.me:
                return -1.0  # certainly innocent, and one of my votes
            risk = HEX_RISK * (1 - chance) if owner in self.hexed else 0.0
            return chance - risk
        if owner == self.me:
            return -1.0 if self.knows_the_sympathizers else 0.05
        if self.knows_the_sympathizers:
            kind = self.allies.get(owner)
            base = {None: ZEALOT_HOUSE_VALUE, "bewitched": BEWITCHED_ALLY_VALUE}.get(
                kind, WITCH_ALLY_VALUE
            )
            return base + DISGUISE * chance
        return 1.0 - chance

    def house_value(self, owner: str) -> float:
        """The value of a villager of ``owner``'s house drawn at random."""
        values = [self.value(v) for v, o in self.owner.items() if o == owner]
        return sum(values) / len(values) if values else 0.0

    def best(self, villagers: list[str], rng: Rng) -> str:
        """The most valuable of ``villagers``; ties drawn at random."""
        values = {v: self.value(v) for v in villagers}
        top = max(values.values())
        return rng.choice(sorted(v for v, x in values.items() if x >= top - 1e-9))

    def expected(self, villagers: list[str], chooser: str | None) -> float:
        """What a burn among ``villagers`` is worth to this player when ``chooser`` picks:
        the best of them if the chooser is on this player's side, the worst if not, weighed
        by how likely that is. Nothing complying: anyone may burn (§3)."""
        group = villagers or list(self.owner)
        if not group:
            return 0.0
        values = [self.value(v) for v in group]
        friendly = self.on_my_side(chooser)
        return friendly * max(values) + (1 - friendly) * min(values)

    def on_my_side(self, player: str | None) -> float:
        """The chance ``player`` plays for this player's side: known for oneself and, for a
        sympathizer dealt a witch, for everyone; otherwise read from their suspicion."""
        if player is None:
            return 0.5
        if player == self.me:
            return 1.0
        if self.knows_the_sympathizers:
            return 1.0 if player in self.allies else 0.0
        sympathizer = 1 / (1 + math.exp(-(self.suspicion[player] - SUSPICION_MIDPOINT)))
        return sympathizer if self.faction == "sympathizer" else 1 - sympathizer


def _burns(view: View) -> list[tuple[str, dict]]:
    """Every burned villager with its house's owner."""
    return [(house["owner"], b) for house in view["houses"] for b in house["burned"]]


def _innocent(identity: str) -> bool:
    return identity in ("innocent", "devout")


def public_suspicion(view: View) -> Counter:
    """How much the public record (the history, views.py) points at each player being a
    sympathizer: the burned witches' owners for certain; then who chose what burned."""
    score: Counter = Counter()
    for owner, burned in _burns(view):
        if burned["identity"] == "witch":
            score[owner] += 5.0  # §1: dealt a witch, so a sympathizer
    accuser = trait = outcome = None
    save_share = 0.0
    points: dict[str, str] = {}
    chosen = None
    for event in view.get("history") or []:
        kind = event.get("kind")
        if kind == "accuse":
            accuser, trait, outcome = event["accuser"], event["trait"], None
        elif kind == "vote":
            outcome = event["outcome"]
            total = event["burn"] + event["save"]
            save_share = event["save"] / total if total else 0.0
        elif kind == "trial":
            points, chosen = event["points"], event["chosen"]
        elif kind == "burn" and event["cause"] == "execution":
            innocent = _innocent(event["identity"])
            by = event["by"]
            score[by] += BURNED_INNOCENT_SUSPICION if innocent else -BURNED_WITCH_TRUST
            if innocent and event["owner"] != by:
                score[event["owner"]] -= BURNED_FROM_TRUST
            if accuser is not None:
                score[accuser] += ACCUSED_INNOCENT_SUSPICION if innocent else -ACCUSED_WITCH_TRUST
            if outcome == "save" and trait is not None:
                _spared(view, trait, save_share, score)
            accuser = None
        elif kind == "burn" and event["cause"] == "trial" and event["owner"] == chosen:
            innocent = _innocent(event["identity"])
            for pointer, target in points.items():
                if target == chosen:
                    score[pointer] += (
                        POINTED_AT_INNOCENT_SUSPICION if innocent else -POINTED_AT_WITCH_TRUST
                    )
            chosen = None
    living = {h["owner"]: len(h["villagers"]) for h in view["houses"]}
    if living:
        mean = sum(living.values()) / len(living)
        for owner, count in living.items():
            score[owner] += SPARED_PER_VILLAGER * (count - mean)
    return score


def _spared(view: View, trait: str, save_share: float, score: Counter) -> None:
    """A save outcome on ``trait``: the houses still showing it were spared, the more
    suspiciously the larger the share of save votes. (Past ballots of one's own are not in
    the view, §7, so the share is of every vote.)"""
    me = view["me"]["name"]
    for house in view["houses"]:
        if house["owner"] != me and any(trait in v["traits"] for v in house["villagers"]):
            score[house["owner"]] += SPARED_SUSPICION * save_share


def witch_chances(view: View, suspicion: Counter, exclude: str | None) -> dict[str, float]:
    """Each living villager's chance to be a witch, the witches left shared out among the
    houses (not ``exclude``'s, which its owner knows) by suspicion."""
    witch_houses = {owner for owner, b in _burns(view) if b["identity"] == "witch"}
    weights: dict[str, float] = {}
    for house in view["houses"]:
        owner = house["owner"]
        if owner == exclude:
            continue
        weight = math.exp(max(-4.0, min(4.0, suspicion[owner] - 5.0 * (owner in witch_houses))))
        if owner in witch_houses:
            weight *= AFTER_WITCH_WEIGHT
        for villager in house["villagers"]:
            weights[villager["name"]] = weight
    total = sum(weights.values())
    left = view.get("witches_left", 0)
    if not total:
        return dict.fromkeys(weights, 0.0)
    return {v: min(0.95, left * w / total) for v, w in weights.items()}


# -- the moves ---------------------------------------------------------------------------------
def _seats(view: View) -> list[str]:
    return [p["name"] for p in sorted(view["players"], key=lambda p: p["seat"])]


def _bewitch(r: Reading, rng: Rng) -> BotMove:
    """§2: the first non-sympathizer each way is the candidate. A player is the executioner
    of the player to their left (§3.2: the accuser's nearest right), so the coven taps a
    candidate whose left neighbour is a sympathizer: when that ally accuses, the bewitched
    burns. Going right that always holds; going left, only if an ally sits beyond."""
    seats = _seats(r.view)
    count = len(seats)
    at = seats.index(r.me)

    def candidate(step: int) -> int:
        return next((at + step * k) % count for k in range(1, count)
                    if seats[(at + step * k) % count] not in r.allies)  # fmt: skip

    left = candidate(+1)  # left is the next seat clockwise
    if seats[(left + 1) % count] in r.allies:
        return {"type": "bewitch", "direction": rng.choice(["left", "right"])}
    return {"type": "bewitch", "direction": "right"}


def _split(r: Reading, trait: str) -> tuple[list[str], list[str]]:
    """The villagers a burn and a save would let the executioner take (§3)."""
    burn = [v for v, traits in r.traits.items() if trait in traits]
    save = [v for v, traits in r.traits.items() if trait not in traits]
    return burn, save


def _accuse(r: Reading, rng: Rng) -> BotMove:
    """The trait whose round is worth most: each house is expected to vote to save its own
    villagers, so a burn passes about as often as the accused are few."""
    shown = sorted({t for traits in r.traits.values() for t in traits})
    if not shown:
        return None
    executioner = r.view.get("executioner")
    scores = {}
    for trait in shown:
        burn, save = _split(r, trait)
        passes = len(save) / (len(burn) + len(save))
        scores[trait] = passes * r.expected(burn, executioner) + (1 - passes) * r.expected(
            save, executioner
        )
    top = max(scores.values())
    return {"type": "accuse", "trait": rng.choice([t for t in shown if scores[t] >= top - 1e-9])}


def _vote(r: Reading, rng: Rng) -> BotMove:
    if not r.view.get("accused_trait"):
        return None
    tokens = r.living(r.me)
    burn, save = _split(r, r.view["accused_trait"])
    executioner = r.view.get("executioner")
    for_burn, for_save = r.expected(burn, executioner), r.expected(save, executioner)
    if abs(for_burn - for_save) < 1e-9:
        half = rng.below(tokens + 1)
        return {"type": "vote", "burn": half, "save": tokens - half}
    burning = tokens if for_burn > for_save else 0
    return {"type": "vote", "burn": burning, "save": tokens - burning}


def _execute(r: Reading, rng: Rng) -> BotMove:
    choices = r.view.get("complying") or list(r.owner)
    return {"type": "execute", "villager": r.best(choices, rng)} if choices else None


def _point(r: Reading, rng: Rng) -> BotMove:
    trial = r.view.get("trial") or {}
    targets = [t for t in trial.get("targets", []) if t != r.me]
    if not targets:
        return None
    if r.knows_the_sympathizers:  # a zealot's house loses an innocent: the more it holds
        ranked = {t: (t not in r.allies) * 10 + r.living(t) + DISGUISE * r.suspicion[t]
                  for t in targets}  # fmt: skip
    else:  # the chosen player burns one of their own at random: their house's mean value
        ranked = {t: r.house_value(t) for t in targets}
    top = max(ranked.values())
    target = rng.choice([t for t in targets if ranked[t] >= top - 1e-9])
    return {"type": "point", "target": target, "locked": True}


def _choose_villager(r: Reading, rng: Rng) -> BotMove:
    pending = r.view.get("pending") or {}
    choices = pending.get("choices") or []
    if not choices:
        return None
    if pending.get("payer") == r.me:  # my own villager: I do not know who hides what
        return {"type": "choose_villager", "villager": rng.choice(choices)}
    return {"type": "choose_villager", "villager": r.best(choices, rng)}


def _retribute(r: Reading, rng: Rng) -> BotMove:
    """§5: lay the hex penalty on a pointer who is not an ally, the one with most villagers."""
    pending = r.view.get("pending") or {}
    targets = [t for t in pending.get("choices") or [] if t not in r.allies]
    if not targets:
        return {"type": "retribute", "target": None}
    most = max(r.living(t) for t in targets)
    return {"type": "retribute", "target": rng.choice([t for t in targets if r.living(t) == most])}


_DECISIONS = [
    ("bewitch", _bewitch),
    ("accuse", _accuse),
    ("vote", _vote),
    ("execute", _execute),
    ("point", _point),
    ("choose_villager", _choose_villager),
    ("retribute", _retribute),
]
