"""Errors are codes worded on the phone: every code the server can send has a
string ``error_<code>`` in every language, whose placeholders the refusal fills in."""

import re

import pytest

from engine.catch_the_witch import apply, new_game
from engine.errors import IllegalAction, InvalidAction
from tests.support.error_codes import LANGUAGES, server_codes, strings

CODES = server_codes()


def test_the_scan_finds_the_codes_of_every_kind_of_refusal():
    # a raise's code=, a class's code, a name refusal, a validation error, a service limit
    assert {"seer_once_per_day", "stale_move", "name_blank", "field_missing", "rate_limited",
            "cannot_join", "kicked"} <= set(CODES)  # fmt: skip
    assert CODES["not_a_frog"] == {"name"} and CODES["pick_exactly"] == {"n"}


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_code_the_server_can_send_has_a_string_in_every_language(language):
    texts = strings(language)
    assert sorted(code for code in CODES if f"error_{code}" not in texts) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_placeholder_of_an_error_string_is_filled_by_its_refusal(language):
    texts = strings(language)
    for code, params in CODES.items():
        wanted = set(re.findall(r"\{(\w+)\}", texts.get(f"error_{code}", "")))
        assert wanted <= params, (language, code, wanted - params)


def test_a_refusal_carries_its_code_and_params_besides_the_english_message():
    state = new_game(["Ann", "Bo", "Cy", "Di"], seed=1)
    with pytest.raises(IllegalAction) as caught:
        apply(state, {"type": "mark_away", "player": "Ann", "target": "Zed"}, 0)
    assert caught.value.code == "no_such_cat" and caught.value.params == {"name": "Zed"}
    assert "Zed" in caught.value.message


@pytest.mark.parametrize(
    ("raw", "code", "field"),
    [
        ({"type": "vote"}, "field_missing", "target"),
        ({"type": "ready", "player": "Ann", "colour": "red"}, "field_extra", "colour"),
        ({"type": "witch_spell", "player": "Ann", "spell": "fireball"}, "field_invalid", "spell"),
        ({"type": "approve", "player": "Ann", "yes": "maybe"}, "field_invalid", "yes"),
    ],
)
def test_a_validation_error_is_one_of_four_codes_naming_the_field(raw, code, field):
    state = new_game(["Ann", "Bo", "Cy", "Di"], seed=1)
    with pytest.raises(InvalidAction) as caught:
        apply(state, raw, 0)
    assert caught.value.code == code and caught.value.params == {"field": field}
    assert caught.value.action == raw["type"]
