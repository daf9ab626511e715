"""The observation in readable form: what one seat knows, as named numpy fields.

The kernel :func:`canasta_sim.nb.engine.observation.observe_nb` writes a seat's knowledge as
one fixed-length ``int32`` array (layout :data:`canasta_sim.nb.engine.observation.OBS_LAYOUT`,
documented in ``docs/observation.md``); :class:`Observation` wraps it with the rules and the
observer's seat, and reads each block of the layout by name. :class:`~canasta_sim.InfoSet` is
built from it (:meth:`InfoSet.from_observation`) and back (:meth:`InfoSet.observation`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..nb.engine.observation import OBS_LAYOUT, OBS_LEN, ObsField, ObsSlot, observe_nb
from ..nb.enums import Phase, label
from .rules import Rules

_FIELDS = {f.name: f for f in OBS_LAYOUT}


def observe(state: np.void, rules: Rules, seat: int) -> np.ndarray:
    """What ``seat`` knows in the kernel state ``state``: the observation array.

    Parameters
    ----------
    state : record of STATE_DTYPE
        Read only; the other hands' unknown cards and the stock order are not read.
    rules : Rules
    seat : int
        The observer, ``0 .. players - 1`` (not checked here: callers check it).

    Returns
    -------
    ndarray(int32, (OBS_LEN,))
    """
    out = np.empty(OBS_LEN, np.int32)
    observe_nb(state, rules.to_array(), np.int64(seat), out)
    return out


@dataclass(frozen=True, eq=False)
class Observation:
    """What seat ``seat`` knows: the observation array with its rules, read by field name.

    Every name of :data:`~canasta_sim.nb.engine.observation.OBS_LAYOUT` is an attribute
    (``docs/observation.md`` lists them with their rule ids): a one-slot field as an ``int``
    (``obs.turn``, ``obs.stock_size``), the others as read-only ``int32`` arrays cut to the
    table. The ``seat_*`` fields have ``players`` rows and the ``side_*`` fields ``sides``
    rows, counted from the observer's (``obs.seat_hand_sizes[1]`` is the next player's,
    ``obs.side_scores[0]`` the observer's side's); ``pile_codes`` holds the ``pile_size``
    cards of the discard pile, bottom first; ``*_counts`` are count arrays by kind (R-02).

    Attributes
    ----------
    rules : Rules
    seat : int
        The observer's seat (the array itself is seat-relative and does not hold it).
    array : ndarray(int32, (OBS_LEN,))
        The kernel's array (read-only), for learning code that wants the whole vector.
    """

    rules: Rules
    seat: int
    array: np.ndarray

    def __post_init__(self):
        array = np.array(self.array, np.int32)  # a private copy: the observation is a value
        if array.shape != (OBS_LEN,):
            raise ValueError(f"array of shape {array.shape}: an observation has shape ({OBS_LEN},)")
        array.flags.writeable = False
        object.__setattr__(self, "array", array)

    def __getattr__(self, name: str) -> Any:
        f = _FIELDS.get(name)
        if f is None:
            raise AttributeError(
                f"an Observation has no field {name!r}; fields: {', '.join(_FIELDS)}"
            )
        return self._read(f)

    def _read(self, f: ObsField) -> Any:
        block = self.array[f.offset : f.offset + f.length].reshape(f.shape)
        if f.shape == (1,):
            return int(block[0])
        rows = {
            "seat": self.rules.players,
            "side": self.rules.sides,
            "pile": int(self.array[ObsSlot.pile_size]),
        }.get(f.rows, f.shape[0])
        return block[:rows]

    @property
    def phase_label(self) -> str:
        """``"draw"``, ``"play"`` or ``"over"``: the label of :attr:`phase` (R-20)."""
        return label(Phase, self.phase)

    @property
    def side(self) -> int:
        """The observer's side (R-10)."""
        return self.seat % self.rules.sides

    def seat_of(self, i: int) -> int:
        """The seat ``i`` places after the observer in turn order (R-11)."""
        return (self.seat + i) % self.rules.players

    def side_of(self, j: int) -> int:
        """The side ``j`` places after the observer's (R-10)."""
        return (self.side + j) % self.rules.sides

    def fields(self) -> dict[str, Any]:
        """Every field by name, in layout order (values as the attributes give them)."""
        return {f.name: self._read(f) for f in OBS_LAYOUT}

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Observation):
            return NotImplemented
        return (
            self.rules == other.rules
            and self.seat == other.seat
            and bool(np.array_equal(self.array, other.array))
        )

    def __hash__(self) -> int:
        return hash((self.rules, self.seat, self.array.tobytes()))


def layout_markdown() -> str:
    """``docs/observation.md``: the observation layout as a Markdown page, written from
    :data:`~canasta_sim.nb.engine.observation.OBS_LAYOUT` (``scripts/observation_doc.py``)."""
    rows = [
        f"| `{f.name}` | {f.offset} | {f.length} | "
        f"{' x '.join(str(n) for n in f.shape) if f.shape != (1,) else '1'} | "
        f"{f.meaning}{f' (rows: {f.rows}s)' if f.rows else ''}"
        f"{f'; pad {f.pad}' if f.pad else ''} | {f.rules} |"
        for f in OBS_LAYOUT
    ]
    return "\n".join(
        [
            "# The observation: what one seat knows",
            "",
            "<!-- generated by scripts/observation_doc.py from OBS_LAYOUT in "
            "canasta_sim/nb/engine/observation.py; do not edit -->",
            "",
            f"One `int32` array of {OBS_LEN} slots, written by the kernel "
            "`canasta_sim.nb.engine.observation.observe_nb(state, rules, seat, out)` and read by "
            "name through `Deal.observation(seat)` (an `Observation`). It holds what the seat "
            "may know and nothing else: its own hand, the cards known to be in the other hands "
            "(taken with the pile), the public table and counts. Changing only hidden cards "
            "(the other hands' unknown cards, the stock order) leaves it byte-identical. "
            "`InfoSet.from_observation(obs)` and `info_set.observation()` turn it into the "
            "information set and back.",
            "",
            "- **Seat-relative.** Rows of per-seat fields are seats counted from the observer "
            "in turn order (row 0 the observer, row 1 the player to its left, who plays "
            "next); rows of per-side fields are sides counted from the observer's (row 0 its "
            "own side). With players a multiple of sides, the seat in row `i` plays for the "
            "side in row `i % sides` (R-10). `current` and `dealer` are counted the same way.",
            "- **One length for every table,** sized for the largest (6 players, 3 sides, a "
            "162-card pack): one layout, one compiled kernel, and batches that mix tables. A "
            "smaller table leaves the rows of absent seats and sides, and the pile's free "
            "places, at the pad value (0 unless the table says otherwise); `players` and "
            "`sides` say how many rows are used.",
            "- **int32**, because scores (R-55) are not bounded by the rules; every other "
            "value fits in an `int16`.",
            "- Kinds (R-02): 0 red three, 1 black three, 2 .. 12 the ranks 4 .. ace, 13 deuce, "
            "14 joker. Meld rows run over the ranks black three (row 0) to ace (row 11); "
            "meld columns are naturals, deuces, jokers.",
            "- Fields marked *play phase* are 0 in the draw phase.",
            "- The rules switches (section 8 of the rules) are not in the array: they are "
            "fixed for a table and travel with it (`Observation.rules`, the kernels' `rules` "
            "argument); the array holds the two a table's layout needs (`players`, `sides`) "
            "and the turn limit.",
            "",
            "| field | offset | slots | shape | meaning | rules |",
            "|---|---|---|---|---|---|",
            *rows,
            "",
        ]
    )
