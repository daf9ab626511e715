"""``apprentice@8``: the apprentice of bots version 8, a preset that plays version 8's own weight
files (``data/apprentice8_{N}p.npz``), as a bot and as the search bot's rollout bot
(``pimc:rollout=apprentice@8``); ``apprentice@9`` and ``apprentice@10`` the same for versions 9
and 10."""

import pytest

from canasta_sim import Rules, compare, simulate
from canasta_sim.nb.bots.policies import ApprenticeParam, PimcParam, PolicyCode
from canasta_sim.players.specs import (
    parse_bot,
    search_rollout_bot,
    seat_arrays,
    side_bots,
    weight_sets,
)
from canasta_sim.players.weights import DATA, default_weights_path, weights_hash

#: The SHA-256 (first 16 hex digits) of version 8's weight files, recorded when they shipped:
#: the files are frozen, so that ``apprentice@8`` plays as version 8 did for good.
VERSION_8 = {
    2: "11789839d55e2636",
    3: "d3415a53451d04b6",
    4: "3918411903982cfd",
    6: "947621cf88e261da",
}


#: The same of version 9's weight files (``apprentice@9``), recorded when they shipped.
VERSION_9 = {
    2: "ac7513877da50e4d",
    3: "6be9cf85bfd17876",
    4: "f29b4b8bc67b1fc4",
    6: "4e2491ce52d63dc1",
}


#: The same of version 10's weight files (``apprentice@10``), recorded when version 11 shipped
#: (the shipped files of version 10, unchanged since commit 14d67b8).
VERSION_10 = {
    2: "b67a0cd583580fa1",
    3: "0dece5387a57476a",
    4: "31a89e866ee5b3f1",
    6: "5f7f723efac2b4a6",
}


#: The same of version 11's weight files (``apprentice@11``), recorded when version 12 shipped
#: (the shipped files of version 11, unchanged since commit 024100f).
VERSION_11 = {
    2: "c653f5337f551f79",
    3: "1341b2f2a2836586",
    4: "1285115f8e3be3c9",
    6: "121f7e74bb780da3",
}


@pytest.mark.parametrize("players", sorted(VERSION_8))
@pytest.mark.parametrize(
    "version, hashes", [(8, VERSION_8), (9, VERSION_9), (10, VERSION_10), (11, VERSION_11)]
)
def test_frozen_files_are_the_recorded_ones(players, version, hashes):
    assert weights_hash(DATA / f"apprentice{version}_{players}p.npz") == hashes[players]


@pytest.mark.parametrize(
    "spec, canonical",
    [
        ("apprentice@8", "apprentice@8"),
        (" Apprentice@8:top=3", "apprentice@8:top=3"),
        ("pimc:rollout=apprentice@8,worlds=4", "pimc:worlds=4,rollout=apprentice@8"),
        (
            "pimc:prior_top=2,rollout=apprentice@8",
            "pimc:rollout=apprentice@8,prior_top=2",
        ),
    ],
)
def test_specs_round_trip_with_the_family(spec, canonical):
    bot = parse_bot(spec)
    assert bot.spec == canonical
    assert parse_bot(bot.spec) == bot
    assert bot.family == "apprentice8"
    # another bot than today's apprentice (or search bot rolling out with it), which plays
    # other files as soon as a version ships new ones
    today = parse_bot(canonical.replace("apprentice@8", "apprentice"))
    assert not bot.plays_as(today, 4)
    assert bot.values_at(4) == today.values_at(4)


def test_a_spec_weight_file_wins_over_the_family():
    path = str(default_weights_path(2))
    bot = parse_bot(f"apprentice@8:weights={path}")
    assert bot.spec == f"apprentice@8:weights={path}"
    _, params = seat_arrays([bot, bot], 2)
    files, _ = weight_sets([[bot, bot]], 2, params[None])
    assert files == (path,)


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_weight_sets_pick_version_8_files_at_every_player_count(players):
    """An ``apprentice@8`` seat and a ``pimc:rollout=apprentice@8`` seat read
    ``apprentice8_{players}p.npz`` (one weight set, index 0 in both seats' slots); today's
    apprentice at the third side (3 players) reads the default file, index 1."""
    sides = Rules(players=players).sides
    specs = ["apprentice@8", "pimc:rollout=apprentice@8,worlds=4", "apprentice"][:sides]
    bots = side_bots(specs, sides)
    _, params = seat_arrays(bots, players)
    files, weights = weight_sets([bots], players, params[None])
    names = [f.rpartition("/")[2] for f in files]
    expected = [f"apprentice8_{players}p.npz"] + [f"apprentice_{players}p.npz"] * (sides == 3)
    assert names == expected and weights.shape[0] == len(expected)
    assert params[0, ApprenticeParam.weight_set] == 0
    assert params[1, PimcParam.weight_set] == 0
    assert params[1, PimcParam.rollout] == PolicyCode.apprentice
    if sides == 3:
        assert params[2, ApprenticeParam.weight_set] == 1


def test_the_search_bots_rollout_bot_is_version_8s():
    inner = search_rollout_bot(parse_bot("pimc:rollout=apprentice@8,rollout.safety=80"))
    assert inner.spec == "apprentice@8:expert.safety=80"
    assert inner.family == "apprentice8"


@pytest.mark.parametrize(
    "spec, message",
    [
        ("apprentice@12", "unknown bot 'apprentice@12'; allowed: "),
        ("pimc:rollout=apprentice@7", "rollout bot 'apprentice@7' in "),
        ("pimc:rollout=apprentice,rollout=apprentice@8", "(apprentice and apprentice@8)"),
    ],
)
def test_unknown_versions_are_refused_naming_the_allowed(spec, message):
    with pytest.raises(ValueError) as err:
        parse_bot(spec)
    assert message in str(err.value)
    if "twice" not in str(err.value):
        allowed = (
            "apprentice, expert@1, expert@2, expert@3, apprentice@8, apprentice@9, "
            "apprentice@10, apprentice@11"
        )
        assert allowed in str(err.value)


def test_apprentice_8_plays_its_own_files():
    """``apprentice@8`` plays version 8's files: against the apprentice given the same file by
    path a rotated comparison scores a difference of exactly 0 and equal wins; against today's
    default files (bots version 10's, another network) the two bots play other deals. The
    manifest names version 8's file by package and name."""
    assert weights_hash(default_weights_path(4)) != VERSION_8[4]
    same = f"apprentice:weights={DATA / 'apprentice8_4p.npz'}"
    table, _ = compare("apprentice@8", same, deals=300, rules=Rules(players=4), seed=3)
    a, b = table.iloc[0], table.iloc[1]
    assert a["bot"] == "apprentice@8"
    assert a["mean_diff"] == 0 and b["mean_diff"] == 0
    assert a["wins"] == b["wins"] and a["mean_score"] == b["mean_score"]
    files = {w["file"]: w["sha256"] for w in table.attrs["manifest"]["weights"]}
    assert files["apprentice8_4p.npz"] == VERSION_8[4]
    table, _ = compare("apprentice@8", "apprentice", deals=300, rules=Rules(players=4), seed=3)
    assert table.iloc[0]["mean_diff"] != 0


def test_search_bot_rolls_out_with_version_8():
    """``pimc:rollout=apprentice@8,worlds=4`` plays a short run, deal for deal as the search bot
    rolling out with the apprentice given version 8's file by path; its manifest names version
    8's file and the bot's spec."""
    rules = Rules(players=2)
    path = DATA / "apprentice8_2p.npz"
    old = simulate(4, rules=rules, bots=["pimc:rollout=apprentice@8,worlds=4", "apprentice"])
    new = simulate(
        4, rules=rules, bots=[f"pimc:rollout=apprentice,worlds=4,weights={path}", "apprentice"]
    )
    assert len(old.sides) == 8
    assert old.sides["score"].tolist() == new.sides["score"].tolist()
    manifest = old.manifest
    assert [w["file"] for w in manifest["weights"]] == ["apprentice8_2p.npz", "apprentice_2p.npz"]
    assert "pimc:worlds=4,rollout=apprentice@8" in manifest["bot_parameters"]


def test_labels_roll_out_with_version_8_files(tmp_path):
    """A labelling search rolling out with ``apprentice@8`` reads version 8's file, not the
    previous round's folder (``LabelPlan.weights``), which names today's apprentice; its
    ``weights=PATH`` still wins."""
    from canasta_sim.learn.shards import LabelPlan, rollout_weights

    plan = LabelPlan(search="pimc:rollout=apprentice@8", weights=str(tmp_path))
    path, weights = rollout_weights(plan, parse_bot(plan.search), 2)
    assert path == str(DATA / "apprentice8_2p.npz") and weights.shape[0] == 1
    mine = str(default_weights_path(2))
    path, _ = rollout_weights(plan, parse_bot(f"{plan.search},weights={mine}"), 2)
    assert path == mine
