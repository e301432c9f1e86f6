"""Catch the Witch as a ``Game`` (engine/game.py): what the room service sees of it."""

from collections.abc import Sequence
from typing import Any, ClassVar

from ..errors import IllegalAction
from ..game import BotMove, Game, View
from ..rng import Rng
from . import bots, rules, tables, views
from .actions import ACTION_TYPES, MarkAway, Timeout, parse_action
from .domain import Form, Phase
from .effects import Effect
from .state import GameState, Settings


class CatchTheWitch(Game):
    key = "catch_the_witch"
    min_players = tables.MIN_PLAYERS
    max_players = tables.MAX_PLAYERS
    settings_model = Settings
    state_model = GameState
    move_types = frozenset(ACTION_TYPES) - {"timeout"}
    #: §3.6: only the final yes/no and exile vote is kept; a changed place choice likewise.
    replacing_moves = frozenset({"approve", "vote", "choose_place"})
    #: The cats the step still waits for (views.py): told the mover, not every phone.
    progress_fields = frozenset({"waiting"})
    #: The command lines' helpers (engine/command_lines.py), imported only by them.
    command_line = "engine.catch_the_witch.command_line"
    #: docs/security.md, "Frames from phones": a Knight who guards sends his guard place
    #: after choosing to guard; every other cat in human form follows its place with a cover.
    covered_moves = frozenset({"choose_place"})
    #: §6.3: the Guardian Knight gathers (a place) or guards: one choice.
    same_choice_moves: ClassVar[dict[str, str]] = {"choose_guard": "choose_place"}

    # -- the lobby --------------------------------------------------------------------------
    def start_problem(self, settings: Settings, player_count: int) -> IllegalAction | None:
        if not self.min_players <= player_count <= self.max_players:
            return IllegalAction(
                f"A game needs {self.min_players} to {self.max_players} cats; "
                f"{player_count} seated.",
                "§10",
                code="player_count",
                params={"min": self.min_players, "max": self.max_players, "n": player_count},
            )
        if settings.roles is not None:
            try:
                rules.validate_role_set(settings.roles, player_count)
            except IllegalAction as exc:
                return exc
        return None

    def shortest_settings(self) -> dict[str, Any]:
        return {"discussion_limit": tables.DISCUSSION_LIMIT_MIN}

    def lobby_facts(self, settings: Settings, player_count: int) -> dict[str, Any]:
        fits = self.min_players <= player_count <= self.max_players
        #: The table's set for this many cats: where a custom set starts from (§2.1).
        roles = [role.value for role in tables.default_roles(player_count)] if fits else None
        return {"default_roles": roles}

    # -- a game -------------------------------------------------------------------------------
    def new_game(
        self, players: Sequence[str], settings: Settings, seed: int, host: str
    ) -> GameState:
        return rules.new_game(players, settings, seed=seed, host=host)

    def start(self, state: GameState, now: float) -> tuple[GameState, list[Effect]]:
        return rules.start(state, now)

    def rematch(self, state: GameState, seed: int) -> GameState:
        return rules.rematch(state, seed)

    def parse_move(self, data: dict[str, Any]) -> Any:
        return parse_action(data)

    def apply(self, state: GameState, action: Any, now: float) -> tuple[GameState, list[Effect]]:
        return rules.apply(state, action, now)

    def time_out(self, state: GameState, now: float) -> tuple[GameState, list[Effect]]:
        return rules.apply(state, Timeout(step=state.step), now)

    def leave(self, state: GameState, player: str, now: float) -> tuple[GameState, list[Effect]]:
        if state.phase is Phase.GAME_OVER or state.cat(player).away:
            return state, []
        # §9: a cat who leaves mid-game is played automatically from now on (the host's mark).
        return rules.apply(state, MarkAway(player=state.host, target=player), now)

    def set_host(self, state: GameState, player: str) -> GameState:
        return rules.set_host(state, player)

    # -- reading a state ----------------------------------------------------------------------
    def is_over(self, state: GameState) -> bool:
        return state.phase is Phase.GAME_OVER

    #: The steps whose every move reaches every cat: the witches' 15 seconds,
    #: where each witch must see the others' choices at once, and the two votes, where
    #: every phone and table screen shows who has voted: a changed vote reaches
    #: every cat too, so the Wi-Fi cannot tell it from a first one (§3.6: no trace of a
    #: change). Elsewhere a move reaches its mover alone: the Pickpocket's take reaches its
    #: target with the discussion's end (or a ping), so the frames never point at her.
    PUSH_EVERY_MOVE = frozenset({Phase.WITCHES, Phase.APPROVAL, Phase.VOTE})

    def pushes_every_move(self, state: GameState) -> bool:
        return state.phase in self.PUSH_EVERY_MOVE

    def sees_every_move(self, state: GameState, player: str) -> bool:
        # In the witches' 15 s a frog's or an exiled cat's view never changes (no pop-up, no
        # witch's choices: views.py), and every phone shows who is one. The votes show who
        # has voted on every phone, theirs too.
        return state.phase is not Phase.WITCHES or state.cat(player).form is Form.HUMAN

    def seat_step(self, state: GameState, player: str) -> int:
        return views.seat_step(state, player)

    def views(self, state: GameState) -> dict[str, View]:
        return views.all_views(state)

    def table_view(self, state: GameState) -> View:
        return views.view(state, None)

    # -- bots ---------------------------------------------------------------------------------
    def bot_move(self, view: View, rng: Rng) -> BotMove:
        return bots.decide(view, rng)
