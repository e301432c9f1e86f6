"""The day (RULES §3.2–§5): the morning draw, places, the Knight's guard, the witches'
15 seconds, and the end of the day (spells, restoration, handing out, the check).

``DayRules`` is a part of the turn (turn.py): ``self.s`` is the state being changed,
``self.public`` and ``self.secret`` its random streams (engine/rng.py), and the shared
checks (``_need_human``…) are the turn's.
"""

from dataclasses import dataclass, field

from ..errors import IllegalAction
from . import tables
from .actions import (
    ChooseGuard,
    ChoosePlace,
    GuardPlace,
    GuessPlace,
    GuessSpell,
    WitchPlace,
    WitchSpell,
)
from .domain import Form, Ingredient, Phase, Place, Role, Spell
from .queries import cats_at, check_end_of_day, frog_witnesses, human_witches, unlocked_spells
from .state import Cat, Day, Guess, SpellCast, WitchChoice


class DayRules:
    # -- §3.3 day: place choice ------------------------------------------------------------
    def on_choose_place(self, cat: Cat, action: ChoosePlace) -> None:
        s = self.s
        self._need_step_for("choose_place", what="Choosing a place", rule="§3.3")
        self._need_human(cat, "§3.3")
        if cat.role is Role.KNIGHT and s.today.guarding:
            raise IllegalAction(
                "You chose to Guard; that cannot be changed.", "§6.3", code="guard_final"
            )
        self._check_open(action.place)
        restore = None
        if action.restore is not None:
            if cat.role is not Role.HERBALIST:
                raise IllegalAction(
                    "Only the Herbalist can restore a frog.", "§6.2", code="herbalist_only"
                )
            target = self._target(action.restore, "§6.2")
            if target.form is not Form.FROG:
                raise IllegalAction(
                    f"{target.name} is not a frog.", "§6.2",
                    code="not_a_frog", params={"name": target.name},
                )  # fmt: skip
            restore = target.name
        if cat.role.is_witch:  # her plan: changeable like anyone's place (docs/engine.md)
            s.today.witch_plans[cat.name] = action.place
        else:
            s.today.places[cat.name] = action.place
        if cat.role is Role.HERBALIST:
            s.today.restore = restore

    def on_choose_guard(self, cat: Cat, action: ChooseGuard) -> None:
        s = self.s
        self._need_role_move(
            cat, cat.role is Role.KNIGHT, "Only the Guardian Knight can guard.",
            "choose_guard", what="Choosing Guard", rule="§6.3",
        )  # fmt: skip
        if s.today.guarding:
            raise IllegalAction("You already chose to Guard.", "§6.3", code="guard_final")
        s.today.places.pop(cat.name, None)
        s.today.guarding = True

    def on_guard_place(self, cat: Cat, action: GuardPlace) -> None:
        self._need_role_move(
            cat, cat.role is Role.KNIGHT, "Only the Guardian Knight can guard.",
            "guard_place", what="Picking a place to guard", rule="§6.3",
        )  # fmt: skip
        if self.s.today.guard_place is not None:
            raise IllegalAction(
                "The guard place cannot be changed.", "§6.3", code="guard_place_final"
            )
        self._check_open(action.place)
        self.s.today.guard_place = action.place

    # -- §3.3 / §5 the witches' 15 seconds -------------------------------------------------
    def on_witch_place(self, cat: Cat, action: WitchPlace) -> None:
        self._need_role_move(
            cat, cat.role.is_witch, "Only witches act during the witches' 15 seconds.",
            "witch_place", what="Choosing a witch's place", rule="§5",
        )  # fmt: skip
        if cat.name in self.s.today.witch_choices:
            raise IllegalAction(
                "A witch's choices are final once tapped.", "§3.3", code="witch_choice_final"
            )
        self._check_open(action.place)
        self.s.today.witch_choices[cat.name] = WitchChoice(place=action.place)
        self.s.today.witch_plans[cat.name] = action.place  # her tapped place from now on

    def on_witch_spell(self, cat: Cat, action: WitchSpell) -> None:
        s = self.s
        self._need_role_move(
            cat, cat.role.is_witch, "Only witches cast spells.",
            "witch_spell", what="Casting a spell", rule="§5",
        )  # fmt: skip
        choice = s.today.witch_choices.get(cat.name)
        if choice is None:
            raise IllegalAction("Choose a place before a spell.", "§5", code="choose_place_first")
        if choice.complete:
            raise IllegalAction(
                "A witch's choices are final once tapped.", "§3.3", code="witch_choice_final"
            )
        spell = action.spell
        target = self._spell_target(cat, spell, action.target, "§5")
        if target is not None and target not in cats_at(s, choice.place):
            raise IllegalAction(
                f"{target} is not at the {choice.place.value}.", "§5",
                code="target_not_there", params={"name": target, "place": choice.place.value},
            )  # fmt: skip
        choice.spell, choice.target = spell, target

    def _spell_target(self, cat: Cat, spell: Spell, target: str | None, rule: str) -> str | None:
        """§5: an unlocked spell (or none), with a target exactly when it needs one."""
        if spell is not Spell.NONE and spell not in unlocked_spells(self.s):
            raise IllegalAction(
                f"The {spell.value} spell is not unlocked yet.", rule,
                code="spell_locked", params={"spell": spell.value},
            )  # fmt: skip
        if not spell.needs_target:
            if target is not None:
                raise IllegalAction(
                    f"The {spell.value} spell takes no target.", rule,
                    code="spell_takes_no_target", params={"spell": spell.value},
                )  # fmt: skip
            return None
        if target is None:
            raise IllegalAction(
                f"The {spell.value} spell needs a target.", rule,
                code="spell_needs_target", params={"spell": spell.value},
            )  # fmt: skip
        if target == cat.name:
            raise IllegalAction("Choose another cat as the target.", rule, code="target_yourself")
        return target

    # -- [design] everyone else's guess in the witches' 15 s (docs/engine.md) ---------------
    def on_guess_place(self, cat: Cat, action: GuessPlace) -> None:
        self._need_role_move(
            cat, not cat.role.is_witch, "Witches choose; they do not guess.",
            "guess_place", what="Guessing a witch's place", rule="§3.3",
        )  # fmt: skip
        if cat.name in self.s.today.guesses:
            raise IllegalAction("A guess is final once tapped.", "§3.3", code="guess_final")
        self._check_open(action.place)
        self.s.today.guesses[cat.name] = Guess(place=action.place)

    def on_guess_spell(self, cat: Cat, action: GuessSpell) -> None:
        self._need_role_move(
            cat, not cat.role.is_witch, "Witches choose; they do not guess.",
            "guess_spell", what="Guessing a witch's spell", rule="§3.3",
        )  # fmt: skip
        guess = self.s.today.guesses.get(cat.name)
        if guess is None:
            raise IllegalAction("Choose a place before a spell.", "§3.3", code="choose_place_first")
        if guess.complete:
            raise IllegalAction("A guess is final once tapped.", "§3.3", code="guess_final")
        target = self._spell_target(cat, action.spell, action.target, "§3.3")
        if target is not None:  # any other cat in human form: who is where is not known
            self._need_human_target(self._target(target, "§3.3"), "§3.3")
        guess.spell, guess.target = action.spell, target

    # -- automatic choices (§9) ------------------------------------------------------------
    def auto_place(self, cat: Cat) -> None:
        """Random place (a witch: a random plan); Herbalist restores nobody; Knight gathers
        (§9)."""
        today = self.s.today
        chosen = today.witch_plans if cat.role.is_witch else today.places
        chosen[cat.name] = self.secret.choice(tables.open_places(self.s.day))
        if cat.role is Role.HERBALIST:
            today.restore = None

    def auto_witch(self, cat: Cat) -> None:
        """§5: her plan, or a random place if she has none, and no spell if the spell or its
        target is missing."""
        today = self.s.today
        choices = today.witch_choices
        if cat.name not in choices:
            plan = today.witch_plans.get(cat.name)
            place = plan or self.secret.choice(tables.open_places(self.s.day))
            choices[cat.name] = WitchChoice(place=place)
            today.witch_plans[cat.name] = place
        choices[cat.name].spell = Spell.NONE
        choices[cat.name].target = None

    # -- §3.2 morning ---------------------------------------------------------------------
    def start_day(self) -> None:
        s = self.s
        s.day += 1
        s.curse = 0
        s.approvals, s.exile_votes, s.played = {}, {}, {}
        size = min(tables.ritual_size(len(s.players), s.day), len(s.humans()))
        if len(s.scripted_required) >= s.day:
            drawn = list(s.scripted_required[s.day - 1])
        else:
            pool = [tables.ingredient_of(p) for p in tables.open_places(s.day)]
            # The duck's draws are shown to everyone this morning: the public stream.
            drawn = [self.public.choice(pool) for _ in range(size)]
        s.days.append(Day(number=s.day, required=drawn[:size], dropped=drawn[size:]))
        self.enter(Phase.MORNING)

    def start_witches(self) -> None:
        if human_witches(self.s):
            self.enter(Phase.WITCHES)
        else:  # §6: no witch in human form, the 15 s are skipped
            self.resolve_day()

    # -- §3.3 end of day: ① spells ② restoration ③ handing out ④ check ----------------------
    def resolve_day(self) -> None:
        s = self.s
        today = s.today
        guard = today.guard_place if today.guarding else None
        spells = _Spells()
        repelled = False
        for witch in s.players:  # all spells resolve against the state before ①
            choice = today.witch_choices.get(witch.name)
            if choice is None or choice.spell in (None, Spell.NONE):
                continue
            worked = self._cast(witch, choice, guard, spells)
            repelled = repelled or choice.place is guard
            today.spells.append(
                SpellCast(witch=witch.name, place=choice.place, spell=choice.spell,
                          target=choice.target, worked=worked)
            )  # fmt: skip
            self._note(witch, kind="spell", spell=choice.spell, worked=worked)
        for name, positions in spells.taken.items():
            victim = s.cat(name)
            victim.hand = [card for i, card in enumerate(victim.hand) if i not in positions]
        for name, card in spells.gained:
            s.cat(name).hand.append(card)
        frogs, spoiled = spells.frogs, spells.spoiled
        for name in frogs:
            s.cat(name).form = Form.FROG
        today.new_frogs = [name for name in s.names() if name in frogs]
        if repelled:
            knight = next(c for c in s.players if c.role is Role.KNIGHT)
            self._note(knight, kind="guard_repelled")
        # ② §6.2 restoration: only a Herbalist still in human form restores.
        herbalist = next((c for c in s.players if c.role is Role.HERBALIST), None)
        if today.restore and herbalist and herbalist.form is Form.HUMAN:
            target = s.cat(today.restore)
            if target.form is Form.FROG:
                target.form = Form.HUMAN
                today.restored.append(target.name)
        # ③ §4 handing out, in seat order.
        for cat in s.players:
            if cat.form is not Form.HUMAN or cat.name in today.restored:
                continue
            choice = today.witch_choices.get(cat.name)
            place = choice.place if choice else today.places.get(cat.name)
            if place is None:
                continue  # a guarding Knight gathers nothing
            card = Ingredient.ROTTEN if place in spoiled else tables.ingredient_of(place)
            cat.hand.append(card)
            today.handed_out[cat.name] = card
        # ④ §1 step 2.
        reason = check_end_of_day(s)
        if reason:
            self.end(reason)
            return
        # §1: with no non-witch in human form one of the checks above has fired.
        assert any(not c.role.is_witch for c in s.humans()), "end of day with no non-witch"
        # §2.2: capped again now that cats may have become frogs.
        humans = len(s.humans())
        if len(today.required) > humans:
            today.dropped = today.required[humans:] + today.dropped
            today.required = today.required[:humans]
        self.enter(Phase.EVENING)

    def _cast(
        self, witch: Cat, choice: WitchChoice, guard: Place | None, spells: "_Spells"
    ) -> bool:
        """§5: one spell's effect, noted in ``spells`` (nothing changes yet); returns whether
        it worked."""
        s = self.s
        if choice.place is guard:
            return False
        if choice.spell is Spell.SPOIL:
            spells.spoiled.add(choice.place)
            return True
        target = s.cat(choice.target)
        if choice.spell is Spell.FROG:
            witnesses = [
                name for name, place in s.today.places.items()
                if place is choice.place and name != target.name
            ]  # fmt: skip
            if len(witnesses) > frog_witnesses(s):
                return False
            spells.frogs.add(target.name)
            return True
        # Snatch: one random card of the target's hand as it was before ①, not one another
        # witch's Snatch took: a card is taken once, and one snatched today is not in reach.
        taken = spells.taken.setdefault(target.name, [])
        left = [i for i in range(len(target.hand)) if i not in taken]
        if not left:
            return False  # an empty hand, or its every card already snatched
        position = left[self.secret.below(len(left))]
        taken.append(position)
        spells.gained.append((witch.name, target.hand[position]))
        return True


@dataclass
class _Spells:
    """Step ①'s effects, gathered first and applied together (§5: all spells resolve at
    once against the state before step ①)."""

    frogs: set[str] = field(default_factory=set)
    spoiled: set[Place] = field(default_factory=set)
    #: Snatch: the positions taken from each target's hand as it was before ①…
    taken: dict[str, list[int]] = field(default_factory=dict)
    #: …and the card each casting witch gains, in casting (seat) order.
    gained: list[tuple[str, Ingredient]] = field(default_factory=list)
