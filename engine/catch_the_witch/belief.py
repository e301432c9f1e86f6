"""What a bot believes about who the witches are: the deduction behind its moves (issue 17).

A bot weighs every possible set of *saboteurs* (the witches and the Crow: the cats that
may play Nightshade) by how well it explains what its view shows:

- a ritual's result and members: a ritual with a saboteur on it usually fails, one
  without usually succeeds (cards can still be missing, snatched or rotten);
- frogs: a cat turned into a frog was a witch's target, so rarely a witch; and by the
  bots' table convention (bots.assignment: "who gathers what") the cats told to gather
  where the frog was would have been witnesses, so beyond the witnesses a Frog allows
  at this table (the view's ``frog_witnesses``) they are witches or were not there;
- the yes/no votes: a saboteur says yes to a ritual with a saboteur on it and often no
  to one without, a villager mostly says yes;
- the exile votes: a saboteur does not vote for another;
- what this cat knows alone: it is not a saboteur (villager side), the Seer's looks
  (a "Not a witch" may still be the Crow), a role shown on exile;
- the game going on: a saboteur is still in human form.

The public part of the weights is the same for every cat and grows one fact at a time,
so it is cached by its facts (``_public_weights``), one fact added to the cached weights
of the facts before it; only the private part is computed per cat. A bot's view is all
it reads: the belief can never use what its cat may not know.
"""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from math import exp, log
from typing import Any

from . import tables
from .domain import Ingredient

View = dict[str, Any]
Fact = tuple

# -- how likely each fact is under a set of saboteurs (bot knowledge, not rules) -----------
# The numbers are measured on the bots themselves (``python -m engine.simulate``'s games,
# docs/balance.md "How the bots deduce"), so the belief expects what the bots do.
#: A cat the public facts make a saboteur less likely than this is "unsuspected"; of the
#: exile votes villagers cast, this share is on an unsuspected cat (the Seer's finds, a
#: village misled), and of the saboteurs' (the witches pushing an exile) this share.
UNSUSPECTED = 0.35
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
#: How much likelier a saboteur is frogged than… not: witches frog the village.
FROGGED_SABOTEUR = 0.15
#: A cat told to gather where a frog was, not a witch: the frog needed no witness there,
#: so he was not there (a guarding Knight, a cat who strayed from the convention).
WITNESS_NOT_WITCH = 0.1
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
_WITNESS = log(WITNESS_NOT_WITCH)
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
    weights = list(_public_weights(len(names), witches + crows, facts))
    certain = _certain(v, names) if private else {}
    hidden_crow = bool(crows)
    witch_share = witches / (witches + crows)
    top = max(
        (weights[i] for i, m in enumerate(masks) if _allowed(m, certain, hidden_crow)),
        default=0.0,
    )
    saboteur = dict.fromkeys(names, 0.0)
    witch = dict.fromkeys(names, 0.0)
    kept_masks: list[int] = []
    kept: list[float] = []
    total = 0.0
    for mask, loglik in zip(masks, weights, strict=True):
        if not _allowed(mask, certain, hidden_crow):
            continue
        cleared_inside = [i for i, known in certain.items() if known == "cleared" and mask >> i & 1]
        weight = exp(loglik - top)
        if hidden_crow and cleared_inside:  # that cat can only be the Crow
            weight *= 1 / (witches + crows)
        if weight < 1e-12:
            continue
        kept_masks.append(mask)
        kept.append(weight)
        total += weight
        for i in _bits(mask):
            saboteur[names[i]] += weight
            if cleared_inside:
                witch[names[i]] += weight * (i not in cleared_inside)
            elif certain.get(i) == "witch":
                witch[names[i]] += weight
            else:
                witch[names[i]] += weight * _witch_given_saboteur(mask, certain, witch_share)
    if total == 0:  # the facts contradict each other (a bot strayed): believe the prior
        if facts:
            return belief({**v, "history": [], "today": None}, private)
        return _flat(v, names)
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


def _witch_given_saboteur(mask: int, certain: dict[int, str], share: float) -> float:
    """Within a set of saboteurs, the chance one of them is a witch, not the Crow; a
    saboteur known to be a witch leaves the Crow among the others."""
    known = sum(1 for i, k in certain.items() if k == "witch" and mask >> i & 1)
    size = mask.bit_count()
    if share == 1 or known == 0:
        return share
    return (size * share - known) / (size - known) if size > known else 1.0


def _allowed(mask: int, certain: dict[int, str], hidden_crow: bool) -> bool:
    cleared = 0
    for i, known in certain.items():
        inside = mask >> i & 1
        if known in ("witch", "saboteur") and not inside:
            return False
        if known == "innocent" and inside:
            return False
        if known == "cleared" and inside:
            cleared += 1
    return cleared <= (1 if hidden_crow else 0)


def _certain(v: View, names: tuple[str, ...]) -> dict[int, str]:
    """What this cat knows for sure: seat index → "witch", "saboteur" (witch or Crow),
    "innocent" (neither), "cleared" (not a witch: innocent or the Crow)."""
    me = v["me"]
    index = {name: i for i, name in enumerate(names)}
    known: dict[int, str] = {}
    if me["role"] in ("witch", "crow"):
        for name in me.get("witches", []):
            known[index[name]] = "witch"
    known[index[me["name"]]] = "witch" if me["role"] == "witch" else (
        "saboteur" if me["role"] == "crow" else "innocent"
    )  # fmt: skip
    for result in me.get("seer_results", []):
        known[index[result["target"]]] = "witch" if result["witch"] else "cleared"
    for day in v["history"]:
        role = day.get("exiled_role")
        if role and day["vote"] and day["vote"].get("exiled"):
            target = index[day["vote"]["exiled"]]
            known[target] = "witch" if role == "witch" else (
                "saboteur" if role == "crow" else "innocent"
            )  # fmt: skip
    return known


# -- the public facts, in the order they happened --------------------------------------------
def public_facts(v: View) -> tuple[Fact, ...]:
    """Every public fact, by seat index, oldest first (so a new fact extends the tuple and
    the cached weights of the facts before it are reused)."""
    names = [p["name"] for p in v["players"]]
    index = {name: i for i, name in enumerate(names)}
    form = dict.fromkeys(names, "human")
    facts: list[Fact] = []
    allowed = v["frog_witnesses"]  # witnesses a Frog may have at this table (§5)
    days = [*v["history"], *([v["today"]] if v["today"] else [])]
    for day in days:
        humans = [n for n in names if form[n] == "human"]
        told = told_to_gather(humans, [*day["required"], *day.get("dropped", [])], day["day"])
        for frog in day["new_frogs"]:
            place = tables.place_of(told[frog]) if frog in told else None
            with_it = [
                n for n in humans if n != frog and n in told and tables.place_of(told[n]) == place
            ]
            facts.append(("frog", index[frog], tuple(index[n] for n in with_it), allowed))
            form[frog] = "frog"
        for name in day["restored"]:
            form[name] = "human"
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
            if vote.get("exiled"):
                form[vote["exiled"]] = "exiled"
    alive = _mask_of(names, [n for n in names if form[n] == "human"])
    if v["outcome"] is None and alive:
        facts.append(("going_on", alive))
    return tuple(facts)


def told_to_gather(
    humans: Sequence[str], required: Sequence[str], day: int
) -> dict[str, Ingredient]:
    """The table convention (bots.py): the cats in human form, in seat order, are told the
    day's ingredients in turn."""
    if not required:
        return {}
    return {name: Ingredient(required[(i + day) % len(required)]) for i, name in enumerate(humans)}


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
    odds = [0.0] * count
    total = 0.0
    for mask, loglik in zip(masks, weights, strict=True):
        weight = exp(loglik - top)
        total += weight
        for i in _bits(mask):
            odds[i] += weight
    return sum(1 << i for i in range(count) if odds[i] / total < UNSUSPECTED)


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
        _, frog, with_it, allowed = fact
        score = _FROGGED if mask >> frog & 1 else 0.0
        witnesses = sum(1 for i in with_it if not mask >> i & 1)
        return score + _WITNESS * max(0, witnesses - allowed)
    if kind == "exile_vote":
        _, votes, skips, unsuspected = fact
        score = sum(_SKIP for voter in skips if mask >> voter & 1)
        for voter, target in votes:
            if mask >> voter & 1:
                score += _CAST
                score += _VOTE_ALLY if mask >> target & 1 else 0.0
                score += _ODD_VOTE if unsuspected >> target & 1 else _USUAL_VOTE
        return score
    if kind == "going_on":
        return 0.0 if mask & fact[1] else _IMPOSSIBLE
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
