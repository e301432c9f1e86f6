"""§2 Setup: the deal of villagers and identities, the coven, a rematch, the host."""

from collections.abc import Sequence

from ..errors import IllegalAction
from ..rng import Rng, Streams, new_rng_state
from . import tables
from .state import Dealt, GameState, Identity, Player, Settings, Villager
from .villagers import VILLAGERS


def identity_deck(row: tables.SetupRow) -> list[Identity]:
    """The identity cards of the table's row (§2): devout, plain innocents, witches."""
    plain = row.innocents - row.devout
    return (
        [Identity.DEVOUT] * row.devout
        + [Identity.INNOCENT] * plain
        + [Identity.WITCH] * row.witches
    )


def deal_identities(rng: Rng, row: tables.SetupRow, houses: int) -> list[list[Identity]]:
    """Each house's identity cards; §2 [book]: redealt while any house holds three witches."""
    deck = identity_deck(row)
    while True:
        cards = rng.shuffled(deck)
        dealt = [cards[i * row.per_house : (i + 1) * row.per_house] for i in range(houses)]
        if all(hand.count(Identity.WITCH) < tables.REDEAL_WITCHES for hand in dealt):
            return dealt


def new_game(
    players: Sequence[str], settings: Settings | None = None, *, seed: int, host: str | None = None
) -> GameState:
    """Deal a game for ``players`` in seat order (clockwise)."""
    settings = settings or Settings()
    count = len(players)
    if count not in tables.SETUP:
        raise IllegalAction(
            f"Burn the Witch needs {tables.MIN_PLAYERS} to {tables.MAX_PLAYERS} players.",
            "§2",
            code="btw_player_count",
            params={"min": tables.MIN_PLAYERS, "max": tables.MAX_PLAYERS, "n": count},
        )
    if settings.first_accuser is not None and settings.first_accuser not in players:
        raise IllegalAction(
            f"The first accuser {settings.first_accuser!r} is not seated.",
            "§2",
            code="btw_first_accuser_not_seated",
            params={"name": settings.first_accuser},
        )
    row = tables.setup_row(count)
    streams = Streams(new_rng_state(seed))
    # The villagers are laid out face up: the public stream. Who hides under which is the
    # secret stream's, so the table's first view says nothing of the identities.
    cards = streams.public.sample(VILLAGERS, row.per_house * count)
    hands = deal_identities(streams.secret, row, count)
    seats: list[Player] = []
    for index, name in enumerate(players):
        own_cards = cards[index * row.per_house : (index + 1) * row.per_house]
        # §2 [book]: the identities are looked at, then shuffled under the house's villagers.
        hidden = streams.secret.shuffled(hands[index])
        villagers = [
            Villager(name=card, traits=list(traits), identity=identity)
            for (card, traits), identity in zip(own_cards, hidden, strict=True)
        ]
        dealt = Dealt(
            innocents=sum(card != Identity.WITCH for card in hidden),
            devout=hidden.count(Identity.DEVOUT),
            witches=hidden.count(Identity.WITCH),
        )
        seats.append(Player(name=name, villagers=villagers, dealt=dealt))
    coven = next((p.name for p in seats if p.dealt.witches >= tables.COVEN_WITCHES), None)
    first = settings.first_accuser or streams.public.choice(list(players))
    return GameState(
        players=seats,
        settings=settings,
        host=host or players[0],
        rng=streams.state(),
        wrongly_condemned=row.wrongly_condemned,
        coven=coven,
        next_accuser_from=first,
    )


def rematch(state: GameState, seed: int) -> GameState:
    """§10 of the first game, alike: the same seats and settings, a new deal; step numbers go
    on from the last game's, and Away marks stay."""
    if state.outcome is None:
        raise IllegalAction("A rematch can start only once the game is over.", "§1", code="not_now")
    names = [p.name for p in state.players]
    again = new_game(names, state.settings, seed=seed, host=state.host)
    again.step = state.step + 1
    for player, before in zip(again.players, state.players, strict=True):
        player.away = before.away
    return again


def set_host(state: GameState, player: str) -> GameState:
    return state.model_copy(update={"host": player})
