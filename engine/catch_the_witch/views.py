"""What each cat may see (RULES §2.3, ARCHITECTURE "hidden information").

``view(state, player)`` builds a fresh JSON-ready dict from named fields only:
a field of the state reaches a client only if this file copies it. ``player``
None gives the public "table screen" view.

Public: forms, Away marks, the host, the day, seals, curse gauge, Chief, the
duck's ingredients, the evening news, proposals and yes/no votes once
revealed, ritual members and Success/Failure, exile votes once counted, and
whom a public step waits for, the number of days (``days_total``). Private: own
role and hand, own pending choices, what the cat gathered each day (``gathered``),
own Seer results and Pickpocket peeks, and ``notes``: every private result of the
game (spells, guard, Seer looks, peeks), each with its day; witches see witches (the
Crow sees them too) and the witches' choices during their 15 s; the Knight sees the
counts.
Never: the game's key, pinned draws, other cats' roles, hands, places, spells,
votes before they are revealed, or the cards played in a ritual.
At the end every role and the whole story are revealed (``_full_day``), but never the
ritual cards: no view shows them, nor the file a room gives the seats that played (the
table's views, step by step: docs/replay.md); only the server's journal holds them.
"""

from collections import Counter
from collections.abc import Iterable
from typing import Any

from ..game import envelope
from . import queries, tables
from .domain import (
    EMPTY_PAW,
    NIGHTSHADE,
    Form,
    Ingredient,
    Phase,
    Place,
    RitualResult,
    Role,
    Spell,
)
from .state import Cat, Day, GameState
from .steps import STEPS, TAP_PHASES, waiting_for


def view(state: GameState, player: str | None) -> dict[str, Any]:
    """What ``player`` may see (``None``: the public table screen)."""
    return _view(state, player, _public_part(state))


def all_views(state: GameState) -> dict[str, dict[str, Any]]:
    """Every cat's view at once, building the public part once (the push after an action).

    The views share their public sub-dicts: treat them as read-only (serialise them).
    """
    public = _public_part(state)
    return {cat.name: _view(state, cat.name, public) for cat in state.players}


def _public_part(s: GameState) -> dict[str, Any]:
    """Everything that is the same for every viewer."""
    waiting = waiting_for(s)
    over = s.phase is Phase.GAME_OVER
    return {
        "game": s.game,
        "day": s.day,
        "knights_day": queries.knights_day(s),
        # "Day 3 of 6": the Knights' day is the last (§2.2).
        "days_total": queries.knights_day(s),
        "seals": s.seals,
        "seals_to_win": queries.seals_to_win(s),
        # §5 at this table: a Frog still works with this many witnesses (the book: none).
        "frog_witnesses": queries.frog_witnesses(s),
        # §6.1 at this table: the Seer looks from this day on (the book: day 1).
        "seer_first_day": queries.seer_first_day(s),
        "rituals_held": s.rituals_held,
        "curse": s.curse,
        "curse_capacity": tables.CURSE_CAPACITY,
        "chief": s.chief,
        "host": s.host,
        "role_set": _role_set(s),
        "open_places": [p.value for p in tables.open_places(max(s.day, 1))],
        "unlocked_spells": [sp.value for sp in queries.unlocked_spells(s)],
        "settings": {
            "discussion_limit": s.settings.discussion_limit,
            "reveal_role_on_exile": s.settings.reveal_role_on_exile,
            "bot_level": s.settings.bot_level,
        },
        "players": [
            {"name": cat.name, "seat": seat, "form": cat.form.value, "away": cat.away}
            for seat, cat in enumerate(s.players, 1)
        ],
        # Who has voted, never how (UX.md): the yes/no and the exile vote.
        "voted": _voted(s),
        "all_waiting": waiting,
        "waiting": waiting if STEPS[s.phase].public_waiting else None,
        "today": _public_day(s, s.days[-1]) if s.days else None,
        # At the end the reveal's timeline tells every day: no need to send them twice.
        "history": [] if over else [_public_day(s, day) for day in s.days[:-1]],
        "outcome": s.outcome.model_dump(mode="json") if s.outcome else None,
        "reveal": _reveal(s) if over else None,
    }


def _voted(s: GameState) -> list[str] | None:
    """The cats, in seat order, whose yes/no (§3.6) or exile vote (§8) is in; None in
    every other step. A vote changed before everyone voted leaves the list as it was."""
    ballots = {Phase.APPROVAL: s.approvals, Phase.VOTE: s.exile_votes}.get(s.phase)
    return None if ballots is None else [c.name for c in s.players if c.name in ballots]


def seat_step(state: GameState, player: str | None) -> int:
    """The step ``player`` sees, as a number: it changes exactly when that cat's step does.

    A move names the step it was made on, and the room refuses it on any other. The guard
    step is the Knight's alone (§6.3): everyone else is still at the place choice, and
    their numbers leave every guard step out, so they never count one."""
    if _sees_guard(state, player):
        return state.step
    return state.step - state.guard_steps


def _sees_guard(s: GameState, player: str | None) -> bool:
    return player is not None and s.cat(player).role is Role.KNIGHT


def _view(s: GameState, player: str | None, public: dict[str, Any]) -> dict[str, Any]:
    me = s.cat(player) if player is not None else None
    phase, deadline = s.phase, s.deadline
    if phase is Phase.GUARD and not _sees_guard(s, player):
        # Only the Knight knows he is guarding; everyone else still sees the place choice,
        # with its countdown (docs/security.md: the time his step takes is a known limit).
        phase, deadline = Phase.PLACE_CHOICE, s.place_deadline
    over = s.phase is Phase.GAME_OVER
    result = {key: value for key, value in public.items() if key not in ("all_waiting", "reveal")}
    result.update(envelope(s.game, phase.value, seat_step(s, player), player, deadline,
                           public["outcome"]))  # fmt: skip
    result["players"] = [
        entry if (role := _known_role(s, cat, me, over)) is None else {**entry, "role": role.value}
        for entry, cat in zip(public["players"], s.players, strict=True)
    ]
    result["your_turn"] = bool(me and me.name in public["all_waiting"])
    if result["your_turn"]:
        # A phone the step waits for shows its own move; the names of the others waited
        # for go to the cats who are done (UX: "when it waits for others, show who").
        # Then a confirmation is pushed only to the cats already done, not to all (fewer
        # frames sent).
        result["waiting"] = None
    result["me"] = _private(s, me) if me else None
    if over:
        result["reveal"] = public["reveal"]
    return result


def _reveal(s: GameState) -> dict[str, Any]:
    """§1: the result screen reveals every role, the witch score and the timeline."""
    return {
        "roles": {cat.name: cat.role.value for cat in s.players},
        "witch_score": queries.witch_score(s),
        "timeline": [_full_day(s, day) for day in s.days],
    }


def _role_set(s: GameState) -> dict[str, int]:
    """How many of each role are in play (public: the table or the host's custom set)."""
    counts = Counter(cat.role for cat in s.players)
    return {role.value: counts[role] for role in tables.ROLE_ORDER if counts[role]}


def _known_role(s: GameState, cat: Cat, me: Cat | None, over: bool) -> Role | None:
    """§2.3 who knows what; §8 reveal-on-exile; §1 everything at the end."""
    if over or (me is not None and cat.name == me.name):
        return cat.role
    if cat.form is Form.EXILED and s.settings.reveal_role_on_exile:
        return cat.role
    if me is not None and me.role in (Role.WITCH, Role.CROW) and cat.role is Role.WITCH:
        return cat.role
    return None


def _public_day(s: GameState, day: Day) -> dict[str, Any]:
    is_today = day.number == s.day
    resolved = not is_today or STEPS[s.phase].after_spells
    entry: dict[str, Any] = {
        "day": day.number,
        "required": [i.value for i in day.required],
        "dropped": [i.value for i in day.dropped] if resolved else [],
        "new_frogs": list(day.new_frogs),
        "restored": list(day.restored),
        # A proposal holds its yes/no lists only once everyone has voted (§3.6).
        "proposals": [proposal.public() for proposal in day.proposals],
        "ritual_members": list(day.ritual_members),
        "ritual_result": _value(day.ritual_result),
        "vote": day.vote.public() if day.vote else None,
    }
    if day.vote and day.vote.exiled and s.settings.reveal_role_on_exile:
        entry["exiled_role"] = s.cat(day.vote.exiled).role.value
    return entry


def _private(s: GameState, me: Cat) -> dict[str, Any]:
    today = s.days[-1] if s.days else None
    mine: dict[str, Any] = {
        "name": me.name,
        "role": me.role.value,
        "side": me.role.side.value,
        "form": me.form.value,
        "away": me.away,
        "hand": [i.value for i in me.hand],
        "has_nightshade": me.role in (Role.WITCH, Role.CROW),
        "gathered": _gathered(s, me),
        "notes": sorted(_guess_notes(s, me) + _notes(me), key=lambda note: note["day"]),
        "peeks": [peek.public() for peek in me.peeks],
    }
    if me.role in (Role.WITCH, Role.CROW):
        mine["witches"] = [c.name for c in s.players if c.role is Role.WITCH and c is not me]
    if me.role is Role.SEER:
        mine["seer_results"] = [result.public() for result in me.seer_results]
        mine["seer_used_today"] = bool(today and today.seer_used)
    if me.role is Role.PICKPOCKET and today:
        mine["pickpocket_used_today"] = today.pickpocket_used
        if today.pickpocket_target:
            victim = s.cat(today.pickpocket_target)
            mine["peek"] = {"target": victim.name, "hand": [i.value for i in victim.hand]}
    if s.phase in TAP_PHASES:
        mine["done"] = me.name in s.done  # own Ready / OK / End talk
    if today is None:
        return mine
    _private_day(s, me, today, mine)
    return mine


def _private_day(s: GameState, me: Cat, today: Day, mine: dict[str, Any]) -> None:
    """Own choices of the current step, and the counts a witch or guarding Knight may see."""
    phase = s.phase
    # A witch's tapped place is her plan (docs/engine.md), shown as everyone's tap is.
    place = today.places.get(me.name) or today.witch_plans.get(me.name)
    if place:
        mine["place"] = place.value
    if me.role is Role.HERBALIST and today.restore:
        mine["restore"] = today.restore
    if me.role is Role.KNIGHT:
        mine["guarding"] = today.guarding
        if today.guard_place:
            mine["guard_place"] = today.guard_place.value
        if phase is Phase.GUARD:
            mine["counts"] = _counts(s)
    if me.role.is_witch and phase is Phase.WITCHES and me.form is Form.HUMAN:
        mine["counts"] = _counts(s)
        mine["witch_choices"] = {
            name: choice.model_dump(mode="json") for name, choice in today.witch_choices.items()
        }
        own = today.witch_choices.get(me.name)
        if own and own.place:
            mine["at_my_place"] = [n for n in queries.cats_at(s, own.place) if n != me.name]
    elif me.role.is_witch and me.name in today.witch_choices:
        mine["witch_choice"] = today.witch_choices[me.name].model_dump(mode="json")
    elif phase is Phase.WITCHES and me.name in today.guesses:
        mine["guess"] = today.guesses[me.name].model_dump(mode="json")
    if phase is Phase.APPROVAL and me.name in s.approvals:
        mine["approve"] = s.approvals[me.name]
    if phase is Phase.RITUAL and me.name in s.played:
        mine["played"] = s.played[me.name]
    if phase is Phase.VOTE and me.name in s.exile_votes:
        mine["vote"] = s.exile_votes[me.name]
    if phase is Phase.RITUAL and me.name in today.ritual_members:
        mine["playable"] = _playable(me)


def _resolved_days(s: GameState) -> list[Day]:
    """The days whose witches' turn is over and whose cards are handed out (§3.3 step ③):
    every day but today while its night is still to come."""
    today_open = bool(s.days) and not STEPS[s.phase].after_spells
    return s.days[:-1] if today_open and s.days[-1].number == s.day else s.days


def _gathered(s: GameState, me: Cat) -> list[dict[str, Any]]:
    """§4: on each day that has been handed out, the place ``me`` chose (a witch's from her
    choice) and the card the hand-out gave it (day.py, step ③: Rotten where a Spoil
    worked; None for a cat frogged or restored that day, or a guarding Knight). A day the
    cat spent as a frog or exiled has no entry."""
    entries = []
    for day in _resolved_days(s):
        choice = day.witch_choices.get(me.name)
        place = choice.place if choice else day.places.get(me.name)
        guarding = me.role is Role.KNIGHT and day.guarding
        if place is None and not guarding and me.name not in day.restored:
            continue
        card = day.handed_out.get(me.name)
        entries.append({"day": day.number, "place": _value(place), "ingredient": _value(card)})
    return entries


def _notes(me: Cat) -> list[dict[str, Any]]:
    """Every private result of the game, oldest day first, each with its ``kind`` and
    ``day``: ``spell`` (worked or not, §5), ``guard_repelled`` (§6.3), ``seer_look``
    (target, witch; §6.1) and ``peek`` (target, hand, took; §6.4). Within a day the end of
    the day's results come before the evening's looks and peeks, as they happened."""
    notes = [note.public() for note in me.notes]
    notes += [{"kind": "seer_look", **look.public()} for look in me.seer_results]
    notes += [{"kind": "peek", **peek.public()} for peek in me.peeks]
    return sorted(notes, key=lambda note: note["day"])


def _guess_notes(s: GameState, me: Cat) -> list[dict[str, Any]]:
    """[design] What ``me`` guessed in each witches' turn now over (docs/engine.md), after
    that day's other notes: a guess is only its own; the rules never read it."""
    notes = []
    for day in _resolved_days(s):
        guess = day.guesses.get(me.name)
        if guess is not None:
            notes.append({"kind": "guess", "day": day.number, **guess.model_dump(mode="json")})
    return notes


def _counts(s: GameState) -> dict[str, int]:
    return {place.value: n for place, n in queries.place_counts(s).items()}


def _playable(me: Cat) -> list[str]:
    cards = list(dict.fromkeys(i.value for i in me.hand)) or [EMPTY_PAW]
    if me.role in (Role.WITCH, Role.CROW):
        cards.append(NIGHTSHADE)
    return cards


def _full_day(s: GameState, day: Day) -> dict[str, Any]:
    """A day as the final reveal tells it, "the whole story" (§1): where every cat
    went, the Knight's guard, what each witch cast on whom and whether it worked, the news,
    every proposal with its yes and no, the ritual, every exile vote, the Seer's looks and
    the Pickpocket's peeks and thefts. Every secret of the game may be told at its end but
    the cards played in a ritual (§7): so a peek gives its victim and the card taken, never
    the hand seen, which would narrow down what a member played that night.

    Cats are named by seat (1-based, as in the view's ``players``), not by name: this view
    is pushed to every phone and kept in the lobby's ``last_result``, and a name may be 40
    characters, six bytes each once JSON escapes it; by seat a 12-cat game stays far below
    one 32 KB API Gateway frame whatever the names (tests/engine/test_s1_victory.py)."""
    seat = {cat.name: number for number, cat in enumerate(s.players, 1)}

    def seats(names: Iterable[str]) -> list[int]:
        return [seat[name] for name in names]

    return {
        "day": day.number,
        "required": [i.value for i in day.required],
        "dropped": [i.value for i in day.dropped],
        # In seat order: the place each cat gathered at (a witch's from her choice), or
        # None (a frog, an exiled cat, a guarding Knight, a cat restored that day).
        "places": [_value(_place_of(day, cat.name)) for cat in s.players],
        "guard": _guard(s, day, seat),
        "spells": [
            {
                "witch": seat[spell.witch],
                "place": spell.place.value,
                "spell": spell.spell.value,
                "target": seat.get(spell.target or ""),
                "worked": spell.worked,
            }
            for spell in day.spells
            if spell.spell is not Spell.NONE
        ],
        "new_frogs": seats(day.new_frogs),
        "restored": seats(day.restored),
        "proposals": [
            {
                "chief": seat[proposal.chief],
                "members": seats(proposal.members),
                "yes": seats(proposal.yes or []),
                "no": seats(proposal.no or []),
                "passed": bool(proposal.passed),
            }
            for proposal in day.proposals
        ],
        "ritual_members": seats(day.ritual_members),
        "ritual_result": _value(day.ritual_result),
        # [voter, target] in seat order; target None: the voter skipped (§8).
        "votes": [[seat[voter], seat.get(target or "")] for voter, target in day.vote.votes.items()]
        if day.vote
        else [],
        "exiled": seat[day.vote.exiled] if day.vote and day.vote.exiled else None,
        "looks": [
            {"seer": seat[cat.name], "target": seat[look.target], "witch": look.witch}
            for cat in s.players
            for look in cat.seer_results
            if look.day == day.number
        ],
        "peeks": [
            {"pickpocket": seat[cat.name], "target": seat[peek.target], "took": _value(peek.took)}
            for cat in s.players
            for peek in cat.peeks
            if peek.day == day.number
        ],
    }


def _place_of(day: Day, name: str) -> Place | None:
    choice = day.witch_choices.get(name)
    return choice.place if choice else day.places.get(name)


def _guard(s: GameState, day: Day, seat: dict[str, int]) -> dict[str, Any] | None:
    """§6.3: the Knight who guarded that day, and where (None: nobody guarded)."""
    if not day.guarding or day.guard_place is None:
        return None
    knight = next(cat for cat in s.players if cat.role is Role.KNIGHT)
    return {"knight": seat[knight.name], "place": day.guard_place.value}


def _value(member: RitualResult | Ingredient | Place | None) -> str | None:
    return None if member is None else member.value
