"""Burn the Witch's one table of numbers (RULES-burn-the-witch.md §2, §4, §6).

[book] rows and limits are the rulebook's; [design] numbers may change only here, written up
in docs/burn-the-witch.md (and docs/balance-burn-the-witch.md for balance changes).
"""

from dataclasses import dataclass

MIN_PLAYERS = 5
MAX_PLAYERS = 10


@dataclass(frozen=True)
class SetupRow:
    """One row of §2's setup table."""

    per_house: int
    #: Innocents in play, devout included (the table's "innocents (devout)").
    innocents: int
    devout: int
    witches: int
    #: Innocents burned at which the sympathizers win (§1).
    wrongly_condemned: int


SETUP: dict[int, SetupRow] = {
    5: SetupRow(per_house=4, innocents=18, devout=6, witches=2, wrongly_condemned=13),  # [book]
    6: SetupRow(per_house=3, innocents=16, devout=4, witches=2, wrongly_condemned=12),  # [book]
    7: SetupRow(per_house=3, innocents=19, devout=5, witches=2, wrongly_condemned=14),  # [book]
    8: SetupRow(per_house=3, innocents=21, devout=5, witches=3, wrongly_condemned=16),  # [book]
    9: SetupRow(per_house=3, innocents=24, devout=6, witches=3, wrongly_condemned=18),  # [design]
    10: SetupRow(per_house=3, innocents=27, devout=7, witches=3, wrongly_condemned=20),  # [design]
}

#: §2 [book]: a house dealt this many witches is redealt.
REDEAL_WITCHES = 3
#: §2 [book]: a player dealt this many witches has a coven.
COVEN_WITCHES = 2

#: §2 [design]: the witching hour's fixed length, the same for every phone whatever the
#: coven does (a shorter one would tell the table there is no coven). It is also the
#: coven's limit to choose a direction.
WITCHING_HOUR_SECONDS = 30
#: §4 [book]: the Trial by Fire's sand timer.
TRIAL_SECONDS = 120
#: §6 [book optional rules]: the accuse, vote and execute limit with timers on (default).
TIMER_SECONDS_DEFAULT = 120
TIMER_SECONDS_MIN = 30
TIMER_SECONDS_MAX = 600
#: §6 [design]: the limit of every choice of a villager to lose (and the retribution)
#: with timers off; with timers on it is the room's timer.
CHOICE_SECONDS = 120


def setup_row(player_count: int) -> SetupRow:
    return SETUP[player_count]
