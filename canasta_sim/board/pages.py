"""What the board shows, built from a request's checked values: a deal's frames
(:func:`deal_replay`), the position at one of its decisions (:func:`deal_position`), a hand's
report (:func:`hand_report`: that position and the deal's trace, as files), and the bot specs
a page may name (:func:`page_bot`). Needs no web framework: the static export
(:mod:`canasta_sim.board.export`) uses it too.
"""

from __future__ import annotations

import json
from pathlib import Path

from ..errors import BadArgument
from ..game.deals import Deal
from ..game.rules import Rules
from ..run.address import RunDeal, deal_of_run, replay_deal
from .frames import DealReplay, replay_frames


def page_bot(spec) -> str:
    """A bot spec sent by the page, checked: built-in bots only.

    Raises
    ------
    BadArgument
        For a spec that is not text, a bot written in Python (``py:...``: the page may not
        make the server load code; the message lists the built-in bots and presets) or an
        unknown bot or parameter (the message lists the
        allowed ones).
    """
    from ..players.specs import bot_names, parse_bot

    if not isinstance(spec, str) or not spec.strip():
        raise BadArgument("bots", f"bot spec {spec!r} is not allowed; allowed: e.g. 'expert'")
    if spec.strip().lower().startswith("py"):
        raise BadArgument(
            "bots",
            f"bot spec {spec!r}: bots written in Python are not taken from the page; "
            f"allowed: the built-in bots and their presets ({bot_names()})",
        )
    try:
        return parse_bot(spec).spec
    except ValueError as exc:
        raise BadArgument("bots", str(exc)) from None


def page_rollout(spec) -> str:
    """A rollout bot spec sent by the page, checked as :func:`page_bot` and as ``analyse``
    checks its rollout bots (no search bot: the rollouts hold no search, docs/pimc.md).

    Raises
    ------
    BadArgument
        As :func:`page_bot`, and for ``pimc`` (the message lists the allowed rollout bots).
    """
    from ..search.analysis import rollout_bots

    checked = page_bot(spec)
    try:
        rollout_bots(checked, 2)
    except ValueError as exc:
        raise BadArgument("rollout", str(exc)) from None
    return checked


def run_deal(source: dict) -> RunDeal:
    """The deal a checked request names: ``folder`` and ``deal`` (of a run folder), or
    ``seed``, ``deal``, ``players`` and ``bots`` (one spec per side or per seat, comma
    separated; classic rules, scores 0), with optionally a game's ``target`` (R-55, the
    rules' ``game_target``; default the rules') and ``scores`` (each side's cumulative score
    before the deal, points: the minimum counts, R-64), as a whole game's deals have them
    (:mod:`canasta_sim.board.whole_game`).

    Raises
    ------
    ValueError
        As :func:`canasta_sim.run.address.deal_of_run`, or for bad bots or players.
    """
    if "folder" in source:
        return deal_of_run(source["folder"], source["deal"])
    from ..players.specs import per_seat, split_bot_list, table_bots

    target = {} if source.get("target") is None else {"game_target": source["target"]}
    rules = Rules.preset("classic", players=source["players"], **target)
    specs = split_bot_list(source["bots"])
    per_side = len(specs) in (1, rules.sides)
    bots = table_bots(specs if per_side else None, None if per_side else specs, rules)
    seats = [b.spec for b in per_seat(list(bots), rules.players)]
    return RunDeal.of_seed(rules, source["seed"], source["deal"], seats, source.get("scores"))


def deal_replay(source: dict) -> DealReplay:
    """The frames of the deal a checked request names (see :func:`run_deal`)."""
    run = run_deal(source)
    if "folder" in source:
        return run_replay(run, source["folder"], source["deal"])
    seed, k, players, bots = source["seed"], source["deal"], source["players"], source["bots"]
    from ..players.specs import split_bot_list

    option = "--bots" if len(split_bot_list(bots)) in (1, run.rules.sides) else "--seats"
    return replay_frames(
        run,
        title=f"seed {seed}, deal {k}, {players} players, {bots}",
        address=None,
        command=f"canasta-sim replay --seed {seed} --deal {k} --players {players} {option} {bots}",
    )


def run_replay(run: RunDeal, folder, k: int) -> DealReplay:
    """The frames of deal ``k`` of the run in ``folder`` (``run``: what
    :func:`canasta_sim.run.address.deal_of_run` answers for it), titled and addressed like
    ``--from-run``."""
    return replay_frames(
        run,
        title=f"{Path(folder).name}, deal {k}",
        address=f"{folder}:{k}",
        command=f"canasta-sim replay {folder} --deal {k}",
    )


def deal_at(source: dict, turn: int, decision: int) -> Deal:
    """The deal a checked request names (:func:`run_deal`), played to a decision (``turn``,
    ``decision`` as in ``--from-run``) by :meth:`canasta_sim.run.address.RunDeal.at`, as
    ``analyse --from-run`` plays it.

    Raises
    ------
    ValueError
        For a turn or decision the deal does not reach (the message gives the allowed turns).
    """
    where = (
        f"deal {source['deal']} of {str(source['folder'])!r}" if "folder" in source else "the deal"
    )
    return run_deal(source).at(turn, decision, where)


def deal_position(source: dict, turn: int, decision: int) -> dict:
    """The position mapping (a position file's keys) of the seat to play at a decision."""
    from ..game.positions import position_mapping

    deal = deal_at(source, turn, decision)
    return position_mapping(deal.info_set(deal.current_player))


#: The files of a hand's report: the position ``canasta-sim analyse FILE`` reads and the
#: deal's trace ``canasta-sim verify --trace FILE`` referees (JSON lines, docs/trace.md).
REPORT_FILES = ("position.json", "trace.jsonl")


def report_files(position: dict, trace: list[dict], name: str) -> dict:
    """A hand's report as the page downloads it: ``files``, file name -> text, the position
    (indented JSON) and the trace (one event per line, as
    :func:`canasta_sim.game.trace.save_trace` writes it), each name prefixed with ``name``."""
    position_file, trace_file = (f"{name}-{file}" for file in REPORT_FILES)
    return {
        "files": {
            position_file: json.dumps(position, indent=2) + "\n",
            trace_file: "".join(json.dumps(event) + "\n" for event in trace),
        }
    }


def hand_report(source: dict, turn: int, decision: int) -> dict:
    """The report of a hand at a decision of the deal a checked request names
    (:func:`run_deal`): the position of the seat to play there (:func:`deal_position`) and
    the whole deal's trace, as :func:`report_files` gives them.

    Raises
    ------
    ValueError
        For a turn or decision the deal does not reach.
    """
    position = deal_position(source, turn, decision)
    trace = replay_deal(run_deal(source))
    return report_files(position, trace, f"deal{source['deal']}-turn{turn}-{decision}")
