"""A board request's values checked (:mod:`canasta_sim.board.app`): numbers in a range, a
player count, the page's bots, the deal a request names and the JSON body. Each bad value is
refused with a :class:`~canasta_sim.errors.BadArgument` naming it and what is allowed, which
the app answers as a JSON error (:func:`bad`).
"""

from __future__ import annotations

import json
from pathlib import Path

from starlette.requests import Request
from starlette.responses import JSONResponse

from ..errors import BadArgument
from ..game.rules import PLAYER_TABLE
from ..nb.engine.rng import DEAL_LIMIT, SEED_SPAN
from ..players.specs import split_bot_list
from .pages import page_bot

MAX_BODY = 100_000  # bytes of a request's JSON body


def bad(message: str, status: int = 400) -> JSONResponse:
    """The JSON error answer ``{error: message}``."""
    return JSONResponse({"error": message}, status_code=status)


def shown(value, text=repr) -> str:
    """``value`` as a message names it: JSON's spelling for ``true``, ``false`` and ``null``
    (what the page sent), else ``text(value)``."""
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    return text(value)


def check_keys(data: dict, allowed: tuple[str, ...]) -> None:
    """Refuse a JSON body with a key outside ``allowed``: a misspelt key (``targte``) would
    otherwise leave its value at the default without a word.

    Raises
    ------
    BadArgument
        Naming the first unknown key and every allowed one.
    """
    for key in data:
        if key not in allowed:
            raise BadArgument(key, f"unknown key {key!r}; allowed: {', '.join(allowed)}")


def int_param(value, name: str, low: int, high: int) -> int:
    """``value`` (a JSON integer, or a query parameter's text of ASCII digits) as an integer
    in ``low .. high``.

    Raises
    ------
    BadArgument
        Naming ``name`` and the allowed range.
    """
    refused = BadArgument(
        name, f"{name}={shown(value)} is not allowed; allowed: an integer from {low} to {high}"
    )
    # a JSON number with a fraction is no count (1.5; 1e400 reads as inf), and int() would
    # also read "3_000", " 3000 " and other scripts' digits
    if type(value) is int:
        number = value
    elif isinstance(value, str) and value.isascii() and value.isdigit():
        number = int(value)
    else:
        raise refused
    if not low <= number <= high:
        raise refused
    return number


def players_param(value) -> int:
    """``value`` as a player count of section 2's table (R-10).

    Raises
    ------
    BadArgument
        Naming ``players`` and every allowed count.
    """
    try:
        players = int_param(value, "players", min(PLAYER_TABLE), max(PLAYER_TABLE))
    except BadArgument:
        players = None
    if players not in PLAYER_TABLE:
        *most, last = PLAYER_TABLE
        allowed = f"{', '.join(map(str, most))} or {last}"
        raise BadArgument(
            "players", f"players={shown(value, str)} is not allowed; allowed: {allowed}"
        )
    return players


def split_bots(bots: str) -> list[str]:
    """The page's bots text as one spec per bot, as ``--bots`` reads it (a comma item of
    ``NAME=VALUE`` continues the bot before: ``pimc:worlds=8,margin_z=1`` is one bot).

    Raises
    ------
    BadArgument
        Naming ``bots`` for an empty item.
    """
    try:
        return split_bot_list(bots)
    except ValueError as exc:
        raise BadArgument("bots", str(exc)) from None


def check_bot_count(bots: str, players: int) -> None:
    """The page's bots, comma separated, are one for every seat, one per side or one per seat.

    Raises
    ------
    BadArgument
        Naming ``bots``, how many specs were given and every count allowed at ``players``.
    """
    sides = PLAYER_TABLE[players][0]
    given = len(split_bots(bots))
    counts = {1: "1 (every seat)", sides: f"{sides} (one per side)"}
    counts.setdefault(players, f"{players} (one per seat)")
    if given not in counts:
        *most, last = counts.values()
        allowed = f"{', '.join(most)} or {last}"
        raise BadArgument(
            "bots",
            f"bots={bots!r}: {given} spec{'' if given == 1 else 's'} given with {players} players; "
            f"allowed: {allowed}",
        )


def deal_source(runs: list[Path], params) -> dict:
    """Which deal a request names: ``run`` (a number in ``runs``, the run folders the board
    was given) and ``deal``, or ``seed``, ``deal``, ``players`` and ``bots`` (checked: built-in
    bots only, one for every seat, one per side or one per seat).

    Raises
    ------
    BadArgument
        Naming the bad value and what is allowed.
    """
    deal = int_param(params.get("deal", 0), "deal", 0, DEAL_LIMIT - 1)
    if params.get("run") is not None:
        if params.get("seed") is not None:
            raise BadArgument("seed", "give run or seed, not both")
        if not runs:
            raise BadArgument("run", "no run folders were given to canasta-sim board")
        run = int_param(params["run"], "run", 0, len(runs) - 1)
        return {"folder": runs[run], "deal": deal}
    if params.get("seed") is None:
        raise BadArgument("run", "give run (a run folder's number) or seed")
    players = players_param(params.get("players", 4))
    bots = params.get("bots", "expert")
    if not isinstance(bots, str):
        raise BadArgument(
            "bots", f"bots={shown(bots)} is not allowed; allowed: bot specs, comma separated"
        )
    for spec in split_bots(bots):
        page_bot(spec)
    check_bot_count(bots, players)
    return {
        "seed": int_param(params["seed"], "seed", 0, SEED_SPAN - 1),
        "deal": deal,
        "players": players,
        "bots": bots,
    }


def decision_params(params) -> dict:
    """The ``turn`` and ``decision`` a request names (as ``--from-run`` does)."""
    return {
        "turn": int_param(params.get("turn", 0), "turn", 0, 100_000),
        "decision": int_param(params.get("decision", 0), "decision", 0, 1),
    }


class _Written(float):
    """A JSON number with a fraction or an exponent, shown as the page wrote it: ``1e400``
    reads as ``inf``, and an error naming ``inf`` would not name what was sent."""

    text: str

    def __repr__(self) -> str:
        return self.text

    __str__ = __repr__


def _written(text: str) -> float:
    number = _Written(text)
    number.text = text
    return number


async def read_body(request: Request) -> dict:
    """The request's JSON body, an object of at most :data:`MAX_BODY` bytes (numbers with a
    fraction kept as written, for messages).

    Raises
    ------
    BadArgument
        For a body too long, not JSON or not an object.
    """
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise BadArgument("body", f"the request body has {len(raw)} bytes; at most {MAX_BODY}")
    try:
        data = json.loads(raw or b"{}", parse_float=_written)
    except (ValueError, RecursionError):  # nested deeper than the parser's stack
        raise BadArgument("body", "the request body is not JSON") from None
    if not isinstance(data, dict):
        raise BadArgument("body", "the request body must be a JSON object")
    return data
