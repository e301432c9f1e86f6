"""Burn the Witch's leak audit by non-interference: a view must not change when the secrets
its viewer may not know change.

``scramble(state, viewer, rng)`` rewrites every such secret: the order of the identities
under each house's living villagers (nobody knows which villager hides which, not even the
owner: §2), the hands of other players the viewer cannot tell apart (any two other houses
with as many living villagers, for a viewer who does not know the sympathizers; two of the
same sympathizer kind for one who does), who was bewitched (for a viewer who was not told),
other players' ballots and unrevealed points, and the RNG. Public facts (burned identities,
living counts, who voted or pointed) stay as they are.
"""

import json
import random

from engine.burn_the_witch import views
from engine.burn_the_witch.queries import sympathizer_kind
from engine.burn_the_witch.state import Ballot, Dealt, GameState, Player
from engine.rng import KEY_BYTES, RngState


def scramble(state: GameState, viewer: str | None, rng: random.Random) -> GameState:
    s = state.clone()
    s.rng = RngState(key=rng.randbytes(KEY_BYTES).hex(), public=rng.randrange(99),
                     secret=rng.randrange(99))  # fmt: skip
    if s.phase == "over":  # everything is revealed but the ballots, which are gone
        return s
    me = s.player(viewer) if viewer is not None else None
    knows_sympathizers = me is not None and me.dealt.witches > 0
    others = [p for p in s.players if p.name != viewer]
    # §2: who was bewitched is told to the bewitched and to the sympathizers dealt a witch
    if not knows_sympathizers and not (me is not None and me.bewitched_from):
        _move_the_bewitching(s, others, rng)
    _swap_hands(s, others, knows_sympathizers, rng)
    for p in s.players:
        identities = [v.identity for v in p.villagers]
        rng.shuffle(identities)
        for villager, identity in zip(p.villagers, identities, strict=True):
            villager.identity = identity
    for name in list(s.votes):
        if name != viewer:
            total = s.votes[name].burn + s.votes[name].save
            burn = rng.randint(0, total)
            s.votes[name] = Ballot(burn=burn, save=total - burn)
    if s.trial is not None and not s.trial.revealed:
        for name in list(s.trial.points):
            if name != viewer:
                s.trial.points[name] = rng.choice([t for t in s.trial.targets if t != name])
    return s


def _move_the_bewitching(s: GameState, candidates: list[Player], rng: random.Random) -> None:
    """Who was bewitched, if anyone, among players the viewer cannot know about."""
    movable = [p for p in candidates if p.dealt.witches == 0]
    if not any(p.bewitched_from for p in movable):
        return
    for p in movable:
        p.bewitched_from = None
    chosen = rng.choice(movable)
    chosen.bewitched_from = rng.choice(("left", "right"))
    s.bewitched = chosen.name


def _swap_hands(s: GameState, others: list[Player], knows: bool, rng: random.Random) -> None:
    rng.shuffle(others)
    for a, b in zip(others[::2], others[1::2], strict=False):
        if len(a.villagers) != len(b.villagers) or _burned(a) != _burned(b):
            continue  # the living counts and the burned identities are public
        if knows and sympathizer_kind(a) != sympathizer_kind(b):
            continue
        if a.bewitched_from or b.bewitched_from:
            continue  # a witch dealt to the bewitched would make them a double sympathizer
        a_ids = [v.identity for v in a.villagers]
        b_ids = [v.identity for v in b.villagers]
        for villager, identity in zip(a.villagers, b_ids, strict=True):
            villager.identity = identity
        for villager, identity in zip(b.villagers, a_ids, strict=True):
            villager.identity = identity
        for p in (a, b):
            every = [v.identity for v in (*p.burned, *p.villagers)]
            p.dealt = Dealt(innocents=sum(i != "witch" for i in every),
                            devout=every.count("devout"), witches=every.count("witch"))  # fmt: skip
    s.coven = next((p.name for p in s.players if p.dealt.witches >= 2), None)


def _burned(p: Player) -> list[str]:
    return sorted(v.identity for v in p.burned)


def assert_no_leak(state: GameState, viewer: str | None, rng: random.Random) -> None:
    seen = json.dumps(views.view(state, viewer), sort_keys=True)
    scrambled = json.dumps(views.view(scramble(state, viewer, rng), viewer), sort_keys=True)
    assert seen == scrambled, f"{viewer}'s view depends on a secret at step {state.step}"
