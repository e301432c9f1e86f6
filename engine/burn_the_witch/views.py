"""What each phone shows (RULES-burn-the-witch.md §7), and the table screen.

A view is built from named fields only: a field of the state reaches a phone only if this
file copies it. The public part is built once per push and shared by every view (treat
views as read-only: they are serialised, never changed), so ten views cost little more
than one.

Public: houses with their living villagers and traits, burned villagers with identity and
house, hexes, the innocents burned against the threshold, the witches left (a number),
accuser, executioner, the accused trait, who has voted (not how), each vote's counts, each
trial's points once revealed, the pending choice, Away marks, the history.
Private (``me``): what you were dealt as counts (never per villager), your faction, the
sympathizers if you were dealt a witch, the side a bewitching came from if you were
bewitched, your own ballot and point, and the moves you may send now.
Never: another player's identities, ballots or faction; the coven's choice (but to
sympathizers); individual ballots, not even at the end.
"""

from typing import Any

from ..game import envelope
from . import queries
from .state import EffectKind, GameState, Phase, Player
from .steps import EVERY_STEP_MOVES, STEPS, waiting_for

View = dict[str, Any]


def all_views(state: GameState) -> dict[str, View]:
    public = _public(state)
    return {player.name: _private(state, player, public) for player in state.players}


def view(state: GameState, player: str | None) -> View:
    public = _public(state)
    return public if player is None else _private(state, state.player(player), public)


def table_view(state: GameState) -> View:
    """The table screen: the public part alone."""
    return _public(state)


def _public(s: GameState) -> View:
    over = s.phase == Phase.OVER
    return {
        **envelope(s.game, s.phase, s.step, None, s.deadline, _outcome(s) if over else None),
        "round": s.round,
        "host": s.host,
        "settings": {"timers": s.settings.timers, "timer_seconds": s.settings.timer_seconds},
        "players": [
            {"name": p.name, "seat": seat, "away": p.away, "has_villagers": bool(p.villagers)}
            for seat, p in enumerate(s.players, 1)
        ],
        "houses": [_house(p) for p in s.players],
        "innocents_burned": queries.innocents_burned(s),
        "wrongly_condemned": s.wrongly_condemned,
        "witches_left": queries.witches_left(s),
        "accuser": s.accuser,
        "executioner": s.executioner,
        "accused_trait": s.accused_trait,
        "voted": [name for name in s.votes] if s.phase == Phase.VOTE else [],
        "last_vote": s.last_vote.model_dump() if s.last_vote else None,
        "outcome_of_vote": s.outcome_of_vote,
        "complying": queries.complying(s) if s.phase == Phase.EXECUTE else [],
        "trial": _trial(s),
        "pending": _pending(s),
        "history": s.history,
    }


def _house(p: Player) -> View:
    return {
        "owner": p.name,
        "villagers": [{"name": v.name, "traits": v.traits} for v in p.villagers],
        "burned": [{"name": v.name, "traits": v.traits, "identity": v.identity} for v in p.burned],
        "hexed": p.hexed,
    }


def _trial(s: GameState) -> View | None:
    trial = s.trial
    if trial is None:
        return None
    return {
        "targets": trial.targets,
        "pointers": trial.pointers,
        "pointed": [name for name in trial.pointers if name in trial.points],
        "locked": list(trial.locked),
        "points": dict(trial.points) if trial.revealed else None,
        "chosen": trial.chosen,
    }


def _pending(s: GameState) -> View | None:
    pending = s.pending
    if pending is None:
        return None
    if pending.kind == EffectKind.RETRIBUTION:
        return {"kind": pending.kind, "chooser": pending.chooser, "choices": pending.targets}
    assert pending.payer is not None
    payer = s.player(pending.payer)
    return {
        "kind": pending.kind,
        "chooser": pending.chooser,
        "payer": pending.payer,
        "choices": [v.name for v in payer.villagers],
    }


def _outcome(s: GameState) -> View:
    """At the end everything is revealed but the ballots (§7)."""
    assert s.outcome is not None
    return {
        "winner": s.outcome.winner,
        "reason": s.outcome.reason,
        "round": s.outcome.round,
        "identities": {v.name: v.identity for p in s.players for v in (*p.burned, *p.villagers)},
        "factions": {p.name: p.faction for p in s.players},
        "sympathizers": _sympathizers(s),
    }


def _sympathizers(s: GameState) -> list[View]:
    return [
        {"name": p.name, "kind": kind}
        for p in s.players
        if (kind := queries.sympathizer_kind(p)) is not None
    ]


def _private(s: GameState, p: Player, public: View) -> View:
    trial = s.trial
    knows_sympathizers = p.dealt.witches > 0
    me = {
        "name": p.name,
        "dealt": p.dealt.model_dump(),
        "faction": p.faction,
        "sympathizers": _sympathizers(s) if knows_sympathizers else None,
        "bewitched_from": p.bewitched_from,
        "my_vote": s.votes[p.name].model_dump() if p.name in s.votes else None,
        "my_point": trial.points.get(p.name) if trial else None,
        "can": can(s, p),
    }
    return {**public, "you": p.name, "me": me}


def can(s: GameState, p: Player) -> list[str]:
    """The move types ``p`` may send now (the step's moves it is waited for, or may change)."""
    if s.phase == Phase.OVER:
        return []
    moves: list[str] = []
    step_moves = STEPS[s.phase].moves
    if s.phase == Phase.VOTE:
        if p.villagers:
            moves.append("vote")  # a ballot may be changed until the last is in
    elif p.name in waiting_for(s):
        moves.extend(sorted(step_moves))
    if p.name == s.host:
        moves.append("mark_away")
    assert set(moves) <= step_moves | EVERY_STEP_MOVES
    return moves
