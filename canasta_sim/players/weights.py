"""The apprentice's weight files: where the shipped ones are, reading one, and its hash for
run manifests. Read at run time by the bot (the training code, :mod:`canasta_sim.learn`, is
never imported to play).

A weight file is a NumPy ``.npz`` holding the network ``score = v . relu(A s + B c + b1) + b2``
(points) of state features ``s`` and candidate features ``c`` (docs/learned.md): ``A``
``float32[NET_HIDDEN, N_STATE_FEAT]``, ``B`` ``float32[NET_HIDDEN, N_CAND_FEAT]``, ``b1`` and
``v`` ``float32[NET_HIDDEN]``, ``b2`` ``float32[]``, plus ``feature_version``, ``players``
(the player count of the labels it was fitted on; files written before it have none) and
training notes. A file of an earlier feature version has the narrower ``A`` and ``B`` of its
version (:data:`~canasta_sim.nb.bots.features.FEATURE_WIDTHS`) and is read widened with
zeros (:func:`widen`): it plays as it did. The kernels read one packed ``float32[NET_LEN]``
per file (:func:`pack`).

A *head network* (a file holding ``head_U``, :data:`HEAD_PARTS`; bots version 12's) scores a
play candidate without a hidden layer or features of its own: ``head_U[r] . relu(A s + b1) +
head_b[r]`` (points), one row ``r`` of its output per candidate (each discard after the
expert's melds or holding them, :func:`~canasta_sim.nb.bots.apprentice.head_row_nb`); it
holds no ``B``, ``v`` or ``b2``, and its draw decision is the expert's.

A file may also hold a value output (:data:`VALUE_PARTS`, optional: the shipped version-1
files have none): ``value = value_v . relu(value_A s + value_b1) + value_b2``, the deal's
expected score difference for the seat's side (points). Play never reads it
(:func:`load_weights`); :func:`load_value` does.
"""

from __future__ import annotations

import hashlib
import os
import re
import zipfile
import zlib
from collections.abc import Callable
from functools import lru_cache, wraps
from pathlib import Path
from typing import TypeVar

import numpy as np

from ..nb.bots.apprentice import (
    HEAD_ROWS,
    N_HEAD_TERMS,
    N_HEADS,
    NET_LEN,
    VALUE_LEN,
    NetSlot,
    ValueSlot,
)
from ..nb.bots.features import (
    FEATURE_WIDTHS,
    N_CAND_FEAT,
    N_STATE_FEAT,
    NET_HIDDEN,
    Skip,
    StateFeat,
)

#: Version of the feature table that weight files are written for; a file of an earlier
#: version (a key of :data:`~canasta_sim.nb.bots.features.FEATURE_WIDTHS`) is widened, one of
#: another version refused (its slots mean other things).
FEATURE_VERSION = 2
DATA = Path(__file__).parents[1] / "data"
#: The network's parts in a weight file and their shapes.
PARTS = {
    "A": (NET_HIDDEN, N_STATE_FEAT),
    "B": (NET_HIDDEN, N_CAND_FEAT),
    "b1": (NET_HIDDEN,),
    "v": (NET_HIDDEN,),
    "b2": (),
}

#: A head network's parts in a weight file (of :data:`FEATURE_VERSION`) and their shapes: the
#: hidden layer ``A``, ``b1`` as :data:`PARTS`', then a play candidate's score ``head_U[r] .
#: relu(A s + b1) + head_b[r]`` (points) for its row ``r``
#: (:func:`~canasta_sim.nb.bots.apprentice.head_row_nb`); a file holding ``head_U`` is one.
HEAD_PARTS = {
    "A": (NET_HIDDEN, N_STATE_FEAT),
    "b1": (NET_HIDDEN,),
    "head_U": (HEAD_ROWS, NET_HIDDEN),
    "head_b": (HEAD_ROWS,),
    "head_w": (2, N_HEAD_TERMS),
}

#: The value output's parts in a weight file (of :data:`FEATURE_VERSION`) and their shapes.
VALUE_PARTS = {
    "value_A": (NET_HIDDEN, N_STATE_FEAT),
    "value_b1": (NET_HIDDEN,),
    "value_v": (NET_HIDDEN,),
    "value_b2": (),
}


def version_parts(version: int) -> dict[str, tuple[int, ...]]:
    """The network's parts and their shapes in a weight file of feature ``version`` (a key of
    :data:`~canasta_sim.nb.bots.features.FEATURE_WIDTHS`): :data:`PARTS` with ``A`` and ``B``
    as wide as that version's state and candidate features."""
    n_state, n_cand = FEATURE_WIDTHS[version]
    return {**PARTS, "A": (NET_HIDDEN, n_state), "B": (NET_HIDDEN, n_cand)}


def widen(parts: dict[str, np.ndarray], version: int) -> dict[str, np.ndarray]:
    """The parts of a network of feature ``version`` as a network of :data:`FEATURE_VERSION`:
    ``A`` and ``B`` padded with zero columns for the slots later versions append (the first
    slots keep their meaning), so it scores every candidate as before, bit for bit
    (:func:`~canasta_sim.nb.bots.apprentice.score_candidates_nb`).

    Raises
    ------
    ValueError
        Naming the part missing or not of the shape of ``version`` (:func:`version_parts`).
    """
    out = dict(parts)
    for name, shape in version_parts(version).items():
        part = _part(parts, name, shape)
        if name in ("A", "B"):
            out[name] = np.zeros(PARTS[name], np.float32)
            out[name][:, : shape[1]] = part
    return out


T = TypeVar("T")


def per_file_version(read: Callable[[str], T]) -> Callable[[str], T]:
    """``read(path)`` cached by the path and the file's modification time and size: a file
    written again in the same process is read again (a run's manifest hashes the file it
    names, so the weights played must be that file's)."""
    cached = lru_cache(maxsize=32)(lambda path, _stamp: read(path))

    @wraps(read)
    def reader(path: str) -> T:
        try:
            st = os.stat(path)
            stamp: tuple[int, int] | None = (st.st_mtime_ns, st.st_size)
        except OSError:  # read() names the file in its error
            stamp = None
        return cached(path, stamp)

    return reader


def default_weights_path(players: int, family: str = "") -> Path:
    """The shipped weights for ``players`` players: ``data/{family}_{players}p.npz``, or the
    family's 4-player file where none was fitted for that count. ``family`` names a set of
    shipped files, one per player count: empty for today's (``apprentice``), or the one an
    apprentice preset plays (``apprentice8``,
    :data:`~canasta_sim.players.specs.WEIGHT_FAMILIES`)."""
    family = family or "apprentice"
    own = DATA / f"{family}_{players}p.npz"
    return own if own.exists() else DATA / f"{family}_4p.npz"


#: The blocks of state features a network may leave unread, by name: their
#: :data:`~canasta_sim.nb.bots.features.Skip` bit and slots. A file whose weights on a block
#: are all 0 plays without counting it (:func:`pack`); ``canasta-sim train --distil-drop``
#: names them.
STATE_BLOCKS = {
    "kinds": (Skip.kinds, slice(StateFeat.hand_kinds, StateFeat.next_passed)),
    "neighbours": (Skip.neighbours, slice(StateFeat.next_passed, N_STATE_FEAT)),
}


def pack(parts: dict[str, np.ndarray]) -> np.ndarray:
    """The network's parts (:data:`PARTS`, or a head network's, :data:`HEAD_PARTS`) as the
    kernels read them: one ``float32[NET_LEN]`` laid out at
    :data:`~canasta_sim.nb.bots.apprentice.NetSlot`, the matrices ``A`` and ``B``
    transposed (each feature's weights to the hidden units side by side), and at
    ``NetSlot.skips`` the blocks of state features whose weights are all 0
    (:data:`~canasta_sim.nb.bots.features.Skip` bits), which the kernels then need not count:
    a feature the network multiplies by 0 changes none of its scores. Other entries of
    ``parts`` are not read.

    Raises
    ------
    ValueError
        Naming the part missing or of another shape.
    """
    if "head_U" in parts:
        net = _pack_head(parts)
    else:
        net = _pack(parts, PARTS, NetSlot, NET_LEN)
    a = np.asarray(parts["A"])
    net[NetSlot.skips] += sum(bit for bit, cols in STATE_BLOCKS.values() if not a[:, cols].any())
    return net


def _pack_head(parts: dict) -> np.ndarray:
    """A head network's parts (:data:`HEAD_PARTS`) packed: ``A``, ``b1``, ``head_U`` and
    ``head_b`` as :func:`pack` lays its parts (the matrices transposed: a hidden unit's
    weights to every row side by side, N_HEADS wide, the rows past HEAD_ROWS 0), ``head_w``
    group by group, ``NetSlot.head`` 1."""
    pad = N_HEADS - HEAD_ROWS
    wide = {
        "A": _part(parts, "A", HEAD_PARTS["A"]),
        "b1": _part(parts, "b1", HEAD_PARTS["b1"]),
        "head_U": np.pad(_part(parts, "head_U", HEAD_PARTS["head_U"]), ((0, pad), (0, 0))),
        "head_b": np.pad(_part(parts, "head_b", HEAD_PARTS["head_b"]), (0, pad)),
    }
    shapes = {k: v.shape for k, v in wide.items()}
    net = _pack(wide, shapes, (NetSlot.a, NetSlot.b1, NetSlot.head_u, NetSlot.head_b), NET_LEN)
    terms = _part(parts, "head_w", HEAD_PARTS["head_w"])  # a group's weights side by side
    net[NetSlot.head_w : NetSlot.head_w + terms.size] = terms.ravel()
    net[NetSlot.head] = 1.0
    return net


def dropped_columns(names) -> np.ndarray:
    """The state feature slots of the blocks ``names`` (:data:`STATE_BLOCKS`' names), as
    ``int64[k]`` ascending (none: empty).

    Raises
    ------
    KeyError
        For a name not in :data:`STATE_BLOCKS`.
    """
    slots = np.arange(N_STATE_FEAT)
    return np.unique(np.concatenate([slots[STATE_BLOCKS[n][1]] for n in names] + [slots[:0]]))


def pack_value(parts: dict[str, np.ndarray]) -> np.ndarray:
    """The value output's parts (:data:`VALUE_PARTS`) as the kernel reads them: one
    ``float32[VALUE_LEN]`` laid out at :data:`~canasta_sim.nb.bots.apprentice.ValueSlot`,
    ``value_A`` transposed as :func:`pack` transposes ``A``.

    Raises
    ------
    ValueError
        Naming the part missing or of another shape.
    """
    return _pack(parts, VALUE_PARTS, ValueSlot, VALUE_LEN)


def _pack(parts: dict, shapes: dict, slots, length: int) -> np.ndarray:
    """``parts`` of the given ``shapes`` into one ``float32[length]`` at ``slots`` (in the
    order of ``shapes``), the matrices transposed."""
    out = np.zeros(length, np.float32)
    for (name, shape), start in zip(shapes.items(), slots):
        part = _part(parts, name, shape)
        out[start : start + part.size] = part.T.ravel()  # the matrices transposed
    return out


def _part(parts: dict, name: str, shape: tuple[int, ...]) -> np.ndarray:
    """``parts[name]`` as ``float32`` of ``shape``.

    Raises
    ------
    ValueError
        Naming the part missing or of another shape.
    """
    if name not in parts:
        raise ValueError(f"no network part {name} (an array of shape {shape})")
    part = np.asarray(parts[name], np.float32)
    if part.shape != shape:
        raise ValueError(f"network part {name} of shape {part.shape}, not {shape}")
    return part


#: What reading an ``.npz`` archive raises for a file that is none or a damaged one: a
#: member whose bytes changed fails its CRC check (stored) or its inflation (compressed).
_UNREADABLE = (OSError, ValueError, zipfile.BadZipFile, zlib.error)


@per_file_version
def load_weights(path: str) -> np.ndarray:
    """The packed network of a weight file: ``ndarray(float32, (NET_LEN,))`` (read-only),
    subnormal weights read as zeros.

    Raises
    ------
    ValueError
        Naming the file: unreadable, a part missing or of another shape, another feature
        version, or a weight that is NaN or infinite.
    """
    earlier = "".join(
        f"; a file of feature version {v} has A of shape {version_parts(v)['A']} and B of "
        f"shape {version_parts(v)['B']}"
        for v in FEATURE_WIDTHS
        if v != FEATURE_VERSION
    )
    allowed = (
        f"allowed: an .npz with {', '.join(f'{k} of shape {s}' for k, s in PARTS.items())} "
        f"and feature version {FEATURE_VERSION} (canasta-sim train writes them{earlier}), or "
        f"a head network: {', '.join(f'{k} of shape {s}' for k, s in HEAD_PARTS.items())} "
        f"and feature version {FEATURE_VERSION} (scripts/distil_head.py writes them)"
    )
    try:
        with _open_npz(path) as z:
            head = "head_U" in z
            parts = {k: z[k] for k in (HEAD_PARTS if head else PARTS) if k in z}
            version = int(z["feature_version"]) if "feature_version" in z else None
        if head and version == FEATURE_VERSION:  # a head network of the feature version
            net = pack(parts)
        elif not head and (version is None or version in FEATURE_WIDTHS):
            # without a version its arrays tell
            net = pack(widen(parts, FEATURE_VERSION if version is None else version))
    except (*_UNREADABLE, KeyError) as exc:
        raise ValueError(
            f"weights={path}: not an apprentice weight file ({exc}); {allowed}"
        ) from None
    if version not in FEATURE_WIDTHS or (head and version != FEATURE_VERSION):
        said = "no feature version" if version is None else f"feature version {version}"
        raise ValueError(f"weights={path}: {said}; {allowed}")
    bad = nonfinite_part(parts)
    if bad:  # a NaN or an infinity scores every candidate alike: a broken policy, not a bot
        raise ValueError(f"weights={path}: {bad}; {allowed}, every weight a finite number")
    return _finished(net)


def is_head_network(path: str) -> bool:
    """Whether the weight file ``path`` holds a head network (:data:`HEAD_PARTS`, bots
    version 12's apprentice), not the full network of :data:`PARTS`.

    Raises
    ------
    ValueError
        As :func:`load_weights`, for a file that is no weight file.
    """
    return bool(load_weights(path)[NetSlot.head] != 0.0)


#: What a trainer takes where a full network is needed (:func:`refuse_head_network`).
FULL_NETWORK = (
    "a full network (A, B, b1, v, b2: canasta-sim train writes them), e.g. bots version 11's "
    "shipped files (apprentice11_{N}p.npz, --start apprentice@11)"
)


def refuse_head_network(path: str, role: str, allowed: str = FULL_NETWORK) -> None:
    """Refuse the weight file ``path`` as ``role`` (what needs a full network, e.g. "the
    teacher") when it holds a head network, which has no candidate network (``B``, ``v``,
    ``b2``) to score every candidate with, learn from or fine-tune.

    Raises
    ------
    ValueError
        Naming the role, the file and ``allowed`` (what to give instead); or as
        :func:`load_weights`.
    """
    if is_head_network(path):
        raise ValueError(
            f"{role} {path} is a head network (bots version 12's apprentice), which has no "
            f"candidate network (B, v, b2); {role} needs a full network; allowed: {allowed}"
        )


def seat_file(given: str, family: str, players: int, prior: float = 0.0) -> str:
    """The weight file an apprentice seat (or a search seat's rollout apprentice) plays with
    ``players`` at the table: the file its spec ``given`` (``weights=PATH``), else the shipped
    file of its ``family`` (:func:`default_weights_path`).

    Raises
    ------
    ValueError
        For a given file fitted for another player count (:func:`check_players`), or a
        search seat's prior (``prior_top`` of ``prior``, 1 or more) on a head network
        (:func:`refuse_head_prior`).
    """
    if given:
        check_players(given, players)
    path = given or str(default_weights_path(players, family))
    refuse_head_prior(prior, path)
    return path


def refuse_head_prior(prior: float, path: str) -> None:
    """Refuse a search bot's prior (``prior_top`` of ``prior``, 1 or more) on a rollout
    apprentice whose weight file ``path`` is a head network: the prior is the network's scores
    of pimc's own candidates (its draw and pickups among them), which a head network has not
    (it scores only its play candidates, the expert drawing for it).

    Raises
    ------
    ValueError
        Naming ``prior_top``, the file and what is allowed; or as :func:`load_weights`.
    """
    if prior > 0 and is_head_network(path):
        raise ValueError(
            f"prior_top={prior:g} needs a full network; the rollout apprentice's file {path} "
            f"is a head network (bots version 12's apprentice: it scores no draw or pickup); "
            f"allowed: rollout=apprentice@11 (bots version 11's full networks) or an earlier "
            f"apprentice preset, weights=PATH of a full network (canasta-sim train writes "
            f"them), or prior_top=0"
        )


def nonfinite_part(parts: dict[str, np.ndarray]) -> str | None:
    """``"part A holds NaN or infinite weights"`` for the first of the network's ``parts``
    (name to array) that holds a NaN or an infinity; ``None`` when every weight is finite."""
    bad = next((k for k, v in parts.items() if not np.isfinite(v).all()), None)
    return None if bad is None else f"part {bad} holds NaN or infinite weights"


def _finished(net: np.ndarray) -> np.ndarray:
    """A packed network read-only, its subnormal weights zeros."""
    # A weight the fit's decay left below float32's smallest normal number changes no score
    # (the bias beside it is some 35 orders of magnitude larger) but sends every multiply-add
    # on it down the CPU's slow path for subnormal numbers: such weights made the version-7
    # 4-player network cost three times as much per scored candidate. They play as zeros.
    net[np.abs(net) < np.finfo(np.float32).tiny] = 0
    net.setflags(write=False)
    return net


@per_file_version
def load_value(path: str) -> np.ndarray:
    """The packed value output of a weight file: ``ndarray(float32, (VALUE_LEN,))``
    (read-only, :data:`~canasta_sim.nb.bots.apprentice.ValueSlot`), subnormal weights read as
    zeros; :func:`~canasta_sim.nb.bots.learned_calls.position_value` evaluates it.

    Raises
    ------
    ValueError
        Naming the file: unreadable, holding no value output (files written before it, the
        shipped version-1 files among them), a value part of another shape, or a weight that
        is NaN or infinite.
    """
    allowed = (
        f"allowed: an .npz with {', '.join(f'{k} of shape {s}' for k, s in VALUE_PARTS.items())}"
        " (canasta-sim train writes them when its labels keep each deal's outcome)"
    )
    try:
        with _open_npz(path) as z:
            parts = {k: z[k] for k in VALUE_PARTS if k in z}
    except (*_UNREADABLE, KeyError) as exc:
        raise ValueError(f"weights={path}: not a weight file ({exc}); {allowed}") from None
    if not parts:
        raise ValueError(f"weights={path}: holds no value output; {allowed}")
    try:
        net = pack_value(parts)
    except ValueError as exc:
        raise ValueError(f"weights={path}: {exc}; {allowed}") from None
    bad = nonfinite_part(parts)
    if bad:
        raise ValueError(f"weights={path}: {bad}; {allowed}, every weight a finite number")
    return _finished(net)


@per_file_version
def fitted_players(path: str) -> int | None:
    """The player count a weight file was fitted for: its ``players`` entry, else the
    ``N`` of a file named ``apprentice_Np.npz`` (as ``canasta-sim train`` names them), else
    ``None``.

    Raises
    ------
    ValueError
        Naming the file, when it is unreadable.
    """
    try:
        with _open_npz(path) as z:
            if "players" in z:
                return int(z["players"])
    except _UNREADABLE as exc:
        raise ValueError(f"weights={path}: not an apprentice weight file ({exc})") from None
    named = re.fullmatch(r"apprentice_(\d+)p\.npz", Path(path).name)
    return int(named.group(1)) if named else None


def _open_npz(path: str):
    """``np.load`` of an ``.npz`` archive, without its fallback to reading any other file as
    a pickle (whose error would talk of pickled data).

    Raises
    ------
    ValueError
        When ``path`` is a folder, no file or not a zip archive.
    """
    if Path(path).is_dir():  # canasta-sim train's weights/ folder, say
        raise ValueError(
            f"a folder: give one of its files, e.g. {Path(path) / 'apprentice_4p.npz'}"
        )
    if not Path(path).is_file():
        raise ValueError("no such file")
    if not zipfile.is_zipfile(path):
        raise ValueError("not an .npz archive")
    return np.load(path)


def check_players(path: str, players: int) -> None:
    """Refuse a weight file fitted for another player count than ``players`` (its state
    features mean other things there: a network of 4 players reads a 2-player table wrongly).

    Raises
    ------
    ValueError
        Naming the file, the count it was fitted for and the run's.
    """
    fitted = fitted_players(path)
    if fitted is not None and fitted != players:
        raise ValueError(
            f"weights={path} was fitted for {fitted} players, this table has {players}; "
            f"allowed: a file fitted for {players} players (canasta-sim train writes "
            f"apprentice_{players}p.npz), or no weights= for the file shipped for {players}"
        )


def empty_weights() -> np.ndarray:
    """One all-zero weight set, ``float32[1, NET_LEN]``: the kernels' argument for a run in
    which no seat reads weights."""
    return np.zeros((1, NET_LEN), np.float32)


def weights_hash(path) -> str:
    """The first 16 hex digits of the SHA-256 of a weight file's bytes (for manifests)."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]


def manifest_entry(path) -> dict[str, str]:
    """A weight file as a run manifest records it: a shipped file by its package and file
    name (``{"package": "canasta_sim", "file": "apprentice_4p.npz", "sha256": ...}``, the same
    on every machine), another file by the path its spec gave (``{"path": ..., "sha256":
    ...}``); ``sha256`` holds :func:`weights_hash`."""
    path = Path(path)
    where = (
        {"package": __package__.partition(".")[0], "file": path.name}
        if path.resolve().parent == DATA.resolve()
        else {"path": str(path)}
    )
    return {**where, "sha256": weights_hash(path)}
