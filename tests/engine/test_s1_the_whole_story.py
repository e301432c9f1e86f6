"""RULES §1: the result screen reveals the timeline, "the whole story": each
day's places, guard, spells, proposals with their yes/no, ritual, exile votes, Seer looks
and Pickpocket peeks and thefts, in the end view every phone and the table screen get.
Cats are named there by seat (1-based, as in the view's ``players``)."""

import json

import pytest

from engine.catch_the_witch import view
from engine.catch_the_witch.autoplay import play, play_new
from engine.catch_the_witch.domain import Phase, Spell
from engine.catch_the_witch.rules import new_game
from engine.catch_the_witch.state import GameState
from engine.catch_the_witch.views import all_views

#: A 12-cat bot game whose story has every kind of fact: a guard, spells that worked and
#: failed, rejected and passed proposals, skipped exile votes, an exile, Seer looks, a
#: theft, frogs and a restore (found by trying seeds; the deal is fixed by the seed).
STORY_SEED = 7
#: One API Gateway WebSocket frame; a larger message closes the connection (1009).
FRAME_BYTES = 32 * 1024


@pytest.fixture(scope="module")
def game() -> tuple[GameState, list[dict], list[dict]]:
    """The finished game, its story, and what was played in each ritual while it lasted."""
    played: list[dict] = []

    def keep_ritual_cards(_, state: GameState) -> None:
        if state.phase is Phase.RITUAL and state.played:
            played.append(dict(state.played))

    run = play_new(12, STORY_SEED, observer=keep_ritual_cards)
    assert run.state.phase is Phase.GAME_OVER
    return run.state, view(run.state, None)["reveal"]["timeline"], played


def name_of(state: GameState, seat: int | None) -> str | None:
    return None if seat is None else state.players[seat - 1].name


def names_of(state: GameState, seats: list[int]) -> list[str]:
    return [state.players[seat - 1].name for seat in seats]


def test_s1_result_tells_every_day_in_order(game):
    state, story, _ = game
    assert [day["day"] for day in story] == [day.number for day in state.days]
    assert story == view(state, state.players[0].name)["reveal"]["timeline"]


def test_s1_result_tells_where_every_cat_went_and_where_the_knight_guarded(game):
    state, story, _ = game
    guards = 0
    for day, told in zip(state.days, story, strict=True):
        for cat, place in zip(state.players, told["places"], strict=True):
            choice = day.witch_choices.get(cat.name)
            went = choice.place if choice else day.places.get(cat.name)
            assert place == (went.value if went else None)
        if day.guarding:
            knight = name_of(state, told["guard"]["knight"])
            assert state.cat(knight).role == "knight"
            assert told["guard"]["place"] == day.guard_place.value
            guards += 1
        else:
            assert told["guard"] is None
    assert guards


def test_s1_result_reveals_every_spell_with_its_target_and_whether_it_worked(game):
    state, story, _ = game
    worked = set()
    for day, told in zip(state.days, story, strict=True):
        cast = [spell for spell in day.spells if spell.spell is not Spell.NONE]
        assert [
            (name_of(state, s["witch"]), s["place"], s["spell"], name_of(state, s["target"]))
            for s in told["spells"]
        ] == [(s.witch, s.place.value, s.spell.value, s.target) for s in cast]
        assert [s["worked"] for s in told["spells"]] == [s.worked for s in cast]
        worked |= {s.worked for s in cast}
        assert names_of(state, told["new_frogs"]) == day.new_frogs
        assert names_of(state, told["restored"]) == day.restored
    assert worked == {True, False}


def test_s1_result_reveals_every_proposal_with_its_votes(game):
    state, story, _ = game
    verdicts = set()
    for day, told in zip(state.days, story, strict=True):
        assert len(told["proposals"]) == len(day.proposals)
        for proposal, shown in zip(day.proposals, told["proposals"], strict=True):
            assert name_of(state, shown["chief"]) == proposal.chief
            assert names_of(state, shown["members"]) == proposal.members
            assert names_of(state, shown["yes"]) == proposal.yes
            assert names_of(state, shown["no"]) == proposal.no
            assert shown["passed"] is proposal.passed
            verdicts.add(proposal.passed)
    assert verdicts == {True, False}


def test_s1_result_reveals_the_ritual_and_every_exile_vote(game):
    state, story, _ = game
    skips = exiles = 0
    for day, told in zip(state.days, story, strict=True):
        assert names_of(state, told["ritual_members"]) == day.ritual_members
        assert told["ritual_result"] == (day.ritual_result and day.ritual_result.value)
        votes = day.vote.votes if day.vote else {}
        assert {name_of(state, v): name_of(state, t) for v, t in told["votes"]} == votes
        assert name_of(state, told["exiled"]) == (day.vote.exiled if day.vote else None)
        skips += sum(target is None for target in votes.values())
        exiles += told["exiled"] is not None
    assert skips and exiles


def test_s1_result_reveals_the_seer_looks_and_the_pickpocket_peeks_and_thefts(game):
    state, story, _ = game
    looks = [
        (day["day"], name_of(state, look["seer"]), name_of(state, look["target"]), look["witch"])
        for day in story
        for look in day["looks"]
    ]
    assert looks == [
        (look.day, cat.name, look.target, look.witch)
        for cat in state.players
        for look in cat.seer_results
    ]
    assert looks and all(state.cat(seer).role == "seer" for _, seer, _, _ in looks)
    peeks = [
        (
            day["day"],
            name_of(state, peek["pickpocket"]),
            name_of(state, peek["target"]),
            peek["took"],
        )
        for day in story
        for peek in day["peeks"]
    ]
    assert peeks == [
        (peek.day, cat.name, peek.target, peek.took and peek.took.value)
        for cat in state.players
        for peek in cat.peeks
    ]
    assert any(took for *_, took in peeks), "a theft is in the story"


def test_s7_result_never_tells_the_ritual_cards_nor_a_peeked_hand(game):
    """§7: only Success or Failure is shown, never the cards; the hand a Pickpocket saw
    would narrow them down, so her peek tells its victim and the card taken only."""
    _, story, played = game
    assert played, "rituals were played"
    assert {key for day in story for key in day} == {
        "day", "required", "dropped", "places", "guard", "spells", "new_frogs", "restored",
        "proposals", "ritual_members", "ritual_result", "votes", "exiled", "looks", "peeks",
    }  # fmt: skip
    assert all(set(peek) == {"pickpocket", "target", "took"} for d in story for peek in d["peeks"])
    text = json.dumps(story)
    # Nightshade and the empty paw are ritual cards only: no other fact of a day names them.
    assert any("nightshade" in cards.values() for cards in played)
    assert "nightshade" not in text and "empty_paw" not in text


def largest_end_view(names: list[str], seeds: tuple[int, ...]) -> int:
    """The largest end view (the table's or a phone's) of bot games with these names, in
    bytes as the room service sends it (replies.py: compact, non-ASCII escaped)."""
    largest = 0
    for seed in seeds:
        run = play(new_game(names, {}, seed=seed), bot_seed=seed)
        assert run.state.phase is Phase.GAME_OVER
        for end_view in [view(run.state, None), *all_views(run.state).values()]:
            largest = max(largest, len(json.dumps(end_view, sort_keys=True, separators=(",", ":"))))
    return largest


def test_s1_the_end_view_of_a_long_12_cat_game_fits_one_api_gateway_frame():
    """Seven days (the longest game for 12 cats, §2.2), names of 12 characters."""
    names = [f"Catherine-{seat:02d}" for seat in range(1, 13)]
    largest = largest_end_view(names, (STORY_SEED, 0, 6))
    print(f"largest end view of a 7-day 12-cat game, 12-character names: {largest} bytes")
    assert largest <= FRAME_BYTES


def test_s1_the_story_names_cats_by_seat_so_long_names_do_not_grow_it():
    names = [f"{seat:02d}" + "แมว" * 12 + "ก" * 2 for seat in range(1, 13)]  # 40 characters
    run = play(new_game(names, {}, seed=STORY_SEED), bot_seed=STORY_SEED)
    story = json.dumps(view(run.state, None)["reveal"]["timeline"], ensure_ascii=False)
    assert not [name for name in names if name in story]
    print(f"story of a 7-day 12-cat game: {len(story.encode())} bytes (UTF-8)")
