"""Coin: the smallest whole game, and the example of ``engine/game.py`` ("Adding a game").

Each round every player secretly calls heads or tails before the time runs out (at the
timeout, and for a player who left, the call is made from the seeded RNG in the state).
Then the coin is flipped, every right call scores a point, and once everyone still playing
has said "ok" (or the result's time runs out) the next round starts, or the game is over.
Its steps are a table of ``engine.steps.Step`` rows, walked by the shared step machine
(``engine.turns.StepMachine``, docs/engine.md), like the shipped games'.

It lives in tests/ because it is not shipped: it proves that the room service, the bots'
harness and the registry need nothing of Catch the Witch. Like every game it is pure: time
comes in as ``now``, randomness from the seed, and every method returns a new state.
"""

from collections.abc import Sequence
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from engine.effects import Effect
from engine.errors import IllegalAction, InvalidAction, readable_error
from engine.game import NAME_MAX, BotMove, Game, View, envelope
from engine.moves import Timeout
from engine.rng import Rng, RngState, new_rng_state
from engine.seats import Seats
from engine.steps import Step, nobody
from engine.turns import StepMachine

Side = Literal["heads", "tails"]
SIDES: tuple[Side, ...] = ("heads", "tails")
#: How long the result stays up when somebody does not say "ok".
RESULT_SECONDS = 20


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class CoinSettings(_Model):
    rounds: int = Field(default=1, ge=1, le=9)
    #: Seconds to call before the call is made for you.
    call_seconds: int = Field(default=30, ge=5, le=120)


class Player(_Model):
    name: str
    score: int = 0
    left: bool = False

    @property
    def away(self) -> bool:
        """A player who left is played for (the walker's Away): never waited for, their
        call drawn with the others' missing ones."""
        return self.left


class CoinState(Seats, _Model):
    game: Literal["coin"] = "coin"
    players: list[Player]
    settings: CoinSettings
    host: str
    rng: RngState
    phase: Literal["call", "result", "game_over"] = "call"
    step: int = 1
    round: int = 1
    deadline: float | None = None
    #: The round's calls: secret (each seat sees its own) until the result.
    calls: dict[str, Side] = Field(default_factory=dict)
    #: Who has said "ok" to the result.
    oks: list[str] = Field(default_factory=list)
    coin: Side | None = None

    def clone(self) -> "CoinState":
        return self.model_copy(deep=True)


class _Move(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    player: Annotated[str, Field(min_length=1, max_length=NAME_MAX)] | None = None


class Call(_Move):
    type: Literal["call"] = "call"
    side: Side


class Ok(_Move):
    type: Literal["ok"] = "ok"


MOVES: dict[str, type[_Move]] = {"call": Call, "ok": Ok}


# -- the steps (engine/steps.py) ------------------------------------------------------------------
def _not_called(s: CoinState) -> list[str]:
    return [p.name for p in s.players if not p.left and p.name not in s.calls]


def _not_ok(s: CoinState) -> list[str]:
    return [p.name for p in s.players if not p.left and p.name not in s.oks]


STEPS: dict[str, Step["CoinTurn"]] = {
    "call": Step(
        _not_called,
        frozenset({"call"}),
        timer=lambda s: s.settings.call_seconds,
        on_timeout=lambda turn: turn.flip(),
        advance=lambda turn: turn.flip(),
    ),
    "result": Step(
        _not_ok,
        frozenset({"ok"}),
        timer=lambda s: RESULT_SECONDS,
        on_timeout=lambda turn: turn.next_round(),
        advance=lambda turn: turn.next_round(),
    ),
    "game_over": Step(nobody),
}


class CoinTurn(StepMachine[CoinState]):
    """One move or timeout on a private copy of the state, walked by the shared machine."""

    steps = STEPS
    over_phase = "game_over"

    def first_step(self) -> None:
        self.set_deadline(self.now + self.s.settings.call_seconds)

    def seat_named(self, name: str, rule: str | None) -> Player:
        if not self.s.has_seat(name):
            raise IllegalAction(f"There is no player named {name!r}.")
        return self.s.seat(name)

    def on_call(self, player: Player, move: Call) -> None:
        _need_playing(player)
        if self.s.phase != "call":
            raise IllegalAction("You can call only while the coin is in the air.")
        self.s.calls[player.name] = move.side

    def on_ok(self, player: Player, move: Ok) -> None:
        _need_playing(player)
        if self.s.phase != "result" or player.name in self.s.oks:
            raise IllegalAction("There is no result waiting for your ok.")
        self.s.oks.append(player.name)

    def flip(self) -> None:
        s = self.s
        for p in s.players:  # the missing calls, in seat order, then the coin
            s.calls.setdefault(p.name, self.secret.choice(SIDES))
        s.coin = self.public.choice(SIDES)
        for p in s.players:
            p.score += s.calls[p.name] == s.coin
        s.oks = [p.name for p in s.players if p.left]
        self.enter("result")

    def next_round(self) -> None:
        s = self.s
        if s.round == s.settings.rounds:
            self.game_over(_outcome(s))
            return
        s.round, s.calls, s.oks, s.coin = s.round + 1, {}, [], None
        self.enter("call")


CoinTurn.handlers = {Call: CoinTurn.on_call, Ok: CoinTurn.on_ok}


def _need_playing(player: Player) -> None:
    if player.left:
        raise IllegalAction("You have left this game.")


def _outcome(s: CoinState) -> dict[str, Any]:
    best = max(p.score for p in s.players)
    return {"winners": [p.name for p in s.players if p.score == best]}


class CoinGame(Game):
    key = "coin"
    min_players = 2
    max_players = 4
    settings_model = CoinSettings
    state_model = CoinState
    move_types = frozenset(MOVES)
    replacing_moves = frozenset({"call"})  # a changed call replaces the earlier one

    def start_problem(self, settings: CoinSettings, player_count: int) -> IllegalAction | None:
        if not self.min_players <= player_count <= self.max_players:
            low, high = self.min_players, self.max_players
            return IllegalAction(
                f"Coin needs {low} to {high} players; {player_count} seated.",
                code="player_count",
                params={"min": low, "max": high, "n": player_count},
            )
        return None

    # -- a game -------------------------------------------------------------------------------
    def new_game(
        self, players: Sequence[str], settings: CoinSettings, seed: int, host: str
    ) -> CoinState:
        seats = [Player(name=name) for name in players]
        return CoinState(players=seats, settings=settings, host=host, rng=new_rng_state(seed))

    def start(self, state: CoinState, now: float) -> tuple[CoinState, list[Effect]]:
        return CoinTurn.begin(state, now)

    def rematch(self, state: CoinState, seed: int) -> CoinState:
        if not self.is_over(state):
            raise IllegalAction("A rematch can start only once the game is over.")
        seats = [Player(name=p.name, left=p.left) for p in state.players]
        # Step numbers go on from the last game's: no move of that game names one of this.
        return CoinState(players=seats, settings=state.settings, host=state.host,
                         rng=new_rng_state(seed), step=state.step + 1)  # fmt: skip

    def parse_move(self, data: dict[str, Any]) -> _Move:
        kind = data.get("type") if isinstance(data, dict) else None
        if kind is None:
            raise InvalidAction("A move needs a 'type'.")
        if kind not in MOVES:
            raise InvalidAction(f"Unknown move {str(kind)[:30]!r}: Coin takes 'call' and 'ok'.")
        try:
            return MOVES[kind].model_validate(data)
        except ValidationError as exc:
            raise readable_error(exc, kind) from exc

    def apply(
        self, state: CoinState, action: _Move | dict[str, Any], now: float
    ) -> tuple[CoinState, list[Effect]]:
        move = self.parse_move(action) if isinstance(action, dict) else action
        return CoinTurn.play(state, move, now)

    def time_out(self, state: CoinState, now: float) -> tuple[CoinState, list[Effect]]:
        return CoinTurn.play(state, Timeout(step=state.step), now)

    def leave(self, state: CoinState, player: str, now: float) -> tuple[CoinState, list[Effect]]:
        if self.is_over(state):
            return state, []
        turn = CoinTurn(state.clone(), now)
        turn.seat_named(player, None).left = True
        turn.settle()
        return turn.finish()

    def set_host(self, state: CoinState, player: str) -> CoinState:
        return state.model_copy(update={"host": player})

    # -- reading a state ------------------------------------------------------------------------
    def step(self, state: CoinState) -> int:
        return state.step

    def deadline(self, state: CoinState) -> float | None:
        return state.deadline

    def is_over(self, state: CoinState) -> bool:
        return state.phase == "game_over"

    def seat_step(self, state: CoinState, player: str) -> int:
        return state.step  # no step is secret from anyone

    def views(self, state: CoinState) -> dict[str, View]:
        return {p.name: self._view(state, p.name) for p in state.players}

    def table_view(self, state: CoinState) -> View:
        return self._view(state, None)

    def _view(self, s: CoinState, you: str | None) -> View:
        revealed = s.phase != "call"
        outcome = _outcome(s) if self.is_over(s) else None
        view: View = {
            **envelope(self.key, s.phase, s.step, you, s.deadline, outcome),
            "round": s.round, "rounds": s.settings.rounds, "host": s.host,
            "players": [p.model_dump() for p in s.players],
            "waiting_for": STEPS[s.phase].waits_for(s),
            "calls": dict(s.calls) if revealed else None, "coin": s.coin,
        }  # fmt: skip
        if you is not None:
            view["my_call"] = s.calls.get(you)
        return view

    # -- bots -----------------------------------------------------------------------------------
    def bot_move(self, view: View, rng: Rng) -> BotMove:
        if view.get("you") not in view["waiting_for"]:
            return None
        if view["phase"] == "call":
            return {"type": "call", "side": rng.choice(SIDES)}
        return {"type": "ok"}
