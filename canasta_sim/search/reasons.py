"""The reasons of an analysis's hint: what each candidate's move changes, in words, built from
its candidate features (the learned bot's :data:`~canasta_sim.nb.bots.features.CandFeat`),
and shown only where the analysis separates the moves (docs/board.md, "Hints")."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from ..cards import KINDS
from ..nb.bots.features import PILE_SCALE, CandFeat
from ..nb.bots.learned_calls import candidate_features
from ..nb.enums import DEUCE, JOKER
from ..nb.worlds import CandKind
from .analysis import AnalysisResult, kernel_rows

#: Feature -> its phrase when the move has it, most telling first; ``{melded}``: the ranks the
#: move melds ("8s"), ``{discard}``: the card it discards, ``{pile}``: the pile's cards taken,
#: ``{p}``: the chance that the next player takes the pile (R-23, R-24, R-30..R-35, R-40, R-51).
PHRASES = {
    "going_out": "goes out",
    "natural_made": "completes a natural canasta of {melded}",
    "mixed_made": "completes a mixed canasta of {melded}",
    "take": "takes the pile ({pile} cards)",
    "initial": "makes the side's initial meld",
    "closer": "brings the {melded} closer to a canasta",
    "new_melds": "starts a meld of {melded}",
    "draw": "draws from the stock",
    "freezes": "freezes the pile with a {discard}",
    "wild_discard": "discards a wild card",
    "black_three": "discards a black three: the next player cannot take the pile",
    "next_known": "the next player holds a known {discard}: a risky discard",
    "next_meld": "the next side has a meld of {discard}s",
    "passed": "the next player passed on {discard}s: a safe discard",
    "pair_break": "breaks a pair of {discard}s",
    "danger": "a {p:.0%} chance that the next player takes the pile",
    "hold": "melds nothing",
}
#: Feature -> its phrase when the move lacks it and the move compared has it.
ABSENT = {
    "freezes": "leaves the pile open",
    "next_known": "the next player holds no known {discard}: a safe discard",
}
#: Phrases in one reason, at most.
MAX_PARTS = 2
#: The least difference of a chance (``danger``) that the reason names.
CHANCE_STEP = 0.05
#: The reason of a move the analysis does not separate from the best (or, for the best, from
#: the runner-up): their paired interval holds 0.
NOISE = "within noise of the best move"
NOISE_BEST = "within noise of the next move"


@dataclass(frozen=True)
class Words:
    """What a reason's phrases name of one move: ``melded``, the ranks it melds ("8s",
    "8s and Ks"; "" for none); ``discard``, the card it discards ("9"; "" for none)."""

    melded: str = ""
    discard: str = ""


def reason(own: Mapping[str, float], other: Mapping[str, float] | None, words: Words) -> str:
    """A move's reason: the phrases (:data:`PHRASES`, :data:`ABSENT`) of its features that
    differ from ``other``'s (the move it is weighed against; ``None``: none), or of its
    nonzero features where none differ; at most :data:`MAX_PARTS`, joined by "; ".

    Parameters
    ----------
    own, other : mapping of str to float
        Candidate features by :data:`CandFeat` name (a block's name: its first slot; a
        missing name is 0).
    words : Words

    Returns
    -------
    str
        "" for a move with no feature that has a phrase.
    """
    other = other or {}
    differ = [f for f in PHRASES if _differs(own.get(f, 0.0), other.get(f, 0.0), f)]
    parts = [p for f in differ if (p := _phrase(f, own, words)) is not None]
    if not parts:
        parts = [p for f in PHRASES if own.get(f, 0.0) and (p := _phrase(f, own, words))]
    return "; ".join(parts[:MAX_PARTS])


def _differs(a: float, b: float, name: str) -> bool:
    return abs(a - b) >= CHANCE_STEP if name == "danger" else a != b


def _phrase(name: str, own: Mapping[str, float], words: Words) -> str | None:
    """The phrase of feature ``name`` of a move (None: the move lacks it and it has no
    :data:`ABSENT` phrase)."""
    value = own.get(name, 0.0)
    text = PHRASES[name] if value else ABSENT.get(name)
    if text is None:
        return None
    pile = round(own.get("pile_taken", 0.0) * PILE_SCALE)
    return text.format(melded=words.melded, discard=words.discard, pile=pile, p=value)


def hint_reasons(result: AnalysisResult) -> list[str]:
    """The reason of each candidate of an analysis, in its table's order: the best weighed
    against the runner-up, every other against the best; :data:`NOISE` (:data:`NOISE_BEST`
    for the best) where the paired interval of the two (``vs_best_lo``, ``vs_best_hi``)
    holds 0. A lone candidate's reason names its own features."""
    info = result.info_set
    rows = kernel_rows(info, result.candidates)
    feats = candidate_features(
        info.public_state(),
        info.rules.to_array(),
        np.array([k for k, _, _ in rows], np.int64),
        np.stack([plan for _, plan, _ in rows]).astype(np.int8),
        np.array([d for _, _, d in rows], np.int64),
    )
    named = [{name: float(f[slot]) for name, slot in CandFeat._asdict().items()} for f in feats]
    top = int(info.pile_codes[-1]) if len(info.pile_codes) else -1
    table = result.table
    out = []
    for i, (own, (kind, plan, discard)) in enumerate(zip(named, rows)):
        if len(named) == 1:
            out.append(reason(own, None, _words(kind, plan, discard, top)))
            continue
        j = 1 if i == 0 else i
        if table["vs_best_lo"].iloc[j] <= 0 <= table["vs_best_hi"].iloc[j]:
            out.append(NOISE_BEST if i == 0 else NOISE)
        else:
            out.append(reason(own, named[1 if i == 0 else 0], _words(kind, plan, discard, top)))
    return out


def _words(kind: int, plan: np.ndarray, discard: int, top: int) -> Words:
    """The :class:`Words` of a candidate's kernel row (its pickup melds the top card ``top``)."""
    ranks = [r for r in range(len(plan)) if plan[r].any() or (kind == CandKind.take and r == top)]
    melded = " and ".join(f"{KINDS[r]}s" for r in ranks if r not in (DEUCE, JOKER))
    return Words(melded, KINDS[discard] if discard >= 0 else "")
