"""Bot specs: ``"random"``, ``"expert"``, ``"expert:pile_threshold=6,hold_wilds=1"``,
``"pimc:worlds=64,top=4,rollout=expert@1,rollout.safety=80"``.

The search bot's ``rollout`` names its rollout bot (the expert or one of its presets, which sets
the defaults of the ``rollout.NAME`` parameters); ``rollout.NAME=value`` sets one of the rollout
expert's parameters (a spec cannot nest ``:``).

A bot is a policy code the kernels branch on plus a float parameter vector (no jitted
callbacks). The policies and their parameters are those of the table in
:mod:`canasta_sim.nb.bots.policies`; this module validates specs and turns them into the
arrays the kernels take.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from .nb.bots.policies import N_PARAMS as N_PARAMS
from .nb.bots.policies import POLICIES as _TABLE
from .nb.bots.policies import Param as Param
from .nb.bots.policies import Policy

#: Every policy by name (the table of :mod:`canasta_sim.nb.bots.policies`).
POLICIES: dict[str, Policy] = {p.name: p for p in _TABLE}

DEFAULT_BOT = "expert"

#: Earlier defaults of a policy, played by the spec ``NAME@BOTS_VERSION``: ``expert@1`` is
#: ``expert`` as bots version 1 set it (before the tuning of docs/tune.md), for comparisons
#: with today's defaults. Parameters given in a spec change a preset as they change a policy.
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
    },
}


def find_policy(name: str) -> Policy | None:
    """The policy a bot name stands for: one of :data:`POLICIES`, or a preset of
    :data:`PRESETS` (that policy with the preset's defaults, under the preset's name); None for
    an unknown name."""
    name = name.strip().lower()
    if name in PRESETS:
        base = POLICIES[name.partition("@")[0]]
        values = PRESETS[name]
        params = tuple(replace(p, default=float(values[p.name])) for p in base.params)
        return replace(base, name=name, params=params)
    return POLICIES.get(name)


def bot_names() -> str:
    """Every bot name a spec may start with, for messages."""
    return ", ".join([*POLICIES, *PRESETS])


@dataclass(frozen=True)
class Bot:
    """A parsed bot spec."""

    policy: Policy
    values: tuple[float, ...]

    @property
    def spec(self) -> str:
        """Canonical spec: the policy name, then the parameters that differ from defaults."""
        changed = [
            f"{p.name}={_fmt(v)}" for p, v in zip(self.policy.params, self.values) if v != p.default
        ]
        return self.policy.name + (":" + ",".join(changed) if changed else "")

    @property
    def parameters(self) -> dict[str, float]:
        """Every parameter of the policy with its value, defaults included (for manifests)."""
        return {p.name: v for p, v in zip(self.policy.params, self.values)}

    def vector(self) -> np.ndarray:
        """``ndarray(float64, (N_PARAMS,))`` of parameter values in kernel order."""
        v = np.zeros(N_PARAMS, np.float64)
        v[: len(self.values)] = self.values
        return v


def parse_bot(spec: str) -> Bot:
    """Parse a bot spec.

    Raises
    ------
    ValueError
        For an unknown policy or parameter (the message lists the allowed ones), a value out
        of the parameter's range, or a parameter given twice with different values.
    """
    policy, given = spec_params(spec)
    values = {p.name: given.get(p.name, p.default) for p in policy.params}
    return Bot(policy, tuple(values[p.name] for p in policy.params))


def spec_params(spec: str) -> tuple[Policy, dict[str, float]]:
    """The policy of a bot spec and the parameters the spec sets itself (defaults left out,
    even when equal to a given value), validated as in :func:`parse_bot`.

    Raises
    ------
    ValueError
        As :func:`parse_bot`.
    """
    if not isinstance(spec, str):
        raise ValueError(f"bot spec {spec!r} is not a string; allowed: {bot_names()}")
    name, _, rest = spec.strip().partition(":")
    policy = find_policy(name)
    if policy is None:
        raise ValueError(f"unknown bot {name!r}; allowed: {bot_names()}")
    given: dict[str, float] = {}
    preset: dict[str, float] = {}
    for item in filter(None, (s.strip() for s in rest.split(","))):
        key, eq, text = item.partition("=")
        key = key.strip()
        if key == "rollout" and policy.name == "pimc":
            value, preset = _rollout_bot(text, spec)
        else:
            value = _param_value(policy, key, text, eq)
        if given.get(key, value) != value:
            raise ValueError(
                f"bot parameter {key} is given twice with different values "
                f"({_fmt(given[key])} and {_fmt(value)}) in {spec!r}; allowed: "
                f"each parameter once"
            )
        given[key] = value
    return policy, {**preset, **given}


def _rollout_bot(text: str, spec: str) -> tuple[float, dict[str, float]]:
    """The search bot's ``rollout=NAME``: the rollout policy's code, and the ``rollout.NAME``
    parameter values its preset sets."""
    rollout = find_policy(text)
    if rollout is None or rollout.code != POLICIES["expert"].code:
        names = ", ".join(n for n in [*POLICIES, *PRESETS] if n.partition("@")[0] == "expert")
        raise ValueError(
            f"rollout bot {text.strip()!r} in {spec!r} is not allowed; allowed: {names} "
            f"(parameters as rollout.NAME=value)"
        )
    return float(rollout.code), {"rollout." + p.name: p.default for p in rollout.params}


def _param_value(policy: Policy, key: str, text: str, eq: str) -> float:
    """The value of one ``key=text`` item of a spec, checked against the parameter's range."""
    param = next((p for p in policy.params if p.name == key), None)
    if param is None:
        allowed = ", ".join(p.name for p in policy.params) or "none"
        raise ValueError(f"unknown parameter {key!r} for bot {policy.name}; allowed: {allowed}")
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"bot parameter {key}={text!r} is not a number") from None
    if not eq or not (param.low <= value <= param.high):
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
            f"bots: {len(bots)} specs given; give 1 (every side) or {sides} (one per side)"
        )
    return bots


def split_bot_list(text: str) -> list[str]:
    """Split ``"expert:pile_threshold=6,hold_wilds=1,greedy"`` into one spec per bot: a comma
    item holding ``=`` but no ``:`` continues the previous bot's parameters."""
    specs: list[str] = []
    for item in (s.strip() for s in text.split(",")):
        if specs and "=" in item and ":" not in item:
            specs[-1] += "," + item
        else:
            specs.append(item)
    return specs


def seat_arrays(bots: list[Bot], players: int) -> tuple[np.ndarray, np.ndarray]:
    """Kernel arrays for one seating: ``policies`` int32[players] and ``params``
    float64[players, N_PARAMS]; seat ``s`` plays for side ``s % len(bots)``."""
    sides = len(bots)
    policies = np.array([bots[s % sides].policy.code for s in range(players)], np.int32)
    params = np.stack([bots[s % sides].vector() for s in range(players)])
    return policies, params


def _fmt(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else repr(float(v))


def policies_markdown() -> str:
    """The policy section of ``docs/bots.md``: every policy's summary and parameter table, from
    :data:`POLICIES` (``scripts/bots_doc.py`` writes it into the file)."""
    out = []
    for policy in POLICIES.values():
        out += [f"## {policy.name}", "", policy.doc, ""]
        if policy.params:
            out += ["| parameter | default | range | meaning |", "|---|---|---|---|"]
            for p in policy.params:
                whole = " (whole numbers)" if p.integer else ""
                out.append(
                    f"| `{p.name}` | {_fmt(p.default)} | {_fmt(p.low)} .. {_fmt(p.high)}{whole} "
                    f"| {p.doc} |"
                )
            out.append("")
    return "\n".join(out)
