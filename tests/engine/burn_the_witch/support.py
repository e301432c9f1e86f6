"""Helpers for the Burn the Witch engine tests: a game dealt as a test wants it, moves by
name, the clock, and bot play to the end."""

import pytest

from engine.burn_the_witch import apply, new_game, start
from engine.burn_the_witch.game import BurnTheWitch
from engine.burn_the_witch.state import Dealt, GameState, Identity, Settings
from engine.errors import IllegalAction
from engine.rng import Rng

GAME = BurnTheWitch()
NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Fay", "Gus", "Hal", "Ivy", "Jo"]
T0 = 1000.0
N, D, W = "innocent", "devout", "witch"


def rig(houses: list[list[str]], seed: int = 1, first: str = "Ann", **settings) -> GameState:
    """A new game whose houses hold ``houses``' identities, in villager order, before the
    witching hour starts (``start``)."""
    names = NAMES[: len(houses)]
    state = new_game(names, Settings(first_accuser=first, **settings), seed=seed)
    for player, identities in zip(state.players, houses, strict=True):
        assert len(identities) == len(player.villagers)
        for villager, identity in zip(player.villagers, identities, strict=True):
            villager.identity = Identity(identity)  # assignment is not validated
        player.dealt = Dealt(
            innocents=sum(i != W for i in identities),
            devout=identities.count(D),
            witches=identities.count(W),
        )
    state.coven = next((p.name for p in state.players if p.dealt.witches >= 2), None)
    return state


def five() -> list[list[str]]:
    """A 5-player deal (§2 row: 18 innocents of which 6 devout, 2 witches): Ann has a
    witch, Bo the other; Cy and Di hold the devout; Ed only plain innocents."""
    return [[W, N, N, N], [W, N, N, N], [D, D, D, N], [D, D, D, N], [N, N, N, N]]


def started(houses: list[list[str]] | None = None, **kwargs) -> GameState:
    """A rigged game past the witching hour: the first round's accusation is awaited."""
    state, _ = start(rig(houses or five(), **kwargs), T0)
    state, _ = apply(state, {"type": "timeout", "step": state.step}, state.deadline)
    assert state.phase == "accuse"
    return state


def move(state: GameState, player: str, now: float = T0 + 1, **fields) -> GameState:
    state, _ = apply(state, {**fields, "player": player}, now)
    return state


def refused(state: GameState, player: str | None, now: float = 2000, **fields) -> str:
    """The code of the refusal ``player``'s move gets (the state stays as it was)."""
    before = state.model_dump_json()
    with pytest.raises(IllegalAction) as caught:
        apply(state, {**fields, "player": player}, now)
    assert state.model_dump_json() == before
    return caught.value.code


def time_out(state: GameState) -> GameState:
    assert state.deadline is not None
    state, _ = apply(state, {"type": "timeout", "step": state.step}, state.deadline)
    return state


def house(state: GameState, name: str) -> list[str]:
    return [v.name for v in state.player(name).villagers]


def villager_of(state: GameState, owner: str, identity: str) -> str:
    return next(v.name for v in state.player(owner).villagers if v.identity == identity)


def a_trait_of(state: GameState, villager: str) -> str:
    return next(v.traits[0] for p in state.players for v in p.villagers if v.name == villager)


def vote_all(state: GameState, burn: bool) -> GameState:
    """Every voter casts all their votes one way."""
    for player in state.players:
        if player.villagers and state.phase == "vote":
            n = len(player.villagers)
            state = move(state, player.name, type="vote", burn=n if burn else 0,
                         save=0 if burn else n)  # fmt: skip
    return state


def burn_by_round(state: GameState, villager: str) -> GameState:
    """A whole round whose execution burns ``villager``: accuse one of its traits, everyone
    votes burn, the executioner burns it."""
    state = move(state, state.accuser, type="accuse", trait=a_trait_of(state, villager))
    state = vote_all(state, burn=True)
    return move(state, state.executioner, type="execute", villager=villager)


def play_with_bots(state: GameState, seed: int, observer=None) -> GameState:
    """Random-legal bots (bots.py) play every seat to the end, timers firing when nobody
    moves; ``observer(state)`` sees every state on the way."""
    rng, now = Rng(seed), T0
    names = [p.name for p in state.players]
    for _ in range(5_000):
        if observer:
            observer(state)
        if GAME.is_over(state):
            return state
        views = GAME.views(state)
        for name in names:
            wanted = GAME.bot_move(views[name], rng)
            if wanted is not None:
                state, _ = GAME.apply(state, {**wanted, "player": name}, now)
                now += 0.5
                break
        else:
            now = max(now, state.deadline)
            state, _ = GAME.time_out(state, now)
    raise AssertionError("no game over within 5000 moves")
