"""Burn the Witch as a ``Game`` (engine/game.py): what the room service sees of it."""

from collections.abc import Sequence
from typing import Any

from ..errors import IllegalAction
from ..game import BotMove, Game, View
from ..rng import Rng
from . import bots, setup, tables, views
from .actions import MarkAway, Timeout, parse_action
from .effects import Effect
from .state import GameState, Phase, Settings
from .steps import PHONE_MOVES
from .turn import apply, start


class BurnTheWitch(Game):
    key = "burn_the_witch"
    min_players = tables.MIN_PLAYERS
    max_players = tables.MAX_PLAYERS
    settings_model = Settings
    state_model = GameState
    move_types = PHONE_MOVES - {"timeout"}
    #: §3.2: a ballot may be changed until the last is in; §4: a point until it is locked.
    replacing_moves = frozenset({"vote", "point"})
    #: The command lines' helpers (engine/command_lines.py), imported only by them.
    command_line = "engine.burn_the_witch.command_line"

    # -- the lobby --------------------------------------------------------------------------
    def start_problem(self, settings: Settings, player_count: int) -> IllegalAction | None:
        if not self.min_players <= player_count <= self.max_players:
            return IllegalAction(
                f"Burn the Witch needs {self.min_players} to {self.max_players} players; "
                f"{player_count} seated.",
                "§2",
                code="btw_player_count",
                params={"min": self.min_players, "max": self.max_players, "n": player_count},
            )
        return None

    def shortest_settings(self) -> dict[str, Any]:
        return {"timers": True, "timer_seconds": tables.TIMER_SECONDS_MIN}  # §6's timers on

    def lobby_facts(self, settings: Settings, player_count: int) -> dict[str, Any]:
        """The setup row the table deals for this many players (§2)."""
        if player_count not in tables.SETUP:
            return {"setup": None}
        row = tables.setup_row(player_count)
        return {"setup": {"per_house": row.per_house, "innocents": row.innocents,
                          "devout": row.devout, "witches": row.witches,
                          "wrongly_condemned": row.wrongly_condemned}}  # fmt: skip

    # -- a game -------------------------------------------------------------------------------
    def new_game(
        self, players: Sequence[str], settings: Settings, seed: int, host: str
    ) -> GameState:
        return setup.new_game(players, settings, seed=seed, host=host)

    def start(self, state: GameState, now: float) -> tuple[GameState, list[Effect]]:
        return start(state, now)

    def rematch(self, state: GameState, seed: int) -> GameState:
        return setup.rematch(state, seed)

    def parse_move(self, data: dict[str, Any]) -> Any:
        return parse_action(data)

    def apply(self, state: GameState, action: Any, now: float) -> tuple[GameState, list[Effect]]:
        return apply(state, action, now)

    def time_out(self, state: GameState, now: float) -> tuple[GameState, list[Effect]]:
        return apply(state, Timeout(step=state.step), now)

    def leave(self, state: GameState, player: str, now: float) -> tuple[GameState, list[Effect]]:
        if state.phase == Phase.OVER or state.player(player).away:
            return state, []
        # §6: a player who leaves is played automatically from now on: the host's mark, made
        # by the server, so no act of the host's (an Away host stays Away).
        return apply(state, MarkAway(player=state.host, target=player), now, automatic=True)

    def set_host(self, state: GameState, player: str) -> GameState:
        return setup.set_host(state, player)

    # -- reading a state ----------------------------------------------------------------------
    def is_over(self, state: GameState) -> bool:
        return state.phase == Phase.OVER

    #: The steps whose every move reaches every phone: who has voted and who
    #: has pointed show on every phone as they come. Not the witching hour: a frame to
    #: every phone when the coven taps would tell the table that a coven exists, which the
    #: hour's fixed length keeps secret (docs/burn-the-witch.md); the coven's phone alone
    #: is answered, the others learn the bewitching when the hour ends.
    PUSH_EVERY_MOVE = frozenset({Phase.VOTE, Phase.TRIAL})

    def pushes_every_move(self, state: GameState) -> bool:
        return state.phase in self.PUSH_EVERY_MOVE

    def seat_step(self, state: GameState, player: str) -> int:
        return state.step  # no step is secret: the witching hour is one scene for all

    def views(self, state: GameState) -> dict[str, View]:
        return views.all_views(state)

    def table_view(self, state: GameState) -> View:
        return views.table_view(state)

    # -- bots ---------------------------------------------------------------------------------
    def bot_move(self, view: View, rng: Rng) -> BotMove:
        return bots.choose_move(view, rng)
