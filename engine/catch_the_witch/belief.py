"""What a bot believes about who the witches are: the deduction behind its moves (issue 17).

A bot weighs every possible set of *saboteurs* (the witches and the Crow: the cats that
may play Nightshade) by how well it explains what its view shows:

- a ritual's result and members: a ritual with a saboteur on it usually fails, one
  without usually succeeds (cards can still be missing, snatched or rotten);
- frogs: a cat turned into a frog was a witch's target, so rarely a witch; and by the
  bots' table convention (``told_today``: "who gathers what") the cats told to gather
  where the frog was would have been witnesses (the Crow too: she gathers with the cats),
  so beyond the witnesses a Frog allows at this table (the view's ``frog_witnesses``)
  they are witches (who choose their own place) or were not there;
- the yes/no votes: a saboteur says yes to a ritual with a saboteur on it and often no
  to one without, a villager mostly says yes;
- the exile votes: a saboteur does not vote for another;
- what this cat knows alone: it is not a saboteur (villager side), the Seer's looks
  (a "Not a witch" may still be the Crow), a role shown on exile;
- the game going on: a witch (not only the Crow) is still in human form (RULES §1).

The public part of the weights is the same for every cat and grows one fact at a time,
so it is cached by its facts (``_public_weights``), one fact added to the cached weights
of the facts before it; only the private part is computed per cat. A bot's view is all
it reads: the belief can never use what its cat may not know.
"""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from math import comb, exp, log
from typing import Any

from . import tables
from .domain import Ingredient

View = dict[str, Any]
Fact = tuple

# -- how likely each fact is under a set of saboteurs (bot knowledge, not rules) -----------
# The numbers are measured on the bots themselves (``python -m engine.simulate``'s games,
# docs/balance.md "How the bots deduce"), so the belief expects what the bots do.
#: A cat the public facts make a saboteur less likely than this share of the odds every
#: cat starts with (saboteurs / cats) is "unsuspected"; of the exile votes villagers cast,
#: this share is on an unsuspected cat (the Seer's finds, a village misled), and of the
#: saboteurs' (the witches pushing an exile) this share. (0.93: measured as 0.35 at 8
#: cats, whose odds start at 3/8.)
UNSUSPECTED_OF_START = 0.93
ODD_VOTE_FROM_VILLAGER = 0.05
ODD_VOTE_FROM_SABOTEUR = 0.13
#: A villager / a saboteur votes to exile someone (does not skip) this often.
CAST_BY_VILLAGER = 0.5
CAST_BY_SABOTEUR = 0.62
#: A ritual with a saboteur among its members fails this often (witches sabotage nearly
#: always; two on one ritual, or the Crow alone, a little less).
FAIL_WITH_SABOTEUR = 0.93
#: Each member of a ritual without a saboteur brings its needed card this often (a
#: guarding Knight gathered nothing; a card was snatched or rotten; the Jester baits):
#: so such a ritual fails more often the bigger it is.
MEMBER_BRINGS_CARD = 0.85
#: A villager / a saboteur says yes to a ritual with a saboteur on it, and to one without.
YES_FROM_VILLAGER_DIRTY = 0.74
YES_FROM_VILLAGER_CLEAN = 0.87
YES_FROM_SABOTEUR_DIRTY = 0.88
YES_FROM_SABOTEUR_CLEAN = 0.6
#: A saboteur is this likely to be a Frog's target, relative to a villager: witches frog
#: the village (a witch who does not know the Crow may frog her, rarely another witch).
FROGGED_SABOTEUR = 0.15
#: The chance that a cat told to gather where a frog was (beyond the witnesses the Frog
#: allows) was not there, though not a witch: a guarding Knight, a cat who strayed from
#: the convention. A witch chooses her own place, so she explains the frog at no cost.
ABSENT_NOT_WITCH = 0.1
#: A saboteur voting to exile another saboteur (witches vote with the village, never
#: against each other).
SABOTEUR_VOTES_SABOTEUR = 0.25

_FAIL_SAB = log(FAIL_WITH_SABOTEUR)
_OK_SAB = log(1 - FAIL_WITH_SABOTEUR)
#: log-likelihood ratios of one yes/no vote by a saboteur against a villager's.
_YES_ALLY = log(YES_FROM_SABOTEUR_DIRTY / YES_FROM_VILLAGER_DIRTY)
_NO_ALLY = log((1 - YES_FROM_SABOTEUR_DIRTY) / (1 - YES_FROM_VILLAGER_DIRTY))
_YES_CLEAN = log(YES_FROM_SABOTEUR_CLEAN / YES_FROM_VILLAGER_CLEAN)
_NO_CLEAN = log((1 - YES_FROM_SABOTEUR_CLEAN) / (1 - YES_FROM_VILLAGER_CLEAN))
_ODD_VOTE = log(ODD_VOTE_FROM_SABOTEUR / ODD_VOTE_FROM_VILLAGER)
_USUAL_VOTE = log((1 - ODD_VOTE_FROM_SABOTEUR) / (1 - ODD_VOTE_FROM_VILLAGER))
_CAST = log(CAST_BY_SABOTEUR / CAST_BY_VILLAGER)
_SKIP = log((1 - CAST_BY_SABOTEUR) / (1 - CAST_BY_VILLAGER))
_FROGGED = log(FROGGED_SABOTEUR)
_ABSENT = log(ABSENT_NOT_WITCH)
_VOTE_ALLY = log(SABOTEUR_VOTES_SABOTEUR)
#: A hypothesis ruled out (what a cat knows for sure).
_IMPOSSIBLE = -1e9


@dataclass(frozen=True)
class Belief:
    """One cat's belief: for each cat, the chance it is a saboteur (witch or Crow) and
    a witch; ``clean(members)`` the chance a ritual of these members has no saboteur."""

    names: tuple[str, ...]
    saboteur: dict[str, float]
    witch: dict[str, float]
    _masks: tuple[int, ...]
    _weights: tuple[float, ...]

    def clean(self, members: Iterable[str]) -> float:
        team = _mask_of(self.names, members)
        total = sum(self._weights)
        free = sum(w for m, w in zip(self._masks, self._weights, strict=True) if not m & team)
        return free / total


def belief(v: View, private: bool = True, then: Fact | None = None) -> Belief:
    """What this cat's view lets it believe; ``private=False``: what the table can, from
    the public facts alone (how the witches guess the village's mind, to blend in);
    ``then``: …once this fact has happened too (a witch weighing a sabotage)."""
    names = tuple(p["name"] for p in v["players"])
    roles = v["role_set"]
    witches, crows = roles.get("witch", 0), roles.get("crow", 0)
    facts = public_facts(v) + ((then,) if then else ())
    masks = _hypotheses(len(names), witches + crows)
    certain = _certain(v, names) if private else {}
    weighed = _weigh(
        names, masks, _public_weights(len(names), witches + crows, facts), certain, witches, crows
    )
    if weighed is None and facts:
        # The facts contradict what this cat knows for sure (a bot strayed from what the
        # belief expects): believe what it knows, on the starting odds.
        weighed = _weigh(names, masks, (0.0,) * len(masks), certain, witches, crows)
    return weighed or _flat(v, names)


def _weigh(
    names: tuple[str, ...],
    masks: tuple[int, ...],
    logliks: Sequence[float],
    certain: dict[int, str],
    witches: int,
    crows: int,
) -> Belief | None:
    """The belief from each hypothesis' log-likelihood, keeping those this cat's sure
    knowledge allows; None if it allows none."""
    allowed = [_allowed(m, certain, crows) for m in masks]
    top = max((w for w, ok in zip(logliks, allowed, strict=True) if ok), default=None)
    if top is None:
        return None
    saboteur = dict.fromkeys(names, 0.0)
    witch = dict.fromkeys(names, 0.0)
    kept_masks: list[int] = []
    kept: list[float] = []
    for mask, loglik, ok in zip(masks, logliks, allowed, strict=True):
        if not ok:
            continue
        weight = exp(loglik - top)
        # A cleared cat inside a set can only be its Crow: the chance it is.
        weight *= (crows / mask.bit_count()) ** _cleared_inside(mask, certain)
        if weight < 1e-12:
            continue
        kept_masks.append(mask)
        kept.append(weight)
        for i in _bits(mask):
            saboteur[names[i]] += weight
            witch[names[i]] += weight * _witch_chance(i, mask, certain, witches)
    total = sum(kept)
    return Belief(
        names,
        {n: p / total for n, p in saboteur.items()},
        {n: p / total for n, p in witch.items()},
        tuple(kept_masks),
        tuple(kept),
    )


def _flat(v: View, names: tuple[str, ...]) -> Belief:
    share = sum(v["role_set"].get(r, 0) for r in ("witch", "crow")) / max(1, len(names) - 1)
    masks = (0,)
    return Belief(names, dict.fromkeys(names, share), dict.fromkeys(names, share), masks, (1.0,))


def _cleared_inside(mask: int, certain: dict[int, str]) -> int:
    return sum(1 for i, known in certain.items() if known == "cleared" and mask >> i & 1)


def _witch_chance(i: int, mask: int, certain: dict[int, str], witches: int) -> float:
    """Within a set of saboteurs, the chance its member ``i`` is a witch, not the Crow: a
    cat known to be the Crow, or cleared (only the Crow in the set can be), is not; the
    witches not yet known are spread over the members not yet known."""
    known = certain.get(i)
    if known in ("crow", "cleared"):
        return 0.0
    if known == "witch":
        return 1.0
    inside = [certain.get(j) for j in _bits(mask)]
    known_witches = inside.count("witch")
    unknown = len(inside) - known_witches - inside.count("crow") - inside.count("cleared")
    return (witches - known_witches) / unknown if unknown else 1.0


def _allowed(mask: int, certain: dict[int, str], crows: int) -> bool:
    """Whether a set of saboteurs agrees with what this cat knows for sure."""
    as_crow = 0  # members that can only be the Crow
    for i, known in certain.items():
        inside = mask >> i & 1
        if known in ("witch", "crow") and not inside:
            return False
        if known == "innocent" and inside:
            return False
        if known in ("crow", "cleared") and inside:
            as_crow += 1
    return as_crow <= crows


def _certain(v: View, names: tuple[str, ...]) -> dict[int, str]:
    """What this cat knows for sure: seat index → "witch", "crow", "innocent" (neither),
    "cleared" (not a witch: innocent or the Crow)."""
    me = v["me"]
    index = {name: i for i, name in enumerate(names)}
    known: dict[int, str] = {}
    if me["role"] in ("witch", "crow"):
        for name in me.get("witches", []):
            known[index[name]] = "witch"
    known[index[me["name"]]] = me["role"] if me["role"] in ("witch", "crow") else "innocent"
    for result in me.get("seer_results", []):
        known[index[result["target"]]] = "witch" if result["witch"] else "cleared"
    for day in v["history"]:
        role = day.get("exiled_role")
        if role and day["vote"] and day["vote"].get("exiled"):
            target = index[day["vote"]["exiled"]]
            known[target] = role if role in ("witch", "crow") else "innocent"
    return known


# -- the public facts, in the order they happened --------------------------------------------
def public_facts(v: View) -> tuple[Fact, ...]:
    """Every public fact, by seat index, oldest first (so a new fact extends the tuple and
    the cached weights of the facts before it are reused)."""
    names = [p["name"] for p in v["players"]]
    index = {name: i for i, name in enumerate(names)}
    crows = v["role_set"].get("crow", 0)
    facts: list[Fact] = []
    allowed = v["frog_witnesses"]  # witnesses a Frog may have at this table (§5)
    for day, humans in _mornings(v):
        told = _told(day, humans)
        for frog in day["new_frogs"]:
            place = tables.place_of(told[frog]) if frog in told else None
            with_it = [
                n for n in humans if n != frog and n in told and tables.place_of(told[n]) == place
            ]
            facts.append(("frog", index[frog], tuple(index[n] for n in with_it), allowed, crows))
        for proposal in day["proposals"]:
            if proposal.get("yes") is not None:
                facts.append((
                    "approval",
                    _mask_of(names, proposal["members"]),
                    tuple(index[n] for n in proposal["yes"]),
                    tuple(index[n] for n in proposal["no"]),
                ))  # fmt: skip
        if day["ritual_result"] in ("success", "failure") and day["ritual_members"]:
            facts.append(
                (
                    "ritual",
                    _mask_of(names, day["ritual_members"]),
                    day["ritual_result"] == "failure",
                )
            )
        vote = day["vote"]
        if vote:
            votes = tuple(
                (index[voter], index[target])
                for voter, target in vote["votes"].items()
                if target is not None
            )
            skips = tuple(index[voter] for voter, target in vote["votes"].items() if target is None)
            facts.append(("exile_vote", votes, skips))
    alive = _mask_of(names, [p["name"] for p in v["players"] if p["form"] == "human"])
    if v["outcome"] is None and alive:
        facts.append(("going_on", alive, crows))
    return tuple(facts)


def _mornings(v: View) -> list[tuple[dict[str, Any], list[str]]]:
    """Each day so far (today last) with the cats in human form at its place choice, in
    seat order: the day's frogs and restorations come after it, its exile at night."""
    names = [p["name"] for p in v["players"]]
    form = dict.fromkeys(names, "human")
    mornings = []
    for day in [*v["history"], *([v["today"]] if v["today"] else [])]:
        mornings.append((day, [n for n in names if form[n] == "human"]))
        form.update(dict.fromkeys(day["new_frogs"], "frog"))
        form.update(dict.fromkeys(day["restored"], "human"))
        if day["vote"] and day["vote"].get("exiled"):
            form[day["vote"]["exiled"]] = "exiled"
    return mornings


def told_today(v: View) -> dict[str, Ingredient]:
    """The public convention (every bot follows it; real players say "I'll go to the
    river"): who was told to gather which of today's ingredients, all day long, whatever
    frogs and restorations the day brings."""
    mornings = _mornings(v)
    if not v["today"] or not mornings:
        return {}
    return _told(*mornings[-1])


def _told(day: dict[str, Any], humans: Sequence[str]) -> dict[str, Ingredient]:
    """The convention: the cats in human form at the place choice, in seat order, are told
    the day's ingredients in turn (as drawn in the morning: the evening may drop some,
    §2.2, but what each cat gathered stays)."""
    drawn = [*day["required"], *day.get("dropped", [])]
    if not drawn:
        return {}
    return {name: Ingredient(drawn[(i + day["day"]) % len(drawn)]) for i, name in enumerate(humans)}


# -- the weights ---------------------------------------------------------------------------
@lru_cache(maxsize=64)
def _hypotheses(count: int, size: int) -> tuple[int, ...]:
    """Every set of ``size`` saboteurs among ``count`` seats, as bit masks."""
    return tuple(sum(1 << i for i in chosen) for chosen in combinations(range(count), size))


@lru_cache(maxsize=512)  # a game's chain of facts is ~30 long: room for many games at once
def _public_weights(count: int, size: int, facts: tuple[Fact, ...]) -> tuple[float, ...]:
    """Each hypothesis' log-likelihood of the public facts (cached one fact at a time)."""
    masks = _hypotheses(count, size)
    if not facts:
        return (0.0,) * len(masks)
    before = _public_weights(count, size, facts[:-1])
    fact = facts[-1]
    if fact[0] == "exile_vote":  # judged by what the table believed when it was cast
        fact = (*fact, _unsuspected(count, masks, before))
    return tuple(w + _loglik(fact, m) for w, m in zip(before, masks, strict=True))


def _unsuspected(count: int, masks: tuple[int, ...], weights: tuple[float, ...]) -> int:
    """The seats the public facts so far make unlikely saboteurs (as a bit mask)."""
    top = max(weights)
    bar = UNSUSPECTED_OF_START * masks[0].bit_count() / count
    odds = [0.0] * count
    total = 0.0
    for mask, loglik in zip(masks, weights, strict=True):
        weight = exp(loglik - top)
        total += weight
        for i in _bits(mask):
            odds[i] += weight
    return sum(1 << i for i in range(count) if odds[i] / total < bar)


def _loglik(fact: Fact, mask: int) -> float:
    kind = fact[0]
    if kind == "ritual":
        _, members, failed = fact
        if mask & members:
            return _FAIL_SAB if failed else _OK_SAB
        success = MEMBER_BRINGS_CARD ** members.bit_count()
        return log(1 - success) if failed else log(success)
    if kind == "approval":
        _, members, yes, no = fact
        dirty = bool(mask & members)
        score = 0.0
        for i in yes:
            if mask >> i & 1:
                score += _YES_ALLY if dirty else _YES_CLEAN
        for i in no:
            if mask >> i & 1:
                score += _NO_ALLY if dirty else _NO_CLEAN
        return score
    if kind == "frog":
        _, frog, with_it, allowed, crows = fact
        score = _FROGGED if mask >> frog & 1 else 0.0
        villagers = sum(1 for i in with_it if not mask >> i & 1)
        saboteurs = len(with_it) - villagers
        # A saboteur told to gather there is a witness if she is the Crow (each saboteur
        # is, with the chance crows / saboteurs), not if she is a witch.
        crow_there = min(1.0, crows * saboteurs / mask.bit_count()) if mask else 0.0
        absent = crow_there * exp(_ABSENT * max(0, villagers + 1 - allowed)) + (
            1 - crow_there
        ) * exp(_ABSENT * max(0, villagers - allowed))
        return score + log(absent)
    if kind == "exile_vote":
        _, votes, skips, unsuspected = fact
        score = sum(_SKIP for voter in skips if mask >> voter & 1)
        for voter, target in votes:
            if mask >> voter & 1:
                score += _CAST
                score += _VOTE_ALLY if mask >> target & 1 else 0.0
                score += _ODD_VOTE if unsuspected >> target & 1 else _USUAL_VOTE
        return score
    if kind == "going_on":  # a witch is still in human form (the Crow alone ends it, §1)
        _, alive, crows = fact
        left = (mask & alive).bit_count()
        if left == 0:
            return _IMPOSSIBLE
        if left > crows:
            return 0.0
        # The chance the saboteurs left are all Crows (each set of ``crows`` alike).
        size = mask.bit_count()
        return log(1.0 - comb(size - left, crows - left) / comb(size, crows))
    raise ValueError(kind)


def failed_ritual(names: Sequence[str], members: Iterable[str]) -> Fact:
    """The fact "a ritual of these members failed" (what a witch's sabotage would add)."""
    return ("ritual", _mask_of(names, members), True)


def _mask_of(names: Sequence[str], chosen: Iterable[str]) -> int:
    index = {name: i for i, name in enumerate(names)}
    return sum(1 << index[name] for name in set(chosen))


def _bits(mask: int) -> Iterable[int]:
    i = 0
    while mask:
        if mask & 1:
            yield i
        mask >>= 1
        i += 1
