"""Bot specs: ``"random"``, ``"expert"``, ``"expert:pile_threshold=6,hold_wilds=1"``,
``"pimc:worlds=64,top=4,rollout=expert@1,rollout.safety=80"``, and ``"py:FILE.py:CLASS"`` for a
bot written in Python (:mod:`canasta_sim.players.pybot`).

The search bot's ``rollout`` names its rollout bot (the expert or one of its presets, which sets
the defaults of the ``rollout.NAME`` parameters, or the learned bot ``apprentice`` or its
preset ``apprentice@8``, with the spec's ``weights=PATH``); ``rollout.NAME=value`` sets one of
the rollout expert's parameters (the rollout apprentice's candidate-generating expert's; a spec
cannot nest ``:``).

A bot is a policy code the kernels branch on plus a float parameter vector (no jitted
callbacks). The policies and their parameters are those of the table in
:mod:`canasta_sim.nb.bots.policies`; this module validates specs and turns them into the
arrays the kernels take.
"""

from __future__ import annotations

import hashlib
import importlib.util
import math
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from ..errors import BotError
from ..nb.bots.policies import N_PARAMS as N_PARAMS
from ..nb.bots.policies import POLICIES as _TABLE
from ..nb.bots.policies import ApprenticeParam, PimcParam, Policy
from ..nb.bots.policies import Param as Param
from .weights import empty_weights, load_weights, seat_file

#: Every policy by name (the table of :mod:`canasta_sim.nb.bots.policies`).
POLICIES: dict[str, Policy] = {p.name: p for p in _TABLE}

#: The bot of every seat when none is given (bots version 8 on): the learned bot, which beats
#: the expert at every player count and plays over 20,000 deals a second on 2 threads (issue
#: 26's rule; docs/bots.md). ``expert`` was the default before.
DEFAULT_BOT = "apprentice"

#: Earlier defaults of a policy, played by the spec ``NAME@BOTS_VERSION``: ``expert@1`` is
#: ``expert`` as bots version 1 set it (before the tuning of docs/tune.md), ``expert@2`` as
#: version 2 set it (before ``initial_cards`` held the initial meld back), ``expert@3`` as
#: version 3 set it (its 4-player defaults at every player count, before the defaults of
#: :data:`~canasta_sim.nb.bots.policies.EXPERT_BY_PLAYERS`), for comparisons with today's
#: defaults; ``apprentice@8``, ``apprentice@9`` and ``apprentice@10`` are the apprentices of
#: bots versions 8, 9 and 10, which play their versions' weight files (:data:`WEIGHT_FAMILIES`).
#: A preset's defaults hold at every player count; a parameter it leaves out keeps the
#: policy's defaults (per player count too). Parameters given in a spec change a preset as
#: they change a policy.
#: The bots versions whose apprentice files are kept (``apprentice@V`` plays version V's).
KEPT_APPRENTICES = (8, 9, 10, 11)

PRESETS: dict[str, dict[str, float]] = {
    "expert@1": {
        "pile_threshold": 5,
        "meld_keep": 8,
        "hold_wilds": 1,
        "freeze_risk": 0.05,
        "safety": 100,
        "block_at": 0,
        "out_lead": 3000,
        "natural_wait": 7,
        "wild_factor": 3,
        "meld_pile": 0,
        "initial_cards": 100,
    },
    "expert@2": {
        "pile_threshold": 6,
        "meld_keep": 53,
        "hold_wilds": 1,
        "freeze_risk": 0.263,
        "safety": 90.82,
        "block_at": 40,
        "out_lead": 1958,
        "natural_wait": 7,
        "wild_factor": 7.936,
        "meld_pile": 0,
        "initial_cards": 100,
    },
    "expert@3": {
        "pile_threshold": 6,
        "meld_keep": 53,
        "hold_wilds": 1,
        "freeze_risk": 0.263,
        "safety": 90.82,
        "block_at": 40,
        "out_lead": 1958,
        "natural_wait": 7,
        "wild_factor": 1,
        "meld_pile": 0,
        "initial_cards": 3,
    },
    # earlier apprentices' parameters are today's defaults: only their weights are their own
    **{f"apprentice@{v}": {} for v in KEPT_APPRENTICES},
}

#: The family of shipped weight files an apprentice preset plays (``data/{family}_{N}p.npz``
#: for N players, :func:`~canasta_sim.players.weights.default_weights_path`): the files of its
#: bots version, kept under their own names when a later version ships new ones, so that the
#: preset plays as its version did (as a bot, and as ``pimc``'s ``rollout=``).
WEIGHT_FAMILIES = {f"apprentice@{v}": f"apprentice{v}" for v in KEPT_APPRENTICES}


def find_policy(name: str) -> Policy | None:
    """The policy a bot name stands for: one of :data:`POLICIES`, or a preset of
    :data:`PRESETS` (that policy with the preset's defaults, under the preset's name); None for
    an unknown name."""
    name = name.strip().lower()
    if name in PRESETS:
        base = POLICIES[name.partition("@")[0]]
        values = PRESETS[name]
        params = tuple(
            replace(p, default=float(values[p.name]), by_players=()) if p.name in values else p
            for p in base.params
        )
        return replace(base, name=name, params=params)
    return POLICIES.get(name)


def family_bot(family: str) -> str:
    """The apprentice that plays a family of shipped weight files: the preset of
    :data:`WEIGHT_FAMILIES` that names it, ``apprentice`` for the empty family (today's)."""
    return next((n for n, f in WEIGHT_FAMILIES.items() if f == family), "apprentice")


def bot_names() -> str:
    """Every bot name a spec may start with, for messages."""
    return ", ".join([*POLICIES, *PRESETS])


#: Parameters the run sets, never a spec: ``weight_set`` indexes the run's weight files, set
#: from the spec's ``weights=PATH`` (:func:`weight_sets`).
RUN_SET = frozenset({"weight_set"})

#: The policy of a bot written in Python: code -1, which no kernel plays (runs with such a
#: bot play their deals in Python, :func:`canasta_sim.run.seating.play_deals`).
PYTHON_POLICY = Policy(
    "py", -1, "", (), "A bot written in Python: py:FILE.py:CLASS (docs/strategy.md)."
)


@dataclass(frozen=True)
class Bot:
    """A parsed bot spec; ``source`` is ``FILE.py:CLASS`` for a bot written in Python;
    ``weights`` the weight file (``.npz``) an ``apprentice`` spec names (empty: the shipped
    one for the player count); ``family`` the family of shipped weight files its apprentice
    (or a search bot's rollout apprentice) plays when ``weights`` is empty: an apprentice
    preset's (:data:`WEIGHT_FAMILIES`, ``apprentice8`` for ``apprentice@8`` and
    ``pimc:rollout=apprentice@8``), empty for today's; ``free`` the parameters the spec
    leaves to defaults that depend on the player count (``Param.by_players``): ``values``
    holds their 4-player defaults, :meth:`values_at` their values at a table."""

    policy: Policy
    values: tuple[float, ...]
    source: str = ""
    weights: str = ""
    free: frozenset[str] = frozenset()
    family: str = ""

    @property
    def is_python(self) -> bool:
        return bool(self.source)

    def player(self):
        """A new instance of a Python bot's class (:func:`load_class`)."""
        return load_class(self.source)()

    @property
    def spec(self) -> str:
        """Canonical spec: the policy name, then the parameters that differ from defaults
        (``py:FILE.py:CLASS`` for a Python bot); a parameter the spec sets whose default
        depends on the player count stays in it, equal to a default or not."""
        if self.source:
            return f"py:{self.source}"
        changed = [
            f"{p.name}={self._rollout_name(v) if p.name == 'rollout' else _fmt(v)}"
            for p, v in zip(self.policy.params, self.values)
            if p.name not in self.free and (v != p.default or p.by_players)
        ]
        if self.weights:
            changed.append(f"weights={self.weights}")
        return self.policy.name + (":" + ",".join(changed) if changed else "")

    def _rollout_name(self, code: float) -> str:
        """The bot a search bot's ``rollout`` parameter value ``code`` names in its spec: the
        apprentice preset of the spec's weight family, or the policy of the code."""
        return family_bot(self.family) if self.family else _TABLE[int(code)].name

    @property
    def parameters(self) -> dict[str, float]:
        """Every parameter of the policy with its value, defaults at 4 players included."""
        return {p.name: v for p, v in zip(self.policy.params, self.values)}

    def values_at(self, players: int) -> tuple[float, ...]:
        """The parameter values with ``players`` at the table: the spec's, and the free
        parameters' defaults for that player count; a rollout apprentice's candidate expert
        (``pimc:rollout=apprentice``'s free ``rollout.NAME``) takes the apprentice's own
        ``expert.NAME`` defaults, on whose candidates its weights were fitted
        (docs/learned.md)."""
        own = {}
        if learned_rollout(self.policy, self.parameters.get("rollout")):
            expert = POLICIES["apprentice"].params[ApprenticeParam.expert :]
            own = {"rollout." + p.name.removeprefix("expert."): p for p in expert}
        return tuple(
            own.get(p.name, p).default_at(players) if p.name in self.free else v
            for p, v in zip(self.policy.params, self.values)
        )

    def parameters_at(self, players: int) -> dict[str, float]:
        """Every parameter with its value with ``players`` at the table (for manifests)."""
        return dict(zip((p.name for p in self.policy.params), self.values_at(players)))

    def plays_as(self, other: Bot, players: int) -> bool:
        """Whether ``other`` is the same bot with ``players`` at the table: one policy (a
        preset counts as its policy), the same parameter values there, the same weight file
        (given, or of a shipped family) or Python class (``expert:pile_threshold=3`` plays as
        ``expert`` with 6 players)."""
        return (self.policy.code, self.source, self._plays_weights) == (
            other.policy.code,
            other.source,
            other._plays_weights,
        ) and self.values_at(players) == other.values_at(players)

    @property
    def _plays_weights(self) -> tuple[str, str]:
        """The weight file a spec gives, else the family of shipped files it plays."""
        return (self.weights, "" if self.weights else self.family)

    def vector(self, players: int) -> np.ndarray:
        """``ndarray(float64, (N_PARAMS,))`` of parameter values in kernel order with
        ``players`` at the table."""
        v = np.zeros(N_PARAMS, np.float64)
        v[: len(self.values)] = self.values_at(players)
        return v


def parse_bot(spec: str) -> Bot:
    """Parse a bot spec.

    Raises
    ------
    ValueError
        For an unknown policy or parameter (the message lists the allowed ones), a value out
        of the parameter's range, or a parameter given twice with different values.
    canasta_sim.errors.BotError
        When the code of a bot written in Python fails as it is loaded (:func:`load_class`).
    """
    if isinstance(spec, str) and spec.strip().startswith("py:"):
        source = spec.strip()[3:]
        load_class(source)  # a bad file or class is a bad spec, found now
        return Bot(PYTHON_POLICY, (), source)
    spec, weights = _weights_item(spec)
    policy, given, family = _spec_items(spec)
    values = {p.name: given.get(p.name, p.default) for p in policy.params}
    if weights and not (policy.learned or learned_rollout(policy, values.get("rollout"))):
        raise ValueError(
            f"weights={weights} is a parameter of apprentice and pimc:rollout=apprentice "
            f"only, not of {spec!r}"
        )
    _check_prior(policy, values, spec)
    if weights:  # a bad file is a bad spec, found now (after the bot: it may take none)
        load_weights(weights)
    free = frozenset(p.name for p in policy.params if p.by_players and p.name not in given)
    ordered = tuple(values[p.name] for p in policy.params)
    return Bot(policy, ordered, weights=weights, free=free, family=family)


def _check_prior(policy: Policy, values: dict[str, float], spec: str) -> None:
    """The search bot's prior (``prior_top``) needs the learned rollout bot, whose candidates
    and scores it is, and its margins need the prior (they keep its first choice)."""
    if not policy.search:
        return
    if values["prior_top"] > 0 and not learned_rollout(policy, values["rollout"]):
        raise ValueError(
            f"prior_top={_fmt(values['prior_top'])} in {spec!r} needs rollout=apprentice "
            f"(the prior is the learned bot's scores); allowed without it: prior_top=0"
        )
    for name in ("margin", "margin_z"):
        if values[name] > 0 and values["prior_top"] == 0:
            raise ValueError(
                f"{name}={_fmt(values[name])} in {spec!r} needs prior_top of 1 or more (the "
                f"margin keeps the prior's first choice); allowed with prior_top=0: {name}=0"
            )


def _weights_item(spec):
    """The spec without its ``weights=PATH`` item, and the path (a weight file, checked by
    the caller with :func:`canasta_sim.players.weights.load_weights`); paths may not hold
    ``,`` or ``:``."""
    if not isinstance(spec, str) or "weights=" not in spec:
        return spec, ""
    name, _, rest = spec.partition(":")
    items = [s.strip() for s in rest.split(",")]
    paths = [s.partition("=")[2].strip() for s in items if s.startswith("weights=")]
    kept = [s for s in items if not s.startswith("weights=")]
    if len(paths) != 1 or not paths[0]:
        raise ValueError(f"bot spec {spec!r}: allowed: one weights=PATH (an .npz weight file)")
    return name + (":" + ",".join(kept) if kept else ""), paths[0]


def spec_params(spec: str) -> tuple[Policy, dict[str, float]]:
    """The policy of a bot spec and the parameters the spec sets itself (defaults left out,
    even when equal to a given value), validated as in :func:`parse_bot`.

    Raises
    ------
    ValueError
        As :func:`parse_bot`.
    """
    policy, given, _ = _spec_items(spec)
    return policy, given


def _spec_items(spec: str) -> tuple[Policy, dict[str, float], str]:
    """As :func:`spec_params`, and the family of shipped weight files the spec's apprentice
    plays (:attr:`Bot.family`: an apprentice preset's, or a search bot's rollout preset's)."""
    if not isinstance(spec, str):
        raise ValueError(f"bot spec {spec!r} is not a string; allowed: {bot_names()}")
    name, colon, rest = spec.strip().partition(":")
    if colon and not rest.strip():
        raise ValueError(
            f"bot spec {spec!r} has a ':' but no parameters; write {name.strip()!r}, or "
            f"NAME=VALUE pairs after the ':' (e.g. 'expert:meld_keep=12')"
        )
    policy = find_policy(name)
    if policy is None:
        raise ValueError(
            f"unknown bot {name!r}; allowed: {bot_names()}, or py:FILE.py:CLASS "
            f"(a bot written in Python)"
        )
    given: dict[str, float] = {}
    preset: dict[str, float] = {}
    rollout = ""  # the rollout bot's name: its code alone does not tell one preset from another
    for item in (s.strip() for s in rest.split(",") if colon):
        if not item:  # a doubled or trailing comma: a parameter left out by mistake
            raise ValueError(
                f"bot spec {spec!r} has an empty parameter (two commas in a row, or a comma "
                f"at the end); allowed: NAME=VALUE pairs separated by single commas"
            )
        key, eq, text = item.partition("=")
        key = key.strip()
        if key == "rollout" and policy.name == "pimc":
            value, preset, named = _rollout_bot(text, spec)
            if rollout not in ("", named):
                raise ValueError(
                    f"bot parameter rollout is given twice with different values ({rollout} "
                    f"and {named}) in {spec!r}; allowed: each parameter once"
                )
            rollout = named
        else:
            value = _param_value(policy, key, text, eq)
        if given.get(key, value) != value:
            raise ValueError(
                f"bot parameter {key} is given twice with different values "
                f"({_fmt(given[key])} and {_fmt(value)}) in {spec!r}; allowed: "
                f"each parameter once"
            )
        given[key] = value
    return policy, {**preset, **given}, WEIGHT_FAMILIES.get(rollout or policy.name, "")


def _rollout_bot(text: str, spec: str) -> tuple[float, dict[str, float], str]:
    """The search bot's ``rollout=NAME``: the rollout policy's code, the ``rollout.NAME``
    parameter values its preset sets (none for today's expert and the apprentice and its
    presets, whose expert plays today's defaults) and the rollout bot's name."""
    rollout = find_policy(text)
    if rollout is not None and (rollout.learned or rollout is POLICIES["expert"]):
        return float(rollout.code), {}, rollout.name  # today's defaults, per player count
    if rollout is None or rollout.code != POLICIES["expert"].code:
        names = ", ".join(
            n for n in [*POLICIES, *PRESETS] if n.partition("@")[0] in ("expert", "apprentice")
        )
        raise ValueError(
            f"rollout bot {text.strip()!r} in {spec!r} is not allowed; allowed: {names} "
            f"(parameters as rollout.NAME=value)"
        )
    values = {"rollout." + p.name: p.default for p in rollout.params}
    return float(rollout.code), values, rollout.name


def learned_rollout(policy: Policy, rollout: float | None) -> bool:
    """Whether ``policy`` with the ``rollout`` parameter value is the search bot rolling out
    with the learned bot (``pimc:rollout=apprentice``)."""
    return bool(policy.search and rollout == POLICIES["apprentice"].code)


def search_rollout_bot(bot: Bot) -> Bot:
    """The rollout bot of a search bot (``pimc``): the expert with the spec's ``rollout.NAME``
    values, under the name of the expert preset it is closest to (the shortest spec); with
    ``rollout=apprentice`` (or ``apprentice@8``) that apprentice with those values as its
    ``expert.NAME`` and the spec's weight file or family.

    Raises
    ------
    ValueError
        For a bot that is not the search bot.
    """
    if bot.policy.name != "pimc":
        raise ValueError(f"bot {bot.spec!r} is not the search bot; allowed: pimc specs")
    names = [p.name for p in POLICIES["expert"].params]
    values = tuple(bot.parameters["rollout." + n] for n in names)
    free = frozenset(n for n in names if "rollout." + n in bot.free)
    if learned_rollout(bot.policy, bot.parameters["rollout"]):
        apprentice = find_policy(family_bot(bot.family))
        assert apprentice is not None  # every family is a preset's
        own = apprentice.params[: ApprenticeParam.expert]
        free = frozenset(p.name for p in own) | {"expert." + n for n in free}
        values = tuple(p.default for p in own) + values
        return Bot(apprentice, values, weights=bot.weights, free=free, family=bot.family)
    presets = [n for n in [*POLICIES, *PRESETS] if n.partition("@")[0] == "expert"]
    bots = [Bot(find_policy(n), values, free=free) for n in presets]
    return min(bots, key=lambda b: len(b.spec))


def _param_value(policy: Policy, key: str, text: str, eq: str) -> float:
    """The value of one ``key=text`` item of a spec, checked against the parameter's range."""
    if key in RUN_SET:
        raise ValueError(
            f"bot parameter {key} is set by the run, not by a spec; to choose the weight file "
            f"give weights=PATH (an .npz weight file)"
        )
    param = next((p for p in policy.params if p.name == key), None)
    if param is None:
        allowed = ", ".join(p.name for p in policy.params if p.name not in RUN_SET) or "none"
        raise ValueError(f"unknown parameter {key!r} for bot {policy.name}; allowed: {allowed}")
    if not eq:
        raise ValueError(
            f"bot parameter {key} has no value; write {key}=VALUE, allowed: "
            f"{_fmt(param.low)} to {_fmt(param.high)}"
        )
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value):  # float() also reads "nan" and "inf"
        raise ValueError(
            f"bot parameter {key}={text!r} is not a finite number; allowed: "
            f"{_fmt(param.low)} to {_fmt(param.high)}"
        )
    if not (param.low <= value <= param.high):
        raise ValueError(
            f"bot parameter {key}={text!r} is out of range; allowed: "
            f"{_fmt(param.low)} to {_fmt(param.high)}"
        )
    if param.integer and not value.is_integer():
        raise ValueError(
            f"bot parameter {key}={text!r} must be a whole number from "
            f"{_fmt(param.low)} to {_fmt(param.high)}"
        )
    return value


def side_bots(bots, sides: int) -> list[Bot]:
    """One :class:`Bot` per side from ``None`` (the default bot), one spec for every side, or
    one spec per side in side order.

    Raises
    ------
    ValueError
        For a bad spec or a list whose length is neither 1 nor ``sides``.
    """
    if bots is None:
        bots = [DEFAULT_BOT]
    elif isinstance(bots, (str, Bot)):
        bots = split_bot_list(bots) if isinstance(bots, str) else [bots]
    elif not isinstance(bots, (list, tuple)):
        raise ValueError(
            f"bots: {bots!r} is not a bot spec; give a spec string such as "
            f"'expert', a Bot, or a list of them"
        )
    bots = [b if isinstance(b, Bot) else parse_bot(b) for b in bots]
    if len(bots) == 1:
        bots = bots * sides
    if len(bots) != sides:
        raise ValueError(
            f"bots: {len(bots)} specs given for {sides} sides; allowed: 1 (every side) or "
            f"{sides} (one per side)"
        )
    return bots


def split_bot_list(text: str) -> list[str]:
    """Split ``"expert:pile_threshold=6,hold_wilds=1,greedy"`` into one spec per bot: a comma
    item holding ``=`` but no ``:`` continues the previous bot's parameters.

    Raises
    ------
    ValueError
        For an empty item (two commas in a row, or one at the start or end).
    """
    specs: list[str] = []
    for item in (s.strip() for s in text.split(",")):
        if not item:  # a doubled or trailing comma: a bot or parameter left out by mistake
            where = f"after {specs[-1]!r}" if specs else "at its start"
            raise ValueError(
                f"bot list {text!r} has an empty item {where} (two commas in a row, or a "
                f"comma at the start or end); allowed: bot specs and their NAME=VALUE "
                f"parameters separated by single commas"
            )
        if specs and "=" in item and ":" not in item and not specs[-1].startswith("py:"):
            specs[-1] += "," + item
        else:
            specs.append(item)
    return specs


def seat_bots(seats, players: int) -> list[Bot]:
    """One :class:`Bot` per seat from ``players`` specs in seat order (a list, or one comma
    text as :func:`split_bot_list` splits it). Seat ``s`` plays for side ``s % sides``
    (R-10): with 4 players ``["expert", "careful", "expert", "careful"]`` seats expert at 0
    and 2 (side 0) and careful at 1 and 3 (side 1).

    Raises
    ------
    ValueError
        For a bad spec, or a number of specs other than ``players``.
    """
    if isinstance(seats, str):
        seats = split_bot_list(seats)
    elif isinstance(seats, Bot):
        seats = [seats]
    elif not isinstance(seats, (list, tuple)):
        raise ValueError(
            f"seats: {seats!r} is not a list of bot specs; give one spec per seat, "
            f"e.g. 'expert,careful,expert,careful'"
        )
    bots = [b if isinstance(b, Bot) else parse_bot(b) for b in seats]
    if len(bots) != players:
        raise ValueError(
            f"seats: {len(bots)} spec{'' if len(bots) == 1 else 's'} given for {players} "
            f"players; allowed: {players} (one per seat, seat 0 first)"
        )
    return bots


def table_bots(bots, seats, rules) -> tuple[Bot, ...]:
    """The bots of one seating: per side from ``bots`` (:func:`side_bots`), or per seat from
    ``seats`` (:func:`seat_bots`); at most one of them may be given.

    Raises
    ------
    ValueError
        When both are given, or as :func:`side_bots` / :func:`seat_bots`.
    """
    if seats is None:
        return tuple(side_bots(bots, rules.sides))
    if bots is not None:
        raise ValueError(
            "bots and seats are both given; allowed: one of them (bots per side, or seats "
            "with one bot per seat)"
        )
    return tuple(seat_bots(seats, rules.players))


def per_seat(bots, players: int) -> list[Bot]:
    """The bot of every seat of a seating given per side (``sides`` bots: seat ``s`` plays
    side ``s % sides``) or per seat (``players`` bots)."""
    return [bots[s % len(bots)] for s in range(players)]


def side_label(bots, players: int, sides: int, side: int) -> str:
    """The label of ``side``'s bots in a seating (as :func:`per_seat` reads it): their spec
    when the side's players share one bot, else their specs in seat order joined by ``/``
    (``"expert/careful"``: seat ``side`` plays expert, seat ``side + sides`` careful)."""
    specs = [b.spec for b in per_seat(bots, players)[side::sides]]
    return specs[0] if len(set(specs)) == 1 else "/".join(specs)


def seat_arrays(bots, players: int) -> tuple[np.ndarray, np.ndarray]:
    """Kernel arrays for one seating: ``policies`` int32[players] and ``params``
    float64[players, N_PARAMS]; ``bots`` per side or per seat (:func:`per_seat`)."""
    seated = per_seat(bots, players)
    policies = np.array([b.policy.code for b in seated], np.int32)
    params = np.stack([b.vector(players) for b in seated])
    return policies, params


def weight_sets(seatings, players: int, params: np.ndarray):
    """The weight files of the apprentice seats of ``seatings`` and of its search seats
    rolling out with the apprentice (each seat's own ``weights=PATH``, or the shipped file of
    its family, :attr:`Bot.family`, for ``players``) and their packed networks stacked
    (``float32[n_sets, NET_LEN]``); writes each such seat's index into
    ``params[seating, seat, ApprenticeParam.weight_set]`` (``PimcParam.weight_set`` for a
    search seat).

    Raises
    ------
    ValueError
        As :func:`~canasta_sim.players.weights.seat_file`: a seat's ``weights=PATH`` fitted
        for another player count or not a weight file, a search seat's prior on a head network.
    """
    files: list[str] = []
    for r, seating in enumerate(seatings):
        for seat, bot in enumerate(per_seat(seating, players)):
            search = learned_rollout(bot.policy, bot.parameters.get("rollout"))
            if bot.policy.learned or search:
                prior = bot.parameters.get("prior_top", 0.0)
                path = seat_file(bot.weights, bot.family, players, prior)
                if path not in files:
                    files.append(path)
                slot = PimcParam.weight_set if search else ApprenticeParam.weight_set
                params[r, seat, slot] = files.index(path)
    if not files:
        return (), empty_weights()
    return tuple(files), np.stack([load_weights(f) for f in files])


_MODULES: dict = {}  # bot files loaded, by absolute path: each runs once per process


def load_class(source: str):
    """The bot class of ``FILE.py:CLASS`` (the part after ``py:`` of a spec). A file runs
    once per process (later changes to it need a new process).

    Raises
    ------
    ValueError
        Naming the file or class when the file does not exist, the class is missing, it has
        no ``choose`` method or it cannot be made without arguments.
    canasta_sim.errors.BotError
        When the file's code, or the class's when an instance is made, raises an exception
        (a syntax error included): the message holds the exception and the bot's own frames.
    """
    path_text, colon, name = source.rpartition(":")
    if not colon or not path_text.endswith(".py") or not name.isidentifier():
        raise ValueError(
            f"py:{source}: not a Python bot spec; allowed: py:FILE.py:CLASS, e.g. "
            f"py:my_bots.py:PileHoarder"
        )
    path = Path(path_text)
    if not path.is_file():
        raise ValueError(f"py:{source}: the file {path_text!r} does not exist")
    resolved = str(path.resolve())
    module = _MODULES.get(resolved)
    if module is None:
        key = hashlib.sha1(resolved.encode()).hexdigest()[:12]
        spec = importlib.util.spec_from_file_location(f"canasta_pybot_{key}", path)
        module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
        try:
            spec.loader.exec_module(module)  # type: ignore[union-attr]
        except (Exception, SystemExit) as exc:  # the user's file failed (or exits): its error
            frames = _frames_in(exc.__traceback__, resolved)
            raise BotError.raised(f"py:{source}", "(loading its file)", exc, frames) from exc
        _MODULES[resolved] = module
    cls = getattr(module, name, None)
    if cls is None or not callable(getattr(cls, "choose", None)):
        raise ValueError(
            f"py:{source}: {path_text} has no class {name} with a choose(view, choices) method"
        )
    try:
        cls()  # each seat plays its own instance, made without arguments
    except (Exception, SystemExit) as exc:
        frames = exc.__traceback__.tb_next if exc.__traceback__ is not None else None
        if frames is not None:  # the class's own code failed
            raise BotError.raised(f"py:{source}", "(making an instance)", exc, frames) from exc
        raise ValueError(
            f"py:{source}: class {name} cannot be made without arguments ({exc!r}); a bot "
            f"class takes no constructor arguments"
        ) from None
    return cls


def _frames_in(tb, path: str):
    """The traceback ``tb`` from its first frame in the file ``path`` on (``None`` when no
    frame is: a syntax error, found before the file runs, names its own line)."""
    while tb is not None and str(Path(tb.tb_frame.f_code.co_filename).resolve()) != path:
        tb = tb.tb_next
    return tb


def _fmt(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else repr(float(v))


def _default_text(p) -> str:
    """A parameter's default for the docs: with the player counts whose default differs."""
    counts = "; ".join(f"{n} players: {_fmt(v)}" for n, v in p.by_players)
    return _fmt(p.default) + (f" ({counts})" if counts else "")


def policies_markdown() -> str:
    """The policy section of ``docs/bots.md``: every policy's summary and parameter table, from
    :data:`POLICIES` (``scripts/bots_doc.py`` writes it into the file)."""
    out = []
    for policy in POLICIES.values():
        out += [f"## {policy.name}", "", policy.doc, ""]
        if policy.params:
            out += ["| parameter | default | range | meaning |", "|---|---|---|---|"]
            for p in (p for p in policy.params if p.name not in RUN_SET):
                whole = " (whole numbers)" if p.integer else ""
                out.append(
                    f"| `{p.name}` | {_default_text(p)} | {_fmt(p.low)} .. {_fmt(p.high)}{whole} "
                    f"| {p.doc} |"
                )
            out.append("")
    return "\n".join(out)
