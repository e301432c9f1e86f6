"""Setting a game up (RULES §2, §10): the cats, the role set, the deal, a rematch and
the host."""

from collections import Counter
from collections.abc import Sequence

from ..errors import IllegalAction
from ..rng import Streams, new_rng_state
from . import tables
from .domain import Ingredient, Phase, Role
from .state import Cat, GameState, Settings


def validate_players(players: Sequence[str]) -> None:
    if not tables.MIN_PLAYERS <= len(players) <= tables.MAX_PLAYERS:
        raise IllegalAction(
            f"A game needs {tables.MIN_PLAYERS} to {tables.MAX_PLAYERS} cats, not {len(players)}.",
            "§10",
            code="player_count",
            params={"min": tables.MIN_PLAYERS, "max": tables.MAX_PLAYERS, "n": len(players)},
        )
    if len(set(players)) != len(players):
        raise IllegalAction("Two cats have the same name.", "§10", code="same_name")
    for name in players:
        if not isinstance(name, str) or not name.strip() or len(name) > 40:
            raise IllegalAction(
                "Each cat needs a name of 1 to 40 characters.", "§10", code="name_length"
            )


def validate_role_set(roles: Sequence[Role], player_count: int) -> None:
    """§2.1: the rules a custom role set must follow, each with its own message."""
    if len(roles) != player_count:
        raise IllegalAction(
            f"The role set has {len(roles)} roles but there are {player_count} cats.", "§2.1",
            code="roles_count", params={"roles": len(roles), "cats": player_count},
        )  # fmt: skip
    counts = Counter(roles)
    witches = counts[Role.WITCH]
    if witches < 1:
        raise IllegalAction(
            "The role set needs at least one Witch.", "§2.1", code="roles_need_witch"
        )
    if witches >= player_count - witches:
        raise IllegalAction(
            "There must be fewer witches than other cats.", "§2.1", code="roles_too_many_witches"
        )
    for role in sorted(tables.UNIQUE_ROLES):
        if counts[role] > 1:
            raise IllegalAction(
                f"A role set may hold at most one {role.value}.", "§2.1",
                code="roles_one_each", params={"role": role.value},
            )  # fmt: skip


def new_game(
    players: Sequence[str],
    settings: Settings | dict | None = None,
    seed: int = 0,
    roles: dict[str, Role | str] | None = None,
    host: str | None = None,
    required: Sequence[Sequence[Ingredient | str]] | None = None,
) -> GameState:
    """Deal roles and open the role check (§2, §3.1).

    ``seed`` is the game's key (engine/rng.py: a number below 2^256; a room's is 256 bits
    from the CSPRNG). ``roles`` fixes who is what (tests, replay files); otherwise the role
    set (custom from settings, or the §2.1 table) is shuffled by the secret stream.
    ``required`` pins the duck's draws per day (replay files).
    """
    players = list(players)
    validate_players(players)
    settings = Settings.model_validate(settings or {})
    streams = Streams(new_rng_state(seed))
    if roles is not None:
        unknown = set(roles) ^ set(players)
        if unknown:
            raise IllegalAction(
                f"Roles must name every cat exactly once (check {sorted(unknown)}).",
                "§2.1",
                code="roles_name_every_cat",
            )
        dealt = [Role(roles[name]) for name in players]
        validate_role_set(dealt, len(players))
    else:
        role_set = settings.roles or tables.default_roles(len(players))
        validate_role_set(role_set, len(players))
        dealt = streams.secret.shuffled(role_set)
    if host is not None and host not in players:
        raise IllegalAction("The host must be one of the cats.", "§10", code="host_not_seated")
    state = GameState(
        players=[Cat(name=name, role=role) for name, role in zip(players, dealt, strict=True)],
        settings=settings,
        host=host or players[0],
        rng=streams.state(),
        scripted_required=[[Ingredient(i) for i in day] for day in (required or [])],
    )
    state.step = 1
    return state


def rematch(state: GameState, seed: int) -> GameState:
    """§10: same seats and order, new seed, roles dealt again, first Chief seat 1."""
    if state.phase is not Phase.GAME_OVER:
        raise IllegalAction(
            "A rematch can start only after the result screen.", "§10", code="rematch_too_early"
        )
    settings = state.settings
    if settings.roles is None or len(settings.roles) != len(state.players):
        settings = settings.model_copy(update={"roles": None})
    game = new_game(state.names(), settings, seed=seed, host=state.host)
    # Step numbers go on from the last game's, so no move made in it names a step of this one.
    game.step = state.step + 1
    return game


def set_host(state: GameState, name: str) -> GameState:
    """§10: host powers pass (the room decides when); returns a new state."""
    if not state.has_cat(name):
        raise IllegalAction(
            f"There is no cat named {name!r}.", "§10", code="no_such_cat", params={"name": name}
        )
    new = state.clone()
    new.host = name
    return new
