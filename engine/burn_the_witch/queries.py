"""Questions about a state, asked by the rules, the views and the automatic choices."""

from . import tables
from .state import Direction, Faction, GameState, Identity, Player, Villager, VoteOutcome
from .villagers import TRAITS


def going_right(state: GameState, start: str, include_start: bool) -> list[Player]:
    """Every player from ``start`` going right (§2: a player's right is the previous seat)."""
    seat = state.seat_of(start)
    count = len(state.players)
    first = 0 if include_start else 1
    return [state.players[(seat - step) % count] for step in range(first, count)]


def first_with_villagers(state: GameState, start: str, include_start: bool) -> str | None:
    """The first player going right from ``start`` whose house still has villagers."""
    return next((p.name for p in going_right(state, start, include_start) if p.villagers), None)


def executioner_for(state: GameState, accuser: str) -> str:
    """§3.2: the nearest player to the accuser's right with villagers; the accuser themself
    if nobody else has any."""
    return first_with_villagers(state, accuser, include_start=False) or accuser


def neighbour_to_bewitch(state: GameState, coven: str, direction: str) -> str:
    """§2: the first player in ``direction`` from the coven who is not a sympathizer (there
    are at most 2 sympathizers before bewitching, and at least 5 players)."""
    seat = state.seat_of(coven)
    count = len(state.players)
    sign = 1 if direction == Direction.LEFT else -1  # left is the next seat clockwise
    for step in range(1, count):
        player = state.players[(seat + sign * step) % count]
        if player.faction == Faction.ZEALOT:
            return player.name
    raise AssertionError("§8: a bewitch target always exists")  # pragma: no cover


def living(state: GameState) -> list[tuple[Player, Villager]]:
    return [(player, villager) for player in state.players for villager in player.villagers]


def shown_traits(state: GameState) -> list[str]:
    """Traits shown by at least one living villager, in the deck's trait order."""
    shown = {trait for _, villager in living(state) for trait in villager.traits}
    return [trait for trait in TRAITS if trait in shown]


def complying(state: GameState) -> list[str]:
    """§3.3: the villagers the executioner may burn after the vote: burn → with the accused
    trait, save → without it, tie → either group (any villager); none complies → any."""
    everyone = [villager.name for _, villager in living(state)]
    trait, outcome = state.accused_trait, state.outcome_of_vote
    if outcome == VoteOutcome.TIE or trait is None:
        return everyone
    wanted = outcome == VoteOutcome.BURN
    chosen = [v.name for _, v in living(state) if (trait in v.traits) == wanted]
    return chosen or everyone


def voters(state: GameState) -> list[Player]:
    """§3: every player with villagers votes."""
    return [player for player in state.players if player.villagers]


def owner_of(state: GameState, villager: str) -> Player | None:
    for player in state.players:
        if any(v.name == villager for v in player.villagers):
            return player
    return None


def witches_in_play(state: GameState) -> int:
    return tables.setup_row(len(state.players)).witches


def burned_count(state: GameState, *identities: Identity) -> int:
    return sum(v.identity in identities for p in state.players for v in p.burned)


def innocents_burned(state: GameState) -> int:
    """§1: innocents executed from any house, devout included."""
    return burned_count(state, Identity.INNOCENT, Identity.DEVOUT)


def witches_left(state: GameState) -> int:
    return witches_in_play(state) - burned_count(state, Identity.WITCH)


def sympathizer_kind(player: Player) -> str | None:
    """§2: coven (dealt two witches), witch (dealt one), bewitched, or None (a zealot)."""
    if player.dealt.witches >= tables.COVEN_WITCHES:
        return "coven"
    if player.dealt.witches:
        return "witch"
    return "bewitched" if player.bewitched_from else None
