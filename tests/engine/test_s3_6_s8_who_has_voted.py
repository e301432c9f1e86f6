"""RULES §3.6 and §8, with UX.md's "who has voted (never how) is shown on every vote":
every view, the table screen's too, names the cats whose yes/no or exile
vote is in, in seat order, and nothing of what they voted."""

from engine.catch_the_witch import Phase
from tests.support.table import FOUR, Table

FISH = [["fish", "fish"]] * 6
VIEWERS = [*FOUR, None]  # every cat and the table screen


def _evening_done() -> Table:
    t = Table(FOUR, required=FISH)
    t.ready_all()
    t.places(Bo="river", Cy="river", Di="meadow")
    t.witch("Ann", "forest")
    t.evening()
    return t


def test_s3_6_every_view_names_who_has_voted_yes_or_no_and_never_how():
    t = _evening_done()
    assert t.view(None)["voted"] is None  # the proposal: no vote under way
    t.propose(["Bo", "Cy"])
    assert t.phase is Phase.APPROVAL
    assert all(t.view(name)["voted"] == [] for name in VIEWERS)
    t.do("Di", "approve", yes=False)
    t.do("Bo", "approve", yes=True)
    for name in VIEWERS:
        assert t.view(name)["voted"] == ["Bo", "Di"], name  # seat order, not vote order
        if name not in ("Bo", "Di"):
            assert "approve" not in str(t.view(name)["me"]), name
    t.do("Di", "approve", yes=True)  # a changed vote leaves no trace (§3.6)
    assert t.view(None)["voted"] == ["Bo", "Di"]


def test_s8_every_view_names_who_has_voted_in_the_exile_vote_and_never_for_whom():
    t = _evening_done()
    t.curse_day()
    assert t.phase is Phase.VOTE
    t.do("Cy", "vote", target=None)  # a Skip is a vote in
    t.do("Ann", "vote", target="Bo")
    for name in VIEWERS:
        view = t.view(name)
        assert view["voted"] == ["Ann", "Cy"], name
        assert "Bo" not in str(view["today"].get("vote") or ""), name
    t.votes()
    assert t.view(None)["voted"] is None  # the result scene shows the votes themselves
