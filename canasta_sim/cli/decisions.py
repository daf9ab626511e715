"""Commands about single decisions: ``analyse`` (one decision's candidates rolled out) and
``review`` (where a bot loses points)."""

from __future__ import annotations

from pathlib import Path

import click

from .options import (
    COUNT,
    FORMAT,
    OVERWRITE,
    QUIET,
    SEED,
    Integer,
    Number,
    _bots,
    _check_seat_files,
    _emit,
    _new_out,
    _note,
    _write_frames,
    api_errors,
    build_rules,
    integer_option,
    out_option,
    rules_options,
)

#: The rollout bots ``--rollout`` takes (:func:`canasta_sim.search.analysis.rollout_bots`
#: refuses the others; a test keeps the two the same).
ROLLOUT_HELP = (
    "random, greedy, careful, expert (a spec: expert@1, expert:safety=80, ...) or apprentice; "
    "not pimc (the search bot) or a bot written in Python"
)


# --- analyse: one decision, its candidates rolled out (docs/analysis.md) ---------------------
@click.command("analyse")
@click.argument("position", required=False, type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--from-run",
    "address",
    default=None,
    metavar="RUN_FOLDER:DEAL[:TURN[:DECISION]]",
    help="Analyse a decision of a run's deal instead (decision 0: draw or take the pile; "
    "1: the melds, then the discard or going out).",
)
@integer_option(
    "--worlds",
    Integer(1, 10_000_000),
    None,
    shown=False,
    help="Play exactly this many worlds per candidate (no race).",
)
@integer_option(
    "--min-worlds",
    Integer(1, 10_000_000),
    1000,
    help="Worlds before a candidate may be dropped.",
)
@integer_option(
    "--max-worlds",
    Integer(1, 10_000_000),
    200_000,
    help="Most worlds per candidate.",
)
@click.option(
    "--target-se",
    type=Number(min=0, min_open=True),
    default=5.0,
    show_default=True,
    help="Stop when every paired standard error is below this (points).",
)
@click.option("--seed", type=SEED, default=0, show_default=True, help="Master seed of the worlds.")
@click.option(
    "--rollout",
    default="expert",
    show_default=True,
    metavar="SPEC[,SPEC...]",
    help=f"Bot that plays the rest of the deal (one for every side or one per side): "
    f"{ROLLOUT_HELP}.",
)
@click.option(
    "--candidate",
    "chosen",
    multiple=True,
    metavar="LABEL",
    help="Analyse only this candidate, e.g. 'discard K' (repeatable; default: all legal).",
)
@integer_option(
    "--top",
    Integer(1, 10_000),
    None,
    shown=False,
    help="Analyse only the K candidates the rollout bot ranks first (its own choice first).",
)
@integer_option(
    "--max-candidates",
    Integer(1, 10_000),
    64,
    help="The candidate layer's cap: the most play-phase candidates listed, meld plans taken "
    "whole in their order (docs/analysis.md); the settings line says how many plans it left out.",
)
@click.option(
    "--objective",
    type=click.Choice(["score_diff", "own_score", "win_deal"]),
    default="score_diff",
    show_default=True,
    help="What the race ranks.",
)
@click.option(
    "--win-game",
    type=click.Choice(["auto", "table", "play-out"]),
    default="auto",
    show_default=True,
    help="P(win game) from the game-equity table, or by playing each world's game out with "
    "the rollout bots (slower); auto: the table where it covers the rules (2, 4, 6 players, "
    "classic), else the play-out.",
)
@out_option("New folder for analysis.json and per_world.parquet.")
@click.option(
    "--quiet",
    is_flag=True,
    help="Print the result only: no line on the position read from a run or the folder "
    "written (analyse shows no progress).",
)
@FORMAT
def analyse_command(
    position,
    address,
    worlds,
    min_worlds,
    max_worlds,
    target_se,
    seed,
    rollout,
    chosen,
    top,
    max_candidates,
    objective,
    win_game,
    out,
    quiet,
    fmt,
):
    """Rank the candidates at the decision in POSITION (a TOML or JSON position file,
    docs/analysis.md), or at a decision of a run (--from-run), by rolling each out in the
    same sampled worlds."""
    from ..players.choices import candidates, find_candidate
    from ..search.analysis import analyse, rollout_seating

    _check_analyse_source(position, address)
    _check_worlds(worlds, min_worlds, max_worlds)
    from ..run.compiling import compile_watch

    # reading a run's deal, listing the candidates and the rollouts may compile kernels (a
    # first use): say so, as the commands that play deals do
    with compile_watch(note=not quiet):
        info = _analysed_position(position, address, quiet, fmt)
        with api_errors("--rollout"):  # a weight file of another player count, say
            rollout_seating(rollout, info.rules)
        with api_errors("POSITION"):
            found = candidates(info, max_candidates)
        with api_errors("--candidate"):
            picked = [find_candidate(found, c) for c in chosen]
        _prepare_analyse_out(out)
        result = analyse(
            info,
            picked or None,
            worlds=worlds,
            min_worlds=min_worlds,
            max_worlds=max_worlds,
            target_se=target_se,
            rollout=rollout,
            seed=seed,
            objective=objective,
            top=top,
            win_game=win_game,
            max_candidates=max_candidates,
        )
    _show_analysis(result, out, quiet, fmt)


def _check_analyse_source(position, address) -> None:
    """Exactly one of POSITION and --from-run."""
    if position is None and address is None:
        raise click.UsageError("give POSITION (a position file) or '--from-run RUN:DEAL[:TURN]'")
    if position is not None and address is not None:
        raise click.UsageError("give either POSITION (a position file) or '--from-run', not both")


def _check_worlds(worlds, min_worlds, max_worlds) -> None:
    """The worlds options agree: --min-worlds given with --worlds is at most --worlds (the
    race it sets is not run, so more would be a number never played), and without --worlds
    --max-worlds is at least --min-worlds."""
    ctx = click.get_current_context()
    min_given = ctx.get_parameter_source("min_worlds") != click.core.ParameterSource.DEFAULT
    if worlds is not None and min_given and min_worlds > worlds:
        raise click.BadParameter(
            f"'--min-worlds {min_worlds}' is above '--worlds {worlds}'; allowed: at most "
            f"'--worlds' (with '--worlds' every candidate plays exactly that many worlds)",
            param_hint=["--min-worlds"],
        )
    if worlds is None and max_worlds < min_worlds:
        raise click.BadParameter(
            f"'--max-worlds {max_worlds}' is below '--min-worlds {min_worlds}'; allowed: "
            f"{min_worlds:,} or more (at least '--min-worlds')",
            param_hint=["--max-worlds"],
        )


def _analysed_position(position, address, quiet, fmt):
    """The information set analysed: a run's decision (--from-run, noted unless quiet) or
    the POSITION file's."""
    from ..game.infoset import InfoSet

    if address is not None:
        from ..run.address import info_set_from_run  # (run folders: parquet, only here)

        with api_errors("--from-run"):
            info = info_set_from_run(address)
        if not quiet:
            _note(fmt, f"position: {address}, seat {info.seat} to play ({info.phase} phase)")
        return info
    if not position.is_file():
        raise click.BadParameter(f"{str(position)!r} is not a file", param_hint=["POSITION"])
    with api_errors("POSITION"):
        return InfoSet.from_file(position)


def _prepare_analyse_out(out) -> None:
    """Create --out, a new folder (analyse never overwrites), before the rollouts."""
    if out is None:
        return
    from ..run.outdir import prepare_out

    if out.exists():
        raise click.BadParameter(
            f"{str(out)!r} exists; analyse writes a new folder only: name another",
            param_hint=["--out"],
        )
    with api_errors("--out"):
        prepare_out(out, overwrite=False)


def _show_analysis(result, out, quiet, fmt) -> None:
    """Print the ranking in the chosen format and write it to --out if given."""
    from ..results.tables import json_document

    _emit(
        fmt,
        lambda: str(result),
        lambda: result.table,
        lambda: json_document(
            "analyse", {"line": result.settings, **result.meta}, candidates=result.table
        ),
    )
    if out is not None:
        result.write(out)
        if not quiet:
            _note(fmt, f"wrote {out}")


# --- review: where a bot loses points (docs/pimc.md, "Review") --------------------------------
@click.command("review")
@click.argument("run_folder", required=False, type=click.Path(path_type=Path))
@click.option(
    "--deals",
    type=COUNT,
    default=None,
    help="Deals to play and review [default: 1], or the first deals of RUN_FOLDER [default: all].",
)
@rules_options
@click.option(
    "--bots",
    default=None,
    metavar="SPEC[,SPEC...]",
    help="One bot spec for every side, or one per side [default: expert].",
)
@click.option("--seed", type=SEED, default=None, help="Master seed of the deals [default: 0].")
@click.option("--seat", type=Integer(min=0), default=0, show_default=True, help="Seat reviewed.")
@integer_option(
    "--worlds",
    Integer(1, 10_000_000),
    200,
    help="Worlds per candidate at each decision.",
)
@integer_option(
    "--rescore-worlds",
    Integer(1, 10_000_000),
    None,
    shown=False,
    help="Fresh worlds re-scoring the best candidate against the bot's choice [default: --worlds].",
)
@click.option(
    "--rollout",
    default=None,
    metavar="SPEC[,SPEC...]",
    help=f"Bots of the rollouts: {ROLLOUT_HELP} [default: the deal's own bots; for pimc, its "
    f"own rollout bot].",
)
@integer_option(
    "--analysis-seed",
    Integer(0, 2**32 - 1),
    0,
    help="Master seed of the analysis worlds.",
)
@integer_option(
    "--top",
    Integer(min=0),
    10,
    help="Decisions with the largest regret to list.",
)
@integer_option(
    "--top-candidates",
    Integer(1, 10_000),
    None,
    shown=False,
    help="Analyse at most K candidates per decision, the reviewed bot's first-ranked (its own "
    "choice always) [default: all].",
)
@integer_option(
    "--max-candidates",
    Integer(1, 10_000),
    64,
    help="The candidate layer's cap per decision (docs/analysis.md); the output says where it "
    "left meld plans out.",
)
@out_option("New folder for decisions.parquet (one row per decision), summary.csv, review.json.")
@OVERWRITE
@QUIET
@FORMAT
def review_command(
    run_folder,
    deals,
    players,
    rules_opt,
    settings,
    bots,
    seed,
    seat,
    worlds,
    rescore_worlds,
    rollout,
    analysis_seed,
    top,
    top_candidates,
    max_candidates,
    out,
    overwrite,
    quiet,
    fmt,
):
    """Analyse every decision of one seat in DEALS deals played by the bots (or in the deals
    of RUN_FOLDER) and print the regret: the best candidate's mean score difference minus
    the bot's choice's, re-scored on fresh worlds, per deal by decision type."""
    rules = _review_rules(run_folder, deals, players, rules_opt, settings, bots, seed, rollout)
    if seat >= rules.players:
        raise click.BadParameter(
            f"{seat} is not a seat; allowed: 0 to {rules.players - 1}", param_hint=["--seat"]
        )
    if rollout is not None:
        from ..search.analysis import rollout_seating

        with api_errors("--rollout"):  # a weight file of another player count, say
            rollout_seating(rollout, rules)
    target = _new_out(out, overwrite)
    from ..search.review import review

    progress = _DealProgress()
    from ..run.compiling import compile_watch

    # the deals and their analyses may compile kernels (a first use): say so
    where = "RUN_FOLDER" if run_folder is not None else None
    with compile_watch(note=not quiet), api_errors(where):
        result = review(
            None if run_folder is not None else rules,
            deals=deals,
            bots=bots or "expert",
            seed=seed or 0,
            run=run_folder,
            seat=seat,
            worlds=worlds,
            rescore_worlds=rescore_worlds,
            rollout=rollout,
            analysis_seed=analysis_seed,
            top_candidates=top_candidates,
            max_candidates=max_candidates,
            progress=None if quiet else progress.tick,
        )
    progress.close()
    _show_review(result, seat, worlds, top, max_candidates, fmt)
    if target is not None:
        _write_frames(
            target,
            {
                "decisions.parquet": result.decisions,
                "summary.csv": result.summary,
                "review.json": result.settings,
            },
        )
        _note(fmt, f"wrote {out}")


def _review_rules(run_folder, deals, players, rules_opt, settings, bots, seed, rollout):
    """The rules of the deals to review, from RUN_FOLDER or the options, with the options
    checked against them (usage errors name the option)."""
    from ..search.review import own_rollout, run_rules

    if run_folder is None:
        rules = build_rules(players, rules_opt, settings)
        seating = _bots(bots or "expert", rules)  # review's default bot
        _check_seat_files(seating, rules, "--bots")  # its weight files, a search seat's prior
        specs = [b.spec for b in seating]
        if rollout is None:  # the rollouts play the deal's own bots
            with api_errors("--bots"):
                own_rollout(specs, rules.sides)
        return rules
    given = [
        name
        for name, value in (
            ("--players", players),
            ("--set", settings or None),
            ("--bots", bots),
            ("--seed", seed),
            ("--rules", None if rules_opt == "classic" else rules_opt),
        )
        if value is not None
    ]
    if given:
        raise click.UsageError(
            f"{', '.join(given)}: RUN_FOLDER gives the deals, rules and bots; drop them"
        )
    if not run_folder.is_dir():
        raise click.BadParameter(f"{str(run_folder)!r} is not a folder", param_hint=["RUN_FOLDER"])
    with api_errors("RUN_FOLDER"):
        rules, total = run_rules(run_folder)
    if deals is not None and deals > total:
        raise click.BadParameter(
            f"{deals} deals; RUN_FOLDER holds {total:,}: allowed 1 to {total:,}",
            param_hint=["--deals"],
        )
    return rules


class _DealProgress:
    """The review's progress over deals: a bar on a terminal, started once the input is
    checked (the first call of :meth:`tick`)."""

    def __init__(self):
        self.bar = None

    def tick(self, done, total):
        if self.bar is None:
            from ..run.progress import Progress

            self.bar = Progress(total, "deal", True)
        self.bar.update(done)

    def close(self):
        if self.bar is not None:
            self.bar.close()


def _show_review(result, seat, worlds, top, max_candidates, fmt) -> None:
    """Print a review: its settings (a note), the summary and the ``top`` decisions with the
    largest regret in ``fmt``, and where the candidate cap left meld plans out."""
    from ..results.tables import json_document
    from ..search.review import cap_note, format_summary, format_top

    s = result.settings
    _note(
        fmt,
        f"review of seat {seat}: {s['deals']:,} deals, bots {', '.join(s['bots'])}, "
        f"{worlds} worlds per candidate, re-scored on {s['rescore_worlds']} fresh worlds; "
        f"regret in points per deal (score difference)",
    )
    worst = result.top(top)
    text = format_summary(result.summary)
    if top:
        text += f"\n\nlargest re-scored regret ({len(worst)} decisions):\n{format_top(worst)}"
    _emit(
        fmt,
        lambda: text,
        lambda: result.summary,
        lambda: json_document("review", s, summary=result.summary, top=worst),
    )
    note = cap_note(result.decisions, max_candidates)
    if note:
        _note(fmt, note.lstrip("\n"))
