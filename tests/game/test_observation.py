"""The observation (issue 24 item 2): one seat-relative array of what a seat knows, its layout
table and page, its readable form, and the information set built from it and back."""

from pathlib import Path

import numpy as np
import pytest

from canasta_sim import Deal, InfoSet, Rules
from canasta_sim import cards as C
from canasta_sim.game.observe import Observation, layout_markdown
from canasta_sim.nb.engine.observation import OBS_LAYOUT, OBS_LEN, ObsSlot
from canasta_sim.nb.engine.state import MAX_CARDS, MAX_PLAYERS, MAX_SIDES
from canasta_sim.nb.enums import RED_THREE, DealSlot
from canasta_sim.players.choices import candidates

ROOT = Path(__file__).resolve().parents[2]
K = {name: i for i, name in enumerate(C.KINDS)}
VARIANTS = [(p, preset) for p in (2, 3, 4, 6) for preset in ("classic", "hoyle")]


def rest_of_pack(*texts, red_threes=0):
    """The cards of the 108-card pack not named in ``texts`` nor laid out as red threes."""
    rest = C.KIND_COUNTS_108.astype(np.int64)
    for text in texts:
        rest -= C.parse_cards(text)
    rest[K["R3"]] -= red_threes
    return C.format_cards(rest)


def decisions(players, preset, seed, limit=60):
    """Pinned decisions of one deal played with random candidates (seeded): the deal at each
    draw-phase and play-phase decision, the pile taken about half the time it may be."""
    rng = np.random.default_rng(seed)
    deal = Deal.new(Rules.preset(preset, players=players), seed, scores={0: 1600, 1: -20})
    for _ in range(limit):
        if deal.is_over:
            return
        yield deal
        offered = candidates(deal)
        takes = [c for c in offered if c.move == "take"]
        pick = takes if takes and rng.random() < 0.5 else offered
        pick[rng.integers(len(pick))].apply(deal)


# --- the layout -------------------------------------------------------------------------------
def test_the_layout_is_one_contiguous_table_with_rule_ids():
    offset = 0
    for f in OBS_LAYOUT:
        assert f.offset == offset == getattr(ObsSlot, f.name)
        assert f.rules.startswith("R-") and f.meaning
        offset += f.length
    assert OBS_LEN == offset
    sizes = {"seat": MAX_PLAYERS, "side": MAX_SIDES, "pile": MAX_CARDS}
    for f in OBS_LAYOUT:  # rows sized for the largest table
        assert f.shape[0] == sizes.get(f.rows, f.shape[0])


def test_docs_observation_md_is_written_from_the_layout():
    """``python scripts/observation_doc.py`` rewrites the page."""
    text = (ROOT / "docs" / "observation.md").read_text()
    assert text == layout_markdown()
    assert "| `pile_codes` | 394 | 162 | 162 |" in text


# --- values by hand ---------------------------------------------------------------------------
def four_player_position():
    hands = ["9 9 K K 5", "4 4 6 6 7", "8 8 10 10 J", "Q Q A A 6"]
    return Deal.from_position(
        Rules(players=4),
        hands=hands,
        stock=rest_of_pack(*hands, "4 J 9", "K K K", "A A A 2", red_threes=1),
        pile="4 J 9",
        melds={0: ["K K K"], 1: ["A A A 2"]},
        red_threes={1: 1},
        scores={0: 1600, 1: -20},
        current=0,
    )


def test_seat_one_sees_itself_first_and_its_own_side_first():
    obs = four_player_position().observation(1)
    assert (obs.players, obs.sides, obs.phase, obs.turn) == (4, 2, 0, 0)
    assert obs.current == 3  # seat 0 plays: three places after seat 1 in turn order
    assert obs.dealer == 2  # seat 3 dealt (seat 0 plays turn 0, R-11)
    assert obs.seat_hand_sizes.tolist() == [5, 5, 5, 5]
    assert C.format_cards(obs.hand_counts) == "4 4 6 6 7"
    # row 0 is side 1 (A A A 2, one red three, score -20: minimum 15), row 1 side 0
    assert obs.side_melds[0, K["A"] - 1].tolist() == [3, 1, 0]
    assert obs.side_melds[1, K["K"] - 1].tolist() == [3, 0, 0]
    assert obs.side_melds.sum() == 7
    assert obs.side_red_threes.tolist() == [1, 0]
    assert obs.side_scores.tolist() == [-20, 1600]
    assert obs.side_minimums.tolist() == [15, 90]
    assert obs.side_melded.tolist() == [1, 1]
    assert obs.pile_codes.tolist() == [K["4"], K["J"], K["9"]]
    assert (obs.pile_size, obs.pile_top, obs.pile_freeze, obs.pile_frozen) == (3, K["9"], 0, 0)
    assert obs.stock_size == 108 - 20 - 3 - 7 - 1
    # unseen: the pack less the hand, pile, melds and the red three
    assert obs.unseen_counts.sum() == 108 - 5 - 3 - 7 - 1
    assert obs.unseen_counts[K["4"]] == 8 - 2 - 1
    assert obs.unseen_counts[K["A"]] == 8 - 3
    assert obs.unseen_counts[K["2"]] == 8 - 1
    assert obs.unseen_counts[K["R3"]] == 4 - 1
    # the padding of a 4-player table
    arr = obs.array
    assert arr[ObsSlot.seat_hand_sizes + 4 : ObsSlot.seat_hand_sizes + 6].tolist() == [0, 0]
    assert arr[ObsSlot.seat_first_meld_turns + 4 : ObsSlot.seat_first_meld_turns + 6].tolist() == [
        -1,
        -1,
    ]
    assert (arr[ObsSlot.pile_codes + 3 : ObsSlot.pile_codes + MAX_CARDS] == -1).all()


def test_a_pickup_shows_the_known_cards_and_this_turns_meld():
    d = four_player_position()
    d.take_pile("9 9")  # seat 0 (side 0, melded): 9 9 9 on the table, 4 J to the hand
    obs = d.observation(1)
    assert obs.phase == 1 and obs.current == 3
    assert C.format_cards(obs.seat_known_counts[3]) == "4 J"  # seat 0 is row 3 from seat 1
    assert C.format_cards(obs.from_pile_counts) == "4 J"  # still in the hand
    assert obs.side_melds_this_turn[1].tolist() == [int(r == K["9"] - 1) for r in range(12)]
    assert obs.side_pile_melds.sum() == 0  # the top card and the player's own nines
    assert obs.seat_hand_sizes.tolist() == [5, 5, 5, 2 + 3]  # K K 5 left, 4 J taken
    assert obs.pile_size == 0 and obs.pile_top == -1
    own = d.observation(0)
    assert own.seat_known_counts.sum() == 0  # the observer's own hand is in hand, not in known
    assert C.format_cards(own.hand_counts) == "4 5 J K K"


def test_a_black_three_on_top_blocks_the_pile():
    hands = ["9 9 K K 5", "4 4 6 6 7"]
    d = Deal.from_position(
        Rules(players=2), hands=hands, stock=rest_of_pack(*hands, "4 2 B3"), pile="4 2 B3"
    )
    obs = d.observation()
    assert (obs.pile_blocked, obs.pile_top, obs.pile_freeze, obs.pile_frozen) == (1, 1, 1, 1)


# --- the readable form ------------------------------------------------------------------------
def test_the_observation_is_a_read_only_value():
    d = four_player_position()
    a, b = d.observation(2), d.observation(2)
    assert a == b and hash(a) == hash(b) and a != d.observation(3)
    assert a.array.dtype == np.int32 and a.array.shape == (OBS_LEN,)
    with pytest.raises(ValueError):
        a.array[0] = 5
    assert list(a.fields()) == [f.name for f in OBS_LAYOUT]
    with pytest.raises(AttributeError, match="no field 'hands'"):
        _ = a.hands
    with pytest.raises(ValueError, match=f"shape \\({OBS_LEN},\\)"):
        Observation(d.rules, 0, np.zeros(5, np.int32))
    with pytest.raises(ValueError, match="seat"):
        d.observation(4)


# --- the information set from it and back -----------------------------------------------------
@pytest.mark.parametrize("players,preset", VARIANTS)
def test_info_set_and_observation_make_each_other_on_pinned_decisions(players, preset):
    phases = set()
    for deal in decisions(players, preset, seed=players):
        phases.add(deal.phase)
        for seat in range(players):
            obs = deal.observation(seat)
            info = deal.info_set(seat)
            assert InfoSet.from_observation(obs) == info
            assert info.observation() == obs  # through the information set's own state
            assert InfoSet.from_observation(info.observation()) == info
    assert phases == {"draw", "play"}


def test_position_files_round_trip_through_the_observation():
    pytest.importorskip("tomllib")
    for path in sorted((ROOT / "docs" / "positions").iterdir()):
        info = InfoSet.from_file(path)
        assert InfoSet.from_observation(info.observation()) == info


# --- what changes it --------------------------------------------------------------------------
def reshuffle_hidden(deal, seat, rng):
    """A copy of ``deal`` with the other hands' unknown cards and the stock dealt anew from
    the same cards (red threes stay in the stock: they are never held, R-15)."""
    other = deal.copy()
    state, rules = other.state, other.rules
    free = state["hands"][: rules.players].astype(np.int64) - state["known"][: rules.players]
    free[seat] = 0
    start, n = rules.n_cards - deal.stock_size, rules.n_cards
    cards = np.concatenate(
        [np.repeat(np.arange(C.N_KINDS), free.sum(axis=0)), state["stock"][start:n]]
    )
    held = cards[cards != RED_THREE]
    rng.shuffle(held)
    i = 0
    for p in range(rules.players):
        k = int(free[p].sum())
        if p != seat:
            state["hands"][p] = state["known"][p] + np.bincount(
                held[i : i + k], minlength=C.N_KINDS
            )
        i += k
    rest = np.concatenate([held[i:], cards[cards == RED_THREE]])
    rng.shuffle(rest)
    state["stock"][start:n] = rest
    return other


def swap_with_hidden(deal, seat, where, rng):
    """A copy of ``deal`` with one visible card (in ``seat``'s hand, the pile or a meld)
    swapped with a hidden stock card of another kind, or None when there is none to swap."""
    other = deal.copy()
    state, rules = other.state, other.rules
    start = rules.n_cards - deal.stock_size
    stock = state["stock"][start : rules.n_cards]
    if where == "hand":
        kinds = np.nonzero(state["hands"][seat])[0]
        a = int(rng.choice(kinds))
        at = np.nonzero((stock != a) & (stock != RED_THREE))[0]
        if not len(at):
            return None
        j = int(rng.choice(at))
        state["hands"][seat, a] -= 1
        state["hands"][seat, stock[j]] += 1
        stock[j] = a
    elif where == "pile":
        n = int(state["g"][DealSlot.pile_len])
        if n == 0:
            return None
        i = int(rng.integers(n))
        at = np.nonzero(stock != state["pile"][i])[0]
        if not len(at):
            return None
        j = int(rng.choice(at))
        state["pile"][i], stock[j] = stock[j], state["pile"][i]
    else:  # a meld's natural for a hidden deuce: the meld holds one wild card more
        sides_, ranks = np.nonzero(state["melds"][: rules.sides, :, 0])
        at = np.nonzero(stock == K["2"])[0]
        if not len(sides_) or not len(at):
            return None
        m = int(rng.integers(len(sides_)))
        s, r = int(sides_[m]), int(ranks[m])
        state["melds"][s, r, 0] -= 1
        state["melds"][s, r, 1] += 1
        stock[at[0]] = r
    return other


@pytest.mark.parametrize("players,preset", VARIANTS)
def test_hidden_cards_never_change_the_observation_and_visible_cards_do(players, preset):
    rng = np.random.default_rng(100 + players)
    hidden_moved = 0
    changed = {"hand": 0, "pile": 0, "meld": 0}
    for deal in decisions(players, preset, seed=10 + players):
        for seat in range(players):
            obs = deal.observation(seat).array.tobytes()
            other = reshuffle_hidden(deal, seat, rng)
            hidden_moved += not np.array_equal(other.state["hands"], deal.state["hands"])
            assert other.observation(seat).array.tobytes() == obs
            for where in changed:
                swapped = swap_with_hidden(deal, seat, where, rng)
                if swapped is not None:
                    assert swapped.observation(seat).array.tobytes() != obs
                    changed[where] += 1
    assert hidden_moved > 0 and min(changed.values()) > 0
