"""A full bot game printed turn by turn (what `make dev` runs until the local stack exists).

python -m engine.demo --players 7 --seed 3
"""

import argparse
import sys

from .catch_the_witch import GameState, Phase, view
from .catch_the_witch.autoplay import play_new

ICONS = {"forest": "🌲", "meadow": "🌼", "river": "🐟", "cave": "💎", "tower": "🕯"}


class Narrator:
    """Prints the public story of a game as it unfolds, like the table screen would."""

    def __init__(self, out=None):
        self.out = out  # None: whatever sys.stdout is when printing
        self.last_step = -1

    def say(self, text: str) -> None:
        print(text, file=self.out)

    def __call__(self, action: dict, state: GameState) -> None:
        if state.step == self.last_step:
            return
        self.last_step = state.step
        v = view(state, None)
        today = v["today"]
        phase = state.phase
        if phase is Phase.PLACE_CHOICE:
            self.say(f"\n☀️  Day {v['day']} of {v['knights_day']} — seals {v['seals']}/"
                     f"{v['seals_to_win']}. The duck needs: {', '.join(today['required'])}")  # fmt: skip
        elif phase is Phase.WITCHES:
            self.say("   🌙 Everyone is gathering… the witches have 15 seconds.")
        elif phase is Phase.EVENING:
            frogs = today["new_frogs"]
            news = f"new frogs: {', '.join(frogs)}" if frogs else "everyone came back safely"
            if today["restored"]:
                news += f"; restored: {', '.join(today['restored'])}"
            self.say(f"   🦆 Evening: {news}.")
        elif phase is Phase.APPROVAL_RESULT:
            p = today["proposals"][-1]
            verdict = "passed" if p["passed"] else f"rejected (curse {v['curse']}/3)"
            self.say(f"   👑 {p['chief']} proposes {', '.join(p['members'])}: {verdict} "
                     f"— yes {p['yes']}, no {p['no']}")  # fmt: skip
        elif phase is Phase.RITUAL_RESULT or (phase is Phase.GAME_OVER and today["ritual_result"]
                                              and not today["vote"]):  # fmt: skip
            self.say(f"   🔮 The ritual: {today['ritual_result'].upper()}")
        elif phase is Phase.VOTE and today["ritual_result"] == "cursed":
            self.say("   ☠️  The curse gauge is full: no ritual tonight.")
        if phase in (Phase.VOTE_RESULT, Phase.GAME_OVER) and today and today["vote"]:
            vote = today["vote"]
            cast = ", ".join(f"{k}→{t or 'skip'}" for k, t in vote["votes"].items())
            self.say(f"   🗳  Vote: {cast}. Exiled: {vote['exiled'] or 'nobody'}")
        if phase is Phase.GAME_OVER:
            reveal = v["reveal"]
            self.say(f"\n🏁 {v['outcome']['winner'].upper()} win: {v['outcome']['reason']} "
                     f"on day {v['outcome']['day']}. Witch score: {reveal['witch_score']}")  # fmt: skip
            for name, role in reveal["roles"].items():
                form = next(p["form"] for p in v["players"] if p["name"] == name)
                self.say(f"   {name:8} {role:11} {form}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.demo", description=__doc__)
    parser.add_argument("--players", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--limit", type=int, default=120, help="discussion limit (s)")
    args = parser.parse_args(argv)
    print(f"🐈 Catch the Witch — {args.players} bot cats, seed {args.seed}")
    run = play_new(args.players, args.seed, {"discussion_limit": args.limit}, observer=Narrator())
    print(f"\n{run.actions} actions, {run.timeouts} timers fired, "
          f"{run.illegal_actions} illegal actions.")  # fmt: skip
    print("The playable local stack (phones on your Wi-Fi) comes with the backend issues.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
