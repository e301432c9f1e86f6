"""Writes the Burn the Witch scenario files in this folder, one per way a game ends.

    python -m tests.engine.burn_the_witch.scenarios.generate

A ``Director`` plays a dealt game through the game's interface, seeing the secret
identities (as a test may) and steering every choice to the ending wanted; its moves are
recorded as a replay scenario (docs/replay.md) whose ``expect`` is the outcome reached.
tests/engine/burn_the_witch/test_clis.py replays every file with ``python -m engine.replay``.
"""

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from engine.burn_the_witch.command_line import GAME, outcome_of
from engine.burn_the_witch.state import GameState, Player
from engine.command_lines import SCENARIO_FORMAT
from engine.replaying import SECONDS_PER_ACTION

HERE = Path(__file__).parent
MAX_MOVES = 2_000

Pick = Callable[["Director"], str | None]


class Director:
    """Plays every seat. ``burn`` names the villager each round is to burn; ``point`` the
    player a Trial by Fire is to choose; ``own`` the villager a player loses from their own
    house; ``hex`` the one a hexed house's owner takes from the payer's house."""

    def __init__(self, players: list[str], seed: int, burn: Pick, point: Pick,
                 own: Callable[["Director", Player], str], hex: Callable[["Director", Player], str],
                 settings: dict[str, Any] | None = None):  # fmt: skip
        self.players, self.seed, self.settings = players, seed, settings or {}
        self.pick_burn, self.pick_point, self.pick_own, self.pick_hex = burn, point, own, hex
        state = GAME.new_game(players, GAME.parse_settings(self.settings), seed, players[0])
        self.state: GameState = GAME.start(state, 0.0)[0]
        self.now = 0.0
        self.actions: list[dict[str, Any]] = []
        self.planned: str | None = None

    # -- moves, timed as the replay times them ---------------------------------------------
    def move(self, player: str, kind: str, **fields: Any) -> None:
        action = {"type": kind, **fields, "player": player}
        self.now += SECONDS_PER_ACTION
        self.state = GAME.apply(self.state, GAME.parse_move(action), self.now)[0]
        self.actions.append(action)

    def timeout(self) -> None:
        self.now = max(self.now, self.state.deadline or self.now)
        self.state = GAME.time_out(self.state, self.now)[0]
        self.actions.append({"type": "timeout"})

    # -- reading the secrets -------------------------------------------------------------------
    def living(self, *identities: str, avoid: set[str] = frozenset()) -> list[tuple[Player, str]]:
        return [(p, v.name) for p in self.state.players if p.name not in avoid
                for v in p.villagers if v.identity in identities]  # fmt: skip

    def identity(self, villager: str) -> str:
        return next(v.identity for p in self.state.players for v in p.villagers
                    if v.name == villager)  # fmt: skip

    def owner(self, villager: str) -> Player:
        return next(p for p in self.state.players if any(v.name == villager for v in p.villagers))

    # -- one step ---------------------------------------------------------------------------------
    def play(self) -> "Director":
        for _ in range(MAX_MOVES):
            s = self.state
            if s.phase == "over":
                return self
            getattr(self, "on_" + s.phase)(s)
        raise AssertionError("the scenario did not end")

    def on_witching_hour(self, s: GameState) -> None:
        if s.coven is not None and s.bewitched is None:
            self.move(s.coven, "bewitch", direction="left")
        else:
            self.timeout()  # §2: the witching hour always lasts its full time

    def on_accuse(self, s: GameState) -> None:
        self.planned = self.pick_burn(self)
        assert self.planned is not None, "nothing left to burn as planned"
        trait = next(v.traits[0] for p in s.players for v in p.villagers if v.name == self.planned)
        self.move(s.accuser, "accuse", trait=trait)

    def on_vote(self, s: GameState) -> None:
        voter = next(p for p in s.players if p.villagers and p.name not in s.votes)
        self.move(voter.name, "vote", burn=len(voter.villagers), save=0)

    def on_execute(self, s: GameState) -> None:
        self.move(s.executioner, "execute", villager=self.planned)

    def on_trial(self, s: GameState) -> None:
        trial = s.trial
        chosen = self.pick_point(self) or trial.targets[0]
        pointer = next(p for p in trial.pointers if p not in trial.locked)
        target = chosen if pointer != chosen else next(t for t in trial.targets if t != pointer)
        self.move(pointer, "point", target=target, locked=True)

    def on_choose_villager(self, s: GameState) -> None:
        pending = s.pending
        payer = s.player(pending.payer)
        own = pending.chooser == pending.payer
        villager = self.pick_own(self, payer) if own else self.pick_hex(self, payer)
        self.move(pending.chooser, "choose_villager", villager=villager)

    def on_retribution(self, s: GameState) -> None:
        self.move(s.pending.chooser, "retribute", target=None)

    def scenario(self, description: str) -> dict[str, Any]:
        return {"format": SCENARIO_FORMAT, "description": description,
                "players": self.players, "seed": self.seed,
                "settings": self.settings, "actions": self.actions,
                "expect": outcome_of(self.state)}  # fmt: skip


def _first(pairs: list[tuple[Player, str]]) -> str | None:
    return pairs[0][1] if pairs else None


def _own_innocent(d: Director, payer: Player) -> str:
    """A player losing their own villager: a plain innocent if any (no new trial)."""
    plain = [v.name for v in payer.villagers if v.identity == "innocent"]
    return (plain or [v.name for v in payer.villagers])[0]


def _own_witch(d: Director, payer: Player) -> str:
    witches = [v.name for v in payer.villagers if v.identity == "witch"]
    return witches[0] if witches else _own_innocent(d, payer)


FIVE = ["Ann", "Bo", "Cy", "Di", "Eve"]
EIGHT = [*FIVE, "Fay", "Gus", "Hal"]


def all_witches_burned() -> Director:
    """Every round burns a witch; nobody wrongly condemned."""
    return Director(FIVE, seed=1, burn=lambda d: _first(d.living("witch")), point=lambda d: None,
                    own=_own_witch, hex=_own_innocent).play()  # fmt: skip


def threshold_reached() -> Director:
    """Every round burns a plain innocent outside the hexed houses until the threshold."""

    def burn(d: Director) -> str | None:
        hexed = {p.name for p in d.state.players if p.hexed}
        return _first(d.living("innocent", avoid=hexed)) or _first(d.living("devout"))

    def point(d: Director) -> str | None:  # a player with a plain innocent left
        return next((p.name for p in d.state.players
                     if any(v.identity == "innocent" for v in p.villagers)), None)  # fmt: skip

    return Director(FIVE, seed=2, burn=burn, point=point, own=_own_innocent,
                    hex=_own_innocent).play()  # fmt: skip


def trial_and_hex(seed: int) -> Director:
    """A witch burns (her house is hexed); plain innocents burn until three short of the
    threshold; then a devout of the hexed house: the hex makes its owner take a devout of
    the executioner's house, and the first Trial by Fire's chosen player burns the
    innocent that reaches the threshold."""

    def hexed_house(d: Director) -> Player | None:
        return next((p for p in d.state.players if p.hexed), None)

    def burn(d: Director) -> str | None:
        s = d.state
        house = hexed_house(d)
        if house is None:  # a witch whose house holds a devout
            return next((v for p, v in d.living("witch")
                         if any(x.identity == "devout" for x in p.villagers)), None)  # fmt: skip
        short = s.wrongly_condemned - _innocents_burned(s)
        executioner = s.player(s.executioner)
        ready = executioner.name != house.name and any(
            v.identity == "devout" for v in executioner.villagers
        )
        if short <= 3 and ready:
            return next(v.name for v in house.villagers if v.identity == "devout")
        if short > 3:
            return _first(d.living("innocent", avoid={house.name}))
        return None  # the round's executioner cannot pay the hex with a devout: no scenario

    def hex(d: Director, payer: Player) -> str:
        return next(v.name for v in payer.villagers if v.identity == "devout")

    def point(d: Director) -> str | None:
        return next((p.name for p in d.state.players if not p.hexed
                     and any(v.identity == "innocent" for v in p.villagers)), None)  # fmt: skip

    return Director(EIGHT, seed=seed, burn=burn, point=point, own=_own_innocent, hex=hex).play()


def _innocents_burned(s: GameState) -> int:
    return sum(v.identity != "witch" for p in s.players for v in p.burned)


def first_chain(seeds: range = range(200)) -> Director:
    """The first seed whose deal lets ``trial_and_hex`` play out as described."""
    for seed in seeds:
        try:
            director = trial_and_hex(seed)
        except (AssertionError, StopIteration):
            continue
        causes = [e["cause"] for e in director.state.history if e.get("kind") == "burn"]
        if causes[-3:] == ["execution", "hex", "trial"]:
            return director
    raise AssertionError("no seed plays the chain")


SCENARIOS: dict[str, tuple[Callable[[], Director], str]] = {
    "all_witches_burned": (all_witches_burned, "5 players: every round burns a witch."),
    "threshold_reached": (threshold_reached, "5 players: every round burns an innocent."),
    "trial_and_hex_chain": (first_chain, "8 players: a devout burned in a hexed house; the "
                            "hex takes the executioner's devout; the Trial by Fire's chosen "
                            "player burns the innocent that reaches the threshold."),
}  # fmt: skip


def main() -> None:
    for name, (build, description) in SCENARIOS.items():
        director = build()
        path = HERE / f"{name}.json"
        path.write_text(json.dumps(director.scenario(description), indent=1) + "\n")
        print(f"wrote {path} ({len(director.actions)} actions): {outcome_of(director.state)}")


if __name__ == "__main__":
    main()
