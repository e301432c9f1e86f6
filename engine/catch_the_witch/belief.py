"""What a bot believes about who the witches are: the deduction behind its moves.

A bot weighs every possible set of *saboteurs* (the witches and the Crow: the cats that
may play Nightshade), with which of them is the Crow, by how well it explains what its
view shows:

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
from math import exp, log
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

#: [design] At the gentle table (the room's ``bot_level``, which every view
#: carries in its ``settings``) a bot weighs the public facts at this share of their
#: weight (their log-likelihoods times this): the same evidence, read less sharply, so
#: a failed ritual or a telling yes/no vote convicts nobody as fast. What it knows for
#: sure (its own role, the Seer's looks, a role shown on exile) stays certain.
GENTLE_WEIGHT = 0.4

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
#: A hypothesis this much less likely (in log) than the likeliest is left out (1e-12).
_NEGLIGIBLE = log(1e-12)


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


def gentle(v: View) -> bool:
    """Whether this view's room plays at the gentle table (its settings' ``bot_level``;
    a view without settings is the default, sharp)."""
    return (v.get("settings") or {}).get("bot_level") == "gentle"


def belief(v: View, private: bool = True, then: Fact | None = None) -> Belief:
    """What this cat's view lets it believe; ``private=False``: what the table can, from
    the public facts alone (how the witches guess the village's mind, to blend in);
    ``then``: …once this fact has happened too (a witch weighing a sabotage). At the
    gentle table the public facts weigh less (``GENTLE_WEIGHT``)."""
    names = tuple(p["name"] for p in v["players"])
    roles = v["role_set"]
    shape = (len(names), roles.get("witch", 0), roles.get("crow", 0))
    facts = public_facts(v) + ((then,) if then else ())
    certain = _certain(v, names) if private else {}
    logliks = _public_weights(*shape, facts)
    if gentle(v):
        logliks = tuple(w * GENTLE_WEIGHT if w > _IMPOSSIBLE / 2 else w for w in logliks)
    # Facts against what this cat knows for sure (a bot strayed from what the belief
    # expects): it believes what it knows, on the starting odds; knowledge against the
    # role set itself (it cannot happen from true looks and reveals): the starting odds.
    return (
        _weigh(names, shape, logliks, certain)
        or _weigh(names, shape, (0.0,) * len(_hypotheses(*shape)), certain)
        or _flat(v, names)
    )


def _weigh(
    names: tuple[str, ...],
    shape: tuple[int, int, int],
    logliks: Sequence[float],
    certain: dict[int, str],
) -> Belief | None:
    """The belief from each hypothesis' log-likelihood, keeping those this cat's sure
    knowledge allows; None if it allows none, or only ones the facts rule out."""
    hypotheses = _hypotheses(*shape)
    known = _known_masks(certain)
    allowed = [_allowed(saboteurs, crow, known) for saboteurs, crow, _, _ in hypotheses]
    top = max((w for w, ok in zip(logliks, allowed, strict=True) if ok), default=_IMPOSSIBLE)
    if top <= _IMPOSSIBLE / 2:
        return None
    saboteur = [0.0] * len(names)
    witch = [0.0] * len(names)
    kept_masks: list[int] = []
    kept: list[float] = []
    for (saboteurs, _, seats, witch_seats), loglik, ok in zip(
        hypotheses, logliks, allowed, strict=True
    ):
        if not ok or loglik - top < _NEGLIGIBLE:
            continue
        weight = exp(loglik - top)
        kept_masks.append(saboteurs)
        kept.append(weight)
        for i in seats:
            saboteur[i] += weight
        for i in witch_seats:
            witch[i] += weight
    total = sum(kept)
    return Belief(
        names,
        {n: saboteur[i] / total for i, n in enumerate(names)},
        {n: witch[i] / total for i, n in enumerate(names)},
        tuple(kept_masks),
        tuple(kept),
    )


def _flat(v: View, names: tuple[str, ...]) -> Belief:
    share = sum(v["role_set"].get(r, 0) for r in ("witch", "crow")) / max(1, len(names) - 1)
    masks = (0,)
    return Belief(names, dict.fromkeys(names, share), dict.fromkeys(names, share), masks, (1.0,))


def _allowed(saboteurs: int, crow: int, known: tuple[int, int, int, int]) -> bool:
    """Whether a set of saboteurs, with this Crow, agrees with what this cat knows
    (``_known_masks``)."""
    witches, crows, innocent, cleared = known
    return (
        saboteurs & witches == witches
        and not crow & witches
        and crow & crows == crows
        and not saboteurs & innocent
        and not saboteurs & ~crow & cleared
    )


def _known_masks(certain: dict[int, str]) -> tuple[int, int, int, int]:
    """What this cat knows, as bit masks: the witches, the Crow, the innocent, and the
    cleared (innocent or the Crow)."""
    masks = dict.fromkeys(("witch", "crow", "innocent", "cleared"), 0)
    for i, known in certain.items():
        masks[known] |= 1 << i
    return masks["witch"], masks["crow"], masks["innocent"], masks["cleared"]


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
    facts: list[Fact] = []
    allowed = v["frog_witnesses"]  # witnesses a Frog may have at this table (§5)
    for day, humans in _mornings(v):
        told = _told(day, humans)
        for frog in day["new_frogs"]:
            place = tables.place_of(told[frog]) if frog in told else None
            with_it = [
                n for n in humans if n != frog and n in told and tables.place_of(told[n]) == place
            ]
            facts.append(("frog", index[frog], _mask_of(names, with_it), allowed))
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
        facts.append(("going_on", alive))
    return tuple(facts)


def _mornings(v: View) -> list[tuple[dict[str, Any], list[str]]]:
    """Each day so far (today last) with the cats in human form at its place choice, in
    seat order: the day's frogs and restorations come after it, its exile at night."""
    names = [p["name"] for p in v["players"]]
    form = dict.fromkeys(names, "human")
    mornings = []
    for day in days_so_far(v):
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
    if not v["today"]:
        return {}
    return _told(*_mornings(v)[-1])


def days_so_far(v: View) -> list[dict[str, Any]]:
    """The public record of every day so far, today last."""
    return [*v["history"], *([v["today"]] if v["today"] else [])]


def _told(day: dict[str, Any], humans: Sequence[str]) -> dict[str, Ingredient]:
    """The convention: the cats in human form at the place choice, in seat order, are told
    the day's ingredients in turn (as drawn in the morning: the evening may drop some,
    §2.2, but what each cat gathered stays)."""
    drawn = [*day["required"], *day.get("dropped", [])]
    if not drawn:
        return {}
    return {name: Ingredient(drawn[(i + day["day"]) % len(drawn)]) for i, name in enumerate(humans)}


# -- the weights ---------------------------------------------------------------------------
Hypothesis = tuple[int, int, tuple[int, ...], tuple[int, ...]]


@lru_cache(maxsize=64)
def _hypotheses(count: int, witches: int, crows: int) -> tuple[Hypothesis, ...]:
    """Every set of saboteurs among ``count`` seats with which of them is the Crow: (the
    saboteurs' bit mask, the Crow's bit mask, the saboteurs' seats, the witches' seats)."""
    found = []
    for chosen in combinations(range(count), witches + crows):
        saboteurs = sum(1 << i for i in chosen)
        for crowd in combinations(chosen, crows):
            witch_seats = tuple(i for i in chosen if i not in crowd)
            found.append((saboteurs, sum(1 << i for i in crowd), chosen, witch_seats))
    return tuple(found)


@lru_cache(maxsize=512)  # a game's chain of facts is ~30 long: room for many games at once
def _public_weights(
    count: int, witches: int, crows: int, facts: tuple[Fact, ...]
) -> tuple[float, ...]:
    """Each hypothesis' log-likelihood of the public facts (cached one fact at a time)."""
    hypotheses = _hypotheses(count, witches, crows)
    if not facts:
        return (0.0,) * len(hypotheses)
    before = _public_weights(count, witches, crows, facts[:-1])
    fact = facts[-1]
    if fact[0] == "exile_vote":  # judged by what the table believed when it was cast
        fact = (*fact, _unsuspected(count, hypotheses, before))
    return tuple(
        w + _loglik(fact, saboteurs, crow)
        for w, (saboteurs, crow, _, _) in zip(before, hypotheses, strict=True)
    )


def _unsuspected(count: int, hypotheses: tuple[Hypothesis, ...], weights: Sequence[float]) -> int:
    """The seats the public facts so far make unlikely saboteurs (as a bit mask)."""
    top = max(weights)
    bar = UNSUSPECTED_OF_START * len(hypotheses[0][2]) / count
    odds = [0.0] * count
    total = 0.0
    for (_, _, seats, _), loglik in zip(hypotheses, weights, strict=True):
        weight = exp(loglik - top)
        total += weight
        for i in seats:
            odds[i] += weight
    return sum(1 << i for i in range(count) if odds[i] / total < bar)


def _loglik(fact: Fact, mask: int, crow: int) -> float:
    """How likely the fact is if the saboteurs are ``mask`` and the Crow ``crow``."""
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
        # Witnesses: the cats told to gather there who are not witches (the Crow gathers
        # with the cats; a witch chooses her own place).
        witnesses = (with_it & ~(mask & ~crow)).bit_count()
        return score + _ABSENT * max(0, witnesses - allowed)
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
        return 0.0 if fact[1] & mask & ~crow else _IMPOSSIBLE
    raise ValueError(kind)


def failed_ritual(names: Sequence[str], members: Iterable[str]) -> Fact:
    """The fact "a ritual of these members failed" (what a witch's sabotage would add)."""
    return ("ritual", _mask_of(names, members), True)


def _mask_of(names: Sequence[str], chosen: Iterable[str]) -> int:
    index = {name: i for i, name in enumerate(names)}
    return sum(1 << index[name] for name in set(chosen))
