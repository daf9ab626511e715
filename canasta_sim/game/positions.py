"""Position files: one decision written by hand in TOML or JSON (keys in ``docs/analysis.md``).

:func:`read_position` reads a file, :func:`position_fields` checks its keys and turns them into
the keyword arguments of :class:`~canasta_sim.InfoSet` (which checks the whole position when it
is built: the pack, the melds, the phase), and :func:`check_upcard` checks the cards turned to
start the pile (R-12), which only a position file gives. ``InfoSet.from_file`` and
``InfoSet.from_dict`` call them.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .. import cards as C
from ..nb.engine.deal import is_upcard_cover_nb
from .notation import check_int
from .rules import PLAYER_TABLE, Rules

try:
    import tomllib
except ImportError:  # Python 3.10: positions in JSON only
    tomllib = None  # type: ignore[assignment,unused-ignore]

#: The phases with a decision (``phase`` of a position, ``InfoSet.phase``), R-20.
PHASES = ("draw", "play")


def read_position(path) -> Mapping:
    """The mapping of a position file: TOML (``.toml``) or JSON (``.json``).

    Raises
    ------
    ValueError
        For a file that is not text (UTF-8), not valid TOML/JSON (the message names the file),
        or a TOML file on Python 3.10 (no ``tomllib``).
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:  # a binary file (a Parquet, an image): say so, not the codec
        raise ValueError(
            f"{path}: not a text position file (its bytes are not UTF-8 text); allowed: a "
            f"TOML (.toml) or JSON (.json) position file (docs/analysis.md)"
        ) from None
    is_json = path.suffix.lower() == ".json"
    if not is_json and tomllib is None:
        raise ValueError(f"{path}: TOML positions need Python 3.11 or later; use JSON")
    try:
        return json.loads(text) if is_json else tomllib.loads(text)
    except (ValueError, json.JSONDecodeError) as exc:  # TOMLDecodeError is a ValueError
        raise ValueError(f"{path}: not a valid position file: {exc}") from None


_KEYS = {
    "players": "number of players (2, 3, 4 or 6)",
    "rules": "rules preset name (classic, hoyle)",
    "switches": "table of rules switches",
    "seat": "the observer's seat",
    "current": "seat to play (default: seat)",
    "phase": "draw or play",
    "hand": "the observer's hand (card text)",
    "pile": "discard pile, bottom first (card text)",
    "melds": "per side, a list of meld texts",
    "red_threes": "per side, red threes laid out",
    "scores": "per side, cumulative score before the deal",
    "hand_sizes": "per seat, cards in hand",
    "stock": "cards left in the stock",
    "known": "per seat, cards known to be in its hand (card text)",
    "turn": "completed turns",
    "melded_seats": "seats that made a meld before this turn",
    "melds_this_turn": "play phase: ranks melded for the first time this turn",
    "pile_melds": "play phase: those of them holding cards from the pile",
    "concealed_canastas": "per side, ranks of concealed canastas",
    "touched_old": "play phase: added to a meld made before this turn",
    "from_pile": "play phase: cards taken with the pile this turn, still in hand",
    "last_red_three": "play phase: drew a red three as the last stock card",
    "upcard_cards": "the count of cards at the bottom of the pile turned to start it",
}
_REQUIRED = ("players", "seat", "phase", "hand", "pile", "hand_sizes", "stock")


def position_fields(data) -> dict[str, Any]:
    """The :class:`~canasta_sim.InfoSet` keyword arguments of a position mapping (the parsed
    TOML or JSON of a position file, keys in ``docs/analysis.md``): every key checked, the
    defaults filled in (``current`` = ``seat``, ``turn`` from ``melded_seats``, ...). The
    information set checks the whole position when it is built.

    Raises
    ------
    ValueError
        On an unknown or missing key, a value of the wrong type, a seat, turn or stock out of
        range, or a phase with no decision; the message names the key and what is allowed.
    """
    if not isinstance(data, Mapping):
        raise ValueError(f"a position is a table of keys, not {data!r}")
    unknown = sorted(set(data) - set(_KEYS))
    if unknown:
        raise ValueError(f"unknown position key {unknown[0]!r}; allowed: {', '.join(_KEYS)}")
    missing = [k for k in _REQUIRED if k not in data]
    if missing:
        raise ValueError(f"position key {missing[0]!r} is missing ({_KEYS[missing[0]]})")
    players = data["players"]
    if not isinstance(players, int) or isinstance(players, bool) or players not in PLAYER_TABLE:
        raise ValueError(f"players={players!r} is not allowed; allowed: 2, 3, 4 or 6")
    rules = Rules.preset(_str(data, "rules", "classic"), players=players, **_switches(data))
    sides = rules.sides
    seat = data["seat"]
    check_int("seat", seat, 0, players - 1)
    # in any case, as rules presets are
    phase = _str(data, "phase", "draw").strip().lower()
    if phase not in PHASES:
        raise ValueError(
            f"phase={data['phase']!r} has no decision to analyse; allowed: draw (the turn's "
            f"first move), play (meld, discard or go out), in any case"
        )
    check_int("stock", data["stock"], 0, rules.n_cards)
    melds = tuple(
        tuple(_card_texts(f"melds[{s}]", m))
        for s, m in enumerate(_per(data, "melds", sides, [], list))
    )
    melded = tuple(s for s in range(sides) if melds[s])
    this_turn = tuple(_str_list(data, "melds_this_turn"))
    default_melded = [p for p in range(players) if p % sides in melded]
    melded_seats = data.get("melded_seats", default_melded)
    if not isinstance(melded_seats, list):
        raise ValueError(f"melded_seats must be a list of seats, not {melded_seats!r}")
    for p in melded_seats:
        check_int("melded_seats item", p, 0, players - 1)
    turn = data.get("turn", 1 if melded_seats else 0)
    check_int("turn", turn, 0, rules.max_turns - 1)
    if melded_seats and turn == 0:
        raise ValueError(
            f"turn=0 with melded_seats={melded_seats}: a meld made before this turn needs turn >= 1"
        )
    current = data.get("current", seat)
    check_int("current", current, 0, players - 1)
    first = [turn - 1 if p in melded_seats else -1 for p in range(players)]
    if this_turn and first[current] < 0:
        first[current] = turn
    known = _per(data, "known", players, "", str, per="seat")
    return dict(
        rules=rules,
        seat=seat,
        current=current,
        phase=phase,
        hand=_str(data, "hand", ""),
        pile=_str(data, "pile", ""),
        melds=melds,
        red_threes=tuple(_per(data, "red_threes", sides, 0, int)),
        scores=tuple(_per(data, "scores", sides, 0, int)),
        hand_sizes=tuple(_per(data, "hand_sizes", players, None, int, per="seat")),
        stock_size=data["stock"],
        known=tuple(known),
        turn=turn,
        first_meld_turns=tuple(first),
        melds_this_turn=this_turn,
        pile_melds=tuple(_str_list(data, "pile_melds")),
        concealed_canastas=tuple(
            tuple(_card_texts(f"concealed_canastas[{s}]", c))
            for s, c in enumerate(_per(data, "concealed_canastas", sides, [], list))
        ),
        touched_old=_bool(data, "touched_old"),
        from_pile=_str(data, "from_pile", ""),
        last_red_three=_bool(data, "last_red_three"),
        upcard_cards=data.get("upcard_cards", 0),
    )


def position_mapping(info) -> dict[str, Any]:
    """The position mapping of an information set (``info``, an :class:`~canasta_sim.InfoSet`):
    what a position file holds (keys in ``docs/analysis.md``), JSON-able, read back by
    :meth:`InfoSet.from_dict` into the same decision. The rules are written as the classic
    preset and the switches that differ from it.

    A seat that melded before this turn is written in ``melded_seats`` (the turn of its first
    meld is not kept: R-42 asks only whether it melded before the turn going out). A live
    deal keeps ``upcard_cards`` after the pile is taken; where the pile's bottom cards are then
    not the cards turned to start it (:func:`check_upcard` refuses them), it is written as 0.
    """
    rules = info.rules
    classic = Rules.preset("classic", players=rules.players).to_dict()
    switches = {k: v for k, v in rules.to_dict().items() if classic[k] != v and k != "players"}
    data: dict[str, Any] = {
        "players": rules.players,
        "rules": "classic",
        "seat": info.seat,
        "current": info.current,
        "phase": info.phase,
        "turn": info.turn,
        "hand": info.hand,
        "pile": info.pile,
        "stock": info.stock_size,
        "hand_sizes": list(info.hand_sizes),
        "known": list(info.known),
        "melds": [list(m) for m in info.melds],
        "red_threes": list(info.red_threes),
        "scores": list(info.scores),
        "melded_seats": [p for p, t in enumerate(info.first_meld_turns) if 0 <= t < info.turn],
        "concealed_canastas": [list(c) for c in info.concealed_canastas],
        "upcard_cards": _upcard_cards(info),
    }
    if switches:
        data["switches"] = switches
    if info.phase == "play":
        data.update(
            melds_this_turn=list(info.melds_this_turn),
            pile_melds=list(info.pile_melds),
            touched_old=info.touched_old,
            from_pile=info.from_pile,
            last_red_three=info.last_red_three,
        )
    return data


def _upcard_cards(info) -> int:
    try:
        check_upcard(info)
    except ValueError:
        return 0
    return info.upcard_cards


def _switches(data) -> dict:
    """The ``switches`` table: rules switches only (``players`` is a position key)."""
    switches = data.get("switches", {})
    if not isinstance(switches, Mapping):
        raise ValueError(f"switches must be a table of rules switches, not {switches!r}")
    if "players" in switches:
        raise ValueError(
            f"switches.players={switches['players']!r}: players is a top-level key of the "
            f"position (players = {switches['players']!r}), not a rules switch"
        )
    allowed = sorted(f.name for f in dataclasses.fields(Rules) if f.name != "players")
    unknown = sorted(set(switches) - set(allowed))
    if unknown:
        raise ValueError(
            f"unknown rules switch {unknown[0]!r} in switches; allowed: {', '.join(allowed)}"
        )
    return dict(switches)


def check_upcard(info) -> None:
    """Check R-12 for an information set read from a position (``info``, an
    :class:`~canasta_sim.InfoSet`): the pile's bottom ``upcard_cards`` cards are those turned
    to start it, covers, then one card that is not a cover. (A live deal keeps the count after
    the pile is taken, so the information set itself does not check this.)

    Raises
    ------
    ValueError
        Naming ``upcard_cards`` and the card that cannot be turned there.
    """
    n, codes = info.upcard_cards, info.pile_codes
    if n > len(codes):
        raise ValueError(
            f"upcard_cards={n} but the pile holds {len(codes)} cards; allowed: 0 to "
            f"{len(codes)} (the count of cards at the bottom of the pile turned to start it)"
        )
    r = info.rules.to_array()
    for i, k in enumerate(codes[:n]):
        if bool(is_upcard_cover_nb(int(k), r)) != (i < n - 1):
            raise ValueError(
                f"upcard_cards={n} with the pile {info.pile!r}: card {i + 1} from the bottom, "
                f"{C.KINDS[k]!r}, cannot be turned there (R-12: wild cards, red threes and "
                f"black threes with upcard_covers_black_three are covered by the next card "
                f"turned, and the last card turned is none of them)"
            )


def _str(data, key, default) -> str:
    value = data.get(key, default)
    if not isinstance(value, str):
        raise ValueError(f"{key}={value!r} must be a text ({_KEYS[key]})")
    return value


def _bool(data, key) -> bool:
    value = data.get(key, False)
    if not isinstance(value, bool):
        raise ValueError(f"{key}={value!r} must be true or false ({_KEYS[key]})")
    return value


def _str_list(data, key) -> list[str]:
    value = data.get(key, [])
    return _card_texts(key, value)


def _card_texts(name, value) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"{name}={value!r} must be a list of card texts")
    return value


def _per(data, key, n, default, kind, per="side") -> list:
    value = data.get(key)
    if value is None:
        if default is None:
            raise ValueError(f"position key {key!r} is missing ({_KEYS[key]})")
        return [default] * n
    if not isinstance(value, list) or len(value) != n:
        raise ValueError(f"{key}={value!r} must be a list with one entry per {per} ({n})")
    for i, v in enumerate(value):
        if kind is int:
            if not isinstance(v, int) or isinstance(v, bool):
                raise ValueError(f"{key}[{i}]={v!r} must be an integer ({_KEYS[key]})")
        elif not isinstance(v, kind):
            raise ValueError(f"{key}[{i}]={v!r} has the wrong type ({_KEYS[key]})")
    return value
