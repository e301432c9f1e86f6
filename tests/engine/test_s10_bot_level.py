"""A room option beside RULES §10's (docs/engine.md): the bot level, a gentler table to learn at.

The host picks how sharply the room's bots deduce: sharp (the default, the bots of the
balance, §11) or gentle. Bots read it from their own view's settings alone.
"""

import pytest
from pydantic import ValidationError

from engine.catch_the_witch import BotLevel, Settings, new_game, view
from engine.catch_the_witch.autoplay import bot_names, play_new
from engine.catch_the_witch.domain import Role
from engine.errors import readable_error


def test_s10_bot_level_defaults_to_sharp_and_every_view_carries_it():
    assert Settings().bot_level is BotLevel.SHARP
    state = new_game(bot_names(6), {"bot_level": "gentle"}, seed=1)
    assert state.settings.bot_level is BotLevel.GENTLE
    assert all(view(state, n)["settings"]["bot_level"] == "gentle" for n in [*bot_names(6), None])
    assert view(new_game(bot_names(6), {}, seed=1), None)["settings"]["bot_level"] == "sharp"


def test_s10_a_bad_bot_level_is_refused_with_a_clear_code():
    with pytest.raises(ValidationError) as caught:
        Settings.model_validate({"bot_level": "ruthless"})
    error = readable_error(caught.value, "settings")
    assert (error.code, error.params) == ("field_invalid", {"field": "bot_level"})
    assert "sharp" in error.message and "gentle" in error.message


def _day_1_witch_exiles(level: str, seeds: range) -> int:
    found = 0
    for seed in seeds:
        count = (4, 6, 7, 10, 12)[seed % 5]  # counts where the village can exile on day 1
        run = play_new(count, seed, {"discussion_limit": 120, "bot_level": level})
        assert run.illegal_actions == 0 and run.state.outcome is not None
        vote = run.state.days[0].vote
        found += bool(vote and vote.exiled and run.state.cat(vote.exiled).role is Role.WITCH)
    return found


def test_s10_gentle_bots_exile_a_witch_on_day_1_less_often_than_sharp_ones():
    """Same seeded deals at both levels (sharp bots found a newcomer's witch on day 1 in
    3 of 5 games); docs/balance.md "The gentle table" has the 400-game figures."""
    seeds = range(7_000, 7_040)
    sharp, gentle = _day_1_witch_exiles("sharp", seeds), _day_1_witch_exiles("gentle", seeds)
    assert gentle < sharp * 0.8, (sharp, gentle)
