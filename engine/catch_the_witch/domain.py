"""Domain words as types (RULES.md §12 fixes every name here)."""

from enum import StrEnum


class Role(StrEnum):
    WITCH = "witch"
    CROW = "crow"
    JESTER = "jester"
    SEER = "seer"
    HERBALIST = "herbalist"
    KNIGHT = "knight"
    PICKPOCKET = "pickpocket"
    VILLAGER = "villager"

    @property
    def side(self) -> "Side":
        if self in (Role.WITCH, Role.CROW):
            return Side.WITCHES
        if self is Role.JESTER:
            return Side.JESTER
        return Side.VILLAGERS

    @property
    def is_witch(self) -> bool:
        return self is Role.WITCH


class Side(StrEnum):
    """Also the winner names of §12."""

    VILLAGERS = "villagers"
    WITCHES = "witches"
    JESTER = "jester"


class Place(StrEnum):
    FOREST = "forest"
    MEADOW = "meadow"
    RIVER = "river"
    CAVE = "cave"
    TOWER = "tower"


class Ingredient(StrEnum):
    MUSHROOM = "mushroom"
    MOONFLOWER = "moonflower"
    FISH = "fish"
    CRYSTAL = "crystal"
    CANDLE = "candle"
    ROTTEN = "rotten"


class Spell(StrEnum):
    FROG = "frog"
    SNATCH = "snatch"
    SPOIL = "spoil"
    NONE = "none"

    @property
    def needs_target(self) -> bool:
        return self in (Spell.FROG, Spell.SNATCH)


class Form(StrEnum):
    HUMAN = "human"
    FROG = "frog"
    EXILED = "exiled"


class Reason(StrEnum):
    SEALS_COMPLETE = "seals_complete"
    WITCHES_EXILED = "witches_exiled"
    WITCHES_ALL_FROGS = "witches_all_frogs"
    KNIGHTS_VOTE_SUCCESS = "knights_vote_success"
    WITCHES_TAKE_OVER = "witches_take_over"
    KNIGHTS_VOTE_FAIL = "knights_vote_fail"
    JESTER_EXILED = "jester_exiled"

    @property
    def winner(self) -> Side:
        return _WINNER_OF_REASON[self]


_WINNER_OF_REASON = {
    Reason.SEALS_COMPLETE: Side.VILLAGERS,
    Reason.WITCHES_EXILED: Side.VILLAGERS,
    Reason.WITCHES_ALL_FROGS: Side.VILLAGERS,
    Reason.KNIGHTS_VOTE_SUCCESS: Side.VILLAGERS,
    Reason.WITCHES_TAKE_OVER: Side.WITCHES,
    Reason.KNIGHTS_VOTE_FAIL: Side.WITCHES,
    Reason.JESTER_EXILED: Side.JESTER,
}


class BotLevel(StrEnum):
    """[design] How sharply the bots deduce: a room setting, not a rules word.
    Sharp is the bots the balance rests on (§11); gentle is a table to learn at
    (docs/engine.md, docs/balance.md "The gentle table")."""

    SHARP = "sharp"
    GENTLE = "gentle"


class RitualResult(StrEnum):
    """§3.7: how the day's ritual went; cursed: a full curse gauge, no ritual (§3.6)."""

    SUCCESS = "success"
    FAILURE = "failure"
    CURSED = "cursed"


class Phase(StrEnum):
    """The steps of a day (§3) as the engine walks them."""

    ROLE_CHECK = "role_check"
    MORNING = "morning"  # §3.2 the duck announces the ingredients; only its timer ends it
    PLACE_CHOICE = "place_choice"  # §3.3 every cat in human form taps a place (witches: a plan)
    GUARD = "guard"  # §6.3 the guarding Knight picks a place from the counts
    WITCHES = "witches"  # §3.3/§5 the witches' 15 s ("Gathering" for everyone else)
    EVENING = "evening"  # §3.4 the duck's announcement, everyone taps OK
    DISCUSSION = "discussion"  # §3.4 evening discussion, End talk
    PROPOSAL = "proposal"  # §3.5 the Chief proposes
    APPROVAL = "approval"  # §3.6 public yes/no vote
    APPROVAL_RESULT = "approval_result"  # §3.6 passed / rejected scene, everyone taps OK
    RITUAL = "ritual"  # §7 members play a card each
    RITUAL_RESULT = "ritual_result"  # §3.7 success / failure scene, OK
    SQUABBLE = "squabble"  # §3.7 4-second "Who was it?!"
    VOTE = "vote"  # §8 exile vote
    VOTE_RESULT = "vote_result"  # §8 result scene, OK, then the next morning
    GAME_OVER = "game_over"


#: Cards Nightshade and the empty paw are plays, never cards in a hand (§7).
NIGHTSHADE = "nightshade"
EMPTY_PAW = "empty"
