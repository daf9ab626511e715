"""The table of policies: one entry per bot, from which everything else derives.

Each :class:`Policy` gives the bot's name, its kernel code (its position in
:data:`POLICIES`), its turn kernel (by name), whether it searches (needs the search work
arrays), whether it is learned (needs weight sets and the feature work records too), its
parameters in kernel order (name, default, range, meaning) and a plain-words summary. From this
table come the policy codes the kernels branch on (:data:`PolicyCode`, used by :mod:`.turn`),
the turn kernel each code calls from Python (:func:`.turn.play_turn`), which codes may play
rollouts (:data:`ROLLOUT_CODES`), which need the search work arrays (:data:`WORK_CODES`:
:data:`SEARCH_CODES` and :data:`LEARNED_CODES`) and which the feature work records
(:data:`LEARNED_CODES`), the expert's parameter slots (:data:`ExpertParam`) and defaults,
:data:`canasta_sim.players.specs.POLICIES` and the policy section of ``docs/bots.md``
(``scripts/bots_doc.py``). Adding a bot: a policy file with its turn kernel, an entry here,
and its branch in :func:`.turn.play_turn_nb` (numba cannot call through a table of kernels
without compiling them as callbacks in every process).

Pure data: no kernels are imported here.
"""

from __future__ import annotations

from collections import namedtuple
from dataclasses import dataclass, replace


@dataclass(frozen=True)
class Param:
    """One bot parameter: default, allowed closed range, what it does, whether only whole
    numbers make sense, and the player counts whose default differs (``by_players``:
    ``((players, default), ...)``; ``default`` holds at every other count)."""

    name: str
    default: float
    low: float
    high: float
    doc: str
    integer: bool = True
    by_players: tuple[tuple[int, float], ...] = ()

    def default_at(self, players: int) -> float:
        """The default with ``players`` at the table."""
        return dict(self.by_players).get(players, self.default)


@dataclass(frozen=True)
class Policy:
    """A policy: its kernel code, its turn kernel (``"module.function"`` in
    :mod:`canasta_sim.nb.bots`), parameters in kernel order, a plain-words summary, whether
    it searches and whether it is learned.

    A searching policy's turn kernel takes the search work arrays too and its rollout
    apprentice's scratch (``(state, rules, bot, params, rstate, work, learner, log)``,
    :func:`.pimc.rollout_turn_nb`), and it plays no rollouts (a search in every rollout turn);
    a learned policy's takes the weight sets, the search work arrays (for its candidates) and
    a feature work record (``(state, rules, bot, params, weights, rstate, work, fwork,
    log)``); the others take ``(state, rules, bot, params,
    log)`` with parameters and ``(state, rules, bot, log)`` without."""

    name: str
    code: int
    turn: str
    params: tuple[Param, ...]
    doc: str
    search: bool = False
    learned: bool = False


EXPERT_PARAMS = (
    Param(
        "pile_threshold",
        6.0,
        1,
        50,
        "Smallest discard pile (cards) taken with natural cards: a natural pair (or more) "
        "with the top card (R-32, R-33 a), or the top card onto the side's meld of its rank "
        "(R-33 c) while meld_pile is 0; a pickup spending a wild card (one natural and a wild, "
        "R-33 b) needs wild_factor times as many. With the stock empty, a pickup R-44 forces "
        "is taken at any size.",
    ),
    Param(
        "meld_keep",
        53.0,
        2,
        100,
        "Cards kept in hand when melding without going out (meld timing; the rules' "
        "floor is 2, R-22): a fuller hand keeps pairs for pickups and safe discards. "
        "Under a threat or in the end game it keeps at most 3; a value above every "
        "hand's size melds after the initial meld only then, or to go out.",
    ),
    Param(
        "hold_wilds",
        1.0,
        0,
        1,
        "1: wild cards only complete canastas, reach the minimum count or go out (and "
        "may freeze the pile); 0: also start melds from a natural pair and a wild and "
        "put spare wild cards on melds, like greedy.",
    ),
    Param(
        "freeze_risk",
        0.263,
        0,
        100,
        "Discard a wild card, freezing the pile (R-24, R-31), when the safest other "
        "discard would hand the next opponent about this many pile cards in expectation "
        "or more (chance they can take the pile times its size).",
        integer=False,
    ),
    Param(
        "safety",
        90.82,
        0,
        1000,
        "Weight of discard danger (chance that the next opponent can take the pile, "
        "times the cards they would get) against how much the card is worth keeping.",
        integer=False,
    ),
    Param(
        "block_at",
        40.0,
        0,
        50,
        "Pile size (cards) at which a black three is discarded to block the next player "
        "(R-23); smaller piles keep it back (two or more in hand always go).",
    ),
    Param(
        "out_lead",
        1958.0,
        -5000,
        5000,
        "Go out only when the side's estimated deal score leads the best opponent's by "
        "at least this many points (negative: also when behind); otherwise hold back "
        "to build more canastas, unless an opponent threatens to go out, the stock is "
        "nearly empty, or going out wins the game (R-55).",
    ),
    Param(
        "natural_wait",
        7.0,
        2,
        7,
        "A wild-free meld with at least this many naturals gets no wild card except "
        "when going out, so it can become a natural canasta (500, not 300); 7: no "
        "such wait.",
    ),
    Param(
        "wild_factor",
        1.0,
        0,
        20,
        "A pickup spending a wild card (one natural and a wild, R-33 b) needs this many "
        "times pile_threshold cards (rounded up).",
        integer=False,
    ),
    Param(
        "meld_pile",
        0.0,
        0,
        50,
        "Smallest discard pile (cards) taken by laying its top card onto one of the "
        "side's melds (R-33 c; spends no card of the hand); 0: pile_threshold.",
    ),
    Param(
        "initial_cards",
        3.0,
        0,
        100,
        "Most cards the side's initial meld from hand (R-64) may lay, per 50 points of the "
        "side's minimum count, from a hand of the deal's size after one draw (cards dealt "
        "plus cards drawn a turn; a hand grown larger may lay as many more): a bigger initial "
        "meld waits, its cards held back to take the pile with them (R-32). Under a threat, "
        "in the end game or to go out the initial meld is laid at once; 100: no wait.",
        integer=False,
    ),
)

#: The expert's defaults that differ from the 4-player ones of :data:`EXPERT_PARAMS`, by player
#: count: tuned at 2, 3 and 6 players (``scripts/tune_players.py``, docs/tune.md). A spec sets
#: a parameter at every count; ``expert@3`` plays the 4-player defaults at every count.
EXPERT_BY_PLAYERS: dict[int, dict[str, float]] = {
    2: {"freeze_risk": 4.0, "safety": 30.0},
    3: {"pile_threshold": 5.0, "hold_wilds": 0.0, "freeze_risk": 4.0, "initial_cards": 2.0},
    6: {"pile_threshold": 3.0, "hold_wilds": 0.0},
}
EXPERT_PARAMS = tuple(
    replace(
        p,
        by_players=tuple(
            (n, values[p.name]) for n, values in EXPERT_BY_PLAYERS.items() if p.name in values
        ),
    )
    for p in EXPERT_PARAMS
)

#: Slots of the expert's parameter vector (``params[ExpertParam.meld_keep]``).
ExpertParam = namedtuple("ExpertParam", [p.name for p in EXPERT_PARAMS])(*range(len(EXPERT_PARAMS)))

#: The expert's default parameter values at 4 players in kernel order: bots version 2's best
#: setting of a joint search against expert@1, careful and greedy (docs/tune.md), with version
#: 3's ``initial_cards`` and ``wild_factor`` measured against it (docs/bots.md).
EXPERT_DEFAULTS = tuple(p.default for p in EXPERT_PARAMS)

PIMC_PARAMS = (
    Param(
        "worlds",
        32.0,
        1,
        10000,
        "Worlds sampled at each decision; every kept candidate is rolled out in the same "
        "worlds (common random numbers). Cost grows linearly with it.",
    ),
    Param(
        "top",
        3.0,
        1,
        14,
        "Discard candidates kept: the kinds the rollout bot's discard heuristic ranks highest. "
        "The draw decision always rolls out the draw and every legal pickup (at most five).",
    ),
    Param(
        "see_hidden",
        0.0,
        0,
        1,
        "1: roll out the true hidden cards (the other hands and the stock order) instead of "
        "sampled worlds. Cheating, for measurement only: the gap to 0 is what reading the "
        "hidden cards is worth.",
    ),
    Param(
        "melds",
        0.0,
        0,
        1,
        "1: the play phase is searched too: the rollout expert's melds of the turn (going out "
        "where they go out, R-40) and holding them, each followed by the top discards ranked "
        "after it, in the same worlds; 0: the rollout expert melds and only the discard is "
        "searched.",
    ),
    Param(
        "rollout",
        3.0,
        3,
        5,
        "Policy code of the rollout bot, which plays every seat in the rollouts; given by name "
        "in a spec: rollout=expert, an expert preset (rollout=expert@1) or rollout=apprentice "
        "(the learned bot, its weights from the spec's weights=PATH or the file shipped for "
        "the player count). The rollout.NAME parameters are the rollout expert's, or the "
        "rollout apprentice's candidate-generating expert's; the search bot's own melding "
        "decisions are that expert's (with melds=1, the melds it would lay are weighed "
        "against holding them).",
    ),
    *(
        Param(
            "rollout." + p.name,
            p.default,
            p.low,
            p.high,
            "The rollout expert's " + p.name + ".",
            p.integer,
            p.by_players,
        )
        for p in EXPERT_PARAMS
    ),
    Param(
        "weight_set",
        0.0,
        0,
        1000,
        "With rollout=apprentice: index of the rollout apprentice's weight file among the "
        "run's (set by the run from the spec's weights=PATH; without it the file shipped for "
        "the player count).",
    ),
    Param(
        "prior_top",
        0.0,
        0,
        14,
        "With rollout=apprentice: 0 searches the candidates above (the rollout expert's); "
        "K >= 1 searches the rollout apprentice's own candidates instead, the K it scores "
        "best, as a prior: at the draw decision the draw and the legal pickups, at the play "
        "decision its whole turn (the expert's melds of the turn or holding them, each with "
        "its top discards, or its going out), its first choice first. K = 1 plays the "
        "apprentice's choice without rollouts. K >= 1 needs a full network: a head network "
        "(bots version 12's apprentice) is refused; rollout=apprentice@11 plays version 11's.",
    ),
    Param(
        "margin",
        0.0,
        0,
        100000,
        "With prior_top >= 1: play another candidate than the apprentice's first choice only "
        "when its mean score difference beats the first choice's by more than this many "
        "points, paired over the same worlds; 0: the best mean.",
        integer=False,
    ),
    Param(
        "margin_z",
        0.0,
        0,
        100,
        "With prior_top >= 1: and by more than this many standard errors of the paired "
        "difference over the worlds; 0: no such test.",
        integer=False,
    ),
)

#: Slots of the search bot's parameter vector; the rollout expert's parameters follow
#: ``PimcParam.rollout`` in the expert's order, then the rollout apprentice's weight set and
#: the prior's parameters.
PimcParam = namedtuple(
    "PimcParam",
    [
        "worlds",
        "top",
        "see_hidden",
        "melds",
        "rollout",
        "expert",
        "weight_set",
        "prior_top",
        "margin",
        "margin_z",
    ],
)(*range(6), *range(5 + len(EXPERT_PARAMS), 9 + len(EXPERT_PARAMS)))

#: Player counts at which the apprentice's candidates come from that count's own expert: its
#: weights there were fitted on labels of the per-count expert's deals and candidates (the
#: ``own_{P}p`` stages of bots version 8's recipe, docs/learned-history.md), and with them it
#: plays better than with the 4-player knobs (bots version 6: +112 points a deal at 2
#: players, +150 at 6). Elsewhere the candidate expert keeps the 4-player defaults; weights
#: fitted only on labels of the 4-player knobs lose 150 to 800 points a deal with the
#: per-count candidates.
APPRENTICE_OWN_EXPERT = (2, 3, 6)

APPRENTICE_PARAMS = (
    Param(
        "weight_set",
        0.0,
        0,
        1000,
        "Index of the seat's weight file among the run's (set by the run from the spec's "
        "weights=PATH, a .npz file; without it the file shipped for the player count).",
    ),
    Param(
        "temperature",
        0.0,
        0,
        10000,
        "0: play the best-scored candidate; above 0: sample a candidate with probability "
        "proportional to exp(score / temperature) (points), from the deal's random stream "
        "(for data generation).",
        integer=False,
    ),
    Param(
        "top",
        4.0,
        1,
        14,
        "A full network's discard candidates kept after each meld choice: the kinds the "
        "expert's discard heuristic ranks highest (as pimc's top; version 8's weights were "
        "fitted on pimc's 3, and 4 plays best, docs/learned.md). A head network scores every "
        "kind held.",
    ),
    *(
        Param(
            "expert." + p.name,
            p.default,
            p.low,
            p.high,
            "The candidate-generating expert's " + p.name + ".",
            p.integer,
            tuple((n, v) for n, v in p.by_players if n in APPRENTICE_OWN_EXPERT),
        )
        for p in EXPERT_PARAMS
    ),
)

#: Slots of the apprentice's parameter vector; the candidate expert's parameters follow
#: ``ApprenticeParam.top`` in the expert's order.
ApprenticeParam = namedtuple("ApprenticeParam", ["weight_set", "temperature", "top", "expert"])(
    *range(4)
)

# (name, turn kernel, parameters, summary, searches, learned); the kernel code is the position
_ENTRIES = (
    (
        "random",
        "random.random_turn_nb",
        (),
        "Uniform over the legal choices at each decision: draw or one of the legal pickups; "
        "each legal meld or stop; any kind of card in hand to discard.",
        False,
        False,
    ),
    (
        "greedy",
        "greedy.greedy_turn_nb",
        (),
        "Takes the pile whenever it legally can (the way that spends fewest wild cards), melds "
        "everything it can at once and goes out as soon as it may, discards its least useful "
        "card (black threes first, then single low cards; wild cards last).",
        False,
        False,
    ),
    (
        "careful",
        "careful.careful_turn_nb",
        (),
        "Keeps natural pairs for pile pickups and takes the pile only with naturals; melds late "
        "(when it can go out, an opponent threatens to go out, the stock is down to a quarter "
        "or its hand holds 14 cards); discards the card the next opponent is least likely to "
        "use, black threes to block, and freezes a pile of 10 or more cards with a wild card.",
        False,
        False,
    ),
    (
        "expert",
        "expert.expert_turn_nb",
        EXPERT_PARAMS,
        "Parameterised heuristic after the strategy books: takes the pile with naturals, "
        "with a wild only when it is big; melds with few wild cards and keeps a fuller hand; "
        "discards safely against the next opponent's melds and the cards they may hold; "
        "blocks with black threes and freezes big piles; goes out when that wins the game "
        "(it reads the cumulative scores) or when ahead, holds back to build canastas when "
        "behind; prefers natural canastas.",
        False,
        False,
    ),
    (
        "pimc",
        "pimc.pimc_turn_nb",
        PIMC_PARAMS,
        "Search bot (perfect-information Monte Carlo with policy rollouts): at its draw decision "
        "(draw or each legal pickup) and its discard decision (the top kinds of the rollout "
        "bot's discard ranking) it samples worlds from its own information set (its hand, the "
        "public cards and the cards known to be in other hands; the unseen cards shuffled into "
        "the other hands' unknown places and the stock, from the deal's random stream), plays "
        "each candidate to the end of the deal in the same worlds with the rollout bot in every "
        "seat, and plays the best mean score difference (own side minus the mean of the others). "
        "Melding and going out are the rollout bot's, unless melds=1 also searches the rollout "
        "bot's melds of the turn (or its going out) against holding them. With "
        "rollout=apprentice and prior_top=K it searches the apprentice's own candidates "
        "instead, the K it scores best, keeping its first choice unless another beats it by "
        "the margin. With see_hidden=1 it rolls out the true cards: cheating, for measurement "
        "only.",
        True,
        False,
    ),
    (
        "apprentice",
        "apprentice.apprentice_turn_nb",
        APPRENTICE_PARAMS,
        "Learned bot. The shipped files (bots version 12) are head networks: the draw "
        "decision is the expert's, and at the play decision it scores the expert's melds of "
        "the turn followed by each kind held after them (or its going out) and each kind held "
        "holding them, by one hidden layer of the seat's information a decision, an output "
        "row per candidate and six of the candidate's features (docs/learned.md), distilled "
        "from version 11's network, and plays the best one. A full network's file "
        "(apprentice@8 .. apprentice@11, or weights=PATH of one) decides both: at the draw "
        "decision (draw or each legal pickup) and the play decision (the expert's melds of "
        "the turn or holding them, each followed by the top discards the expert ranks; its "
        "going out) it scores pimc's own candidates with a learned model of their rollout "
        "values (features of the seat's information and of what each move changes) and plays "
        "the best one, without rollouts. The weights come from a .npz file (weights=PATH; "
        "default: the one shipped for the player count).",
        False,
        True,
    ),
)

#: Every policy, in kernel-code order.
POLICIES = tuple(
    Policy(name, code, turn, params, doc, search, learned)
    for code, (name, turn, params, doc, search, learned) in enumerate(_ENTRIES)
)

#: The policy codes the kernels branch on (``PolicyCode.expert``); the labels are the names.
PolicyCode = namedtuple("PolicyCode", [p.name for p in POLICIES])(*(p.code for p in POLICIES))

#: The codes of the searching policies.
SEARCH_CODES = tuple(p.code for p in POLICIES if p.search)

#: The codes of the learned policies, whose seats need weight sets and feature work records.
LEARNED_CODES = tuple(p.code for p in POLICIES if p.learned)

#: The codes whose seats need the search work arrays: the searching policies (their rollouts)
#: and the learned ones (their candidates are the search bot's).
WORK_CODES = SEARCH_CODES + LEARNED_CODES

#: The codes :func:`.turn.play_turn_nb` plays: every policy but the searching and the learned
#: ones (their turns need work arrays of their own).
PLAIN_CODES = tuple(p.code for p in POLICIES if p.code not in WORK_CODES)

#: The codes the rollouts play (:func:`.turn.learned_turn_nb`): every policy but the
#: searching ones (a search in every rollout turn); a bot written in Python (code -1) plays
#: outside the kernels.
ROLLOUT_CODES = tuple(p.code for p in POLICIES if p.code not in SEARCH_CODES)

#: Width of the kernels' parameter vector: the most parameters of any policy.
N_PARAMS = max(len(p.params) for p in POLICIES)
