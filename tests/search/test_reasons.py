"""The reasons of a hint (canasta_sim.search.reasons): phrases of hand-built feature vectors
worked out from the phrase table, and two pinned positions whose best moves differ in a named
feature getting different reasons."""

import pytest

from canasta_sim.game.infoset import InfoSet
from canasta_sim.search.analysis import analyse
from canasta_sim.search.reasons import NOISE, NOISE_BEST, Words, hint_reasons, reason

TAKE = {"take": 1.0, "pile_taken": 9 / 20, "new_melds": 1.0}
DRAW = {"draw": 1.0}


@pytest.mark.parametrize(
    ("own", "other", "words", "expected"),
    [
        # the features that differ, in the table's order; draw is the other's, without a phrase
        (TAKE, DRAW, Words("9s"), "takes the pile (9 cards); starts a meld of 9s"),
        (DRAW, TAKE, Words(), "draws from the stock"),
        (
            {"natural_made": 1.0, "danger": 0.1},
            {"hold": 1.0, "danger": 0.1},
            Words("8s", "4"),
            "completes a natural canasta of 8s",
        ),
        # lacking a feature the other has: the ABSENT phrase
        (
            {"hold": 1.0, "danger": 0.2},
            {"hold": 1.0, "next_known": 1.0, "danger": 0.2},
            Words("", "9"),
            "the next player holds no known 9: a safe discard",
        ),
        # a chance named when it differs by CHANCE_STEP or more
        (
            {"hold": 1.0, "danger": 0.12},
            {"hold": 1.0, "danger": 0.40},
            Words("", "9"),
            "a 12% chance that the next player takes the pile",
        ),
        # nothing differs: the move's own features, at most two
        (
            {"hold": 1.0, "danger": 0.12},
            {"hold": 1.0, "danger": 0.15},
            Words("", "9"),
            "a 12% chance that the next player takes the pile; melds nothing",
        ),
        (
            {"going_out": 1.0, "natural_made": 1.0, "new_melds": 1.0},
            None,
            Words("8s", "4"),
            "goes out; completes a natural canasta of 8s",
        ),
        (
            {"freezes": 1.0, "wild_discard": 1.0},
            {"hold": 1.0},
            Words("", "2"),
            "freezes the pile with a 2; discards a wild card",
        ),
        ({}, None, Words(), ""),
    ],
)
def test_reason_of_features(own, other, words, expected):
    assert reason(own, other, words) == expected


#: A 2-player play decision: 8 8 in hand and a meld of five 8s on the table.
CANASTA = {
    "players": 2,
    "rules": "classic",
    "seat": 0,
    "phase": "play",
    "turn": 20,
    "hand": "8 8 4 J",
    "pile": "5 6 Q",
    "stock": 81,
    "hand_sizes": [4, 9],
    "melds": [["8 8 8 8 8", "K K K"], ["Q Q Q"]],
}


@pytest.mark.parametrize(
    ("info", "moves", "expected"),
    [
        (
            InfoSet.from_file("docs/positions/take_or_draw.toml"),
            ["take the pile with 9 9", "draw"],
            ["takes the pile (9 cards); starts a meld of 9s", "draws from the stock"],
        ),
        (
            InfoSet.from_dict(CANASTA),
            ["meld 8 8, discard 4", "discard 8"],
            ["completes a natural canasta of 8s", "breaks a pair of 8s"],
        ),
    ],
)
def test_best_moves_differing_in_a_feature_get_different_reasons(info, moves, expected):
    """Taking the pile of 9 cards beats drawing; completing the canasta of 8s (R-51) beats
    throwing an 8 away: the analysis separates each pair, and each reason starts with the
    feature the moves differ in (first in the phrase table's order; a chance may follow)."""
    result = analyse(info, moves, worlds=2000, seed=1, rollout="expert")
    assert list(result.table.candidate) == moves
    assert result.table.vs_best_hi.iloc[1] < 0
    reasons = hint_reasons(result)
    assert len(reasons) == 2
    for got, start in zip(reasons, expected):
        assert got.startswith(start), (got, start)


def test_moves_within_noise_get_no_reason():
    """Two takes of the same pile the analysis cannot tell apart: no reason, the noise note."""
    info = InfoSet.from_file("docs/positions/take_or_draw.toml")
    moves = ["take the pile with 9 9", "take the pile with 9 2"]
    result = analyse(info, moves, worlds=100, seed=1, rollout="expert")
    assert result.table.vs_best_lo.iloc[1] <= 0 <= result.table.vs_best_hi.iloc[1]
    assert hint_reasons(result) == [NOISE_BEST, NOISE]
