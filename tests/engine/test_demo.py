"""`make dev`'s terminal demo tells a whole game and reveals the roles at the end."""

from engine import demo


def test_demo_prints_a_whole_game_with_the_final_reveal(capsys):
    assert demo.main(["--players", "6", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "Day 1 of 6" in out and "The duck needs" in out
    assert " win: " in out and "0 illegal actions" in out
    assert out.count("witch ") >= 2  # every role listed after the game
    assert out.rstrip().endswith("Play it on phones: make dev (README.md).")  # not a stale promise
