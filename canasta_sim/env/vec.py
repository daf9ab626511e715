"""The batched environment :class:`VecCanasta`: ``n_envs`` deals stepped by one kernel call.

The kernels are those of :mod:`canasta_sim.nb.vecenv`; this module checks the arguments,
makes the records, runs the blocks of environments on threads and returns dicts of arrays.
"""

from __future__ import annotations

import numpy as np

from ..errors import IllegalMove
from ..game.deals import Deal
from ..game.infoset import InfoSet
from ..game.legality import move_error
from ..game.notation import as_rules, check_int
from ..game.rules import Rules
from ..game.trace import trace_from_log
from ..nb.actions import ENV_OBS_LEN, N_ACTIONS
from ..nb.bots.features import feature_work
from ..nb.bots.memory import new_bots
from ..nb.bots.policies import LEARNED_CODES, SEARCH_CODES
from ..nb.bots.search_candidates import search_work
from ..nb.engine.rng import deal_seeds_nb
from ..nb.engine.score import score_nb
from ..nb.engine.state import STATE_DTYPE, state_view
from ..nb.enums import (
    EV_LEN,
    MAX_PLAYERS,
    MAX_SIDES,
    SC_LEN,
    DealSlot,
    EndReason,
    MoveError,
    Phase,
    ScorePart,
    SideSlot,
)
from ..nb.play import Learned, Search, run_blocks
from ..nb.vecenv import ENV_DTYPE, EnvConfig, EnvOut, EnvRecords, EnvTodo, env_block_nb
from ..nb.worlds import load_world_nb
from ..players.specs import POLICIES, PRESETS, find_policy
from ..run.address import deal_from_run
from ..run.games import game_table
from ..run.seating import check_scores
from .stepping import ACTION_NAMES


class VecCanasta:
    """``n_envs`` Canasta environments stepped together (``docs/environment.md``).

    Every seat is the learner's (multi-agent: the seat to play acts), or with ``opponents``
    only seat ``seat`` is, and the others are played inside the kernel by that bot until the
    learner is to act. Actions are the fine-grained ids (:data:`~canasta_sim.nb.enums.
    ACTION_LAYOUT`).

    Parameters
    ----------
    n_envs : int
        Environments, 1 .. 1,000,000.
    rules : Rules or str, optional
        Default ``Rules()`` (classic, 4 players); a str names a preset.
    seed : int
        Master seed (0 .. 2**64 - 1). Environment ``i``'s deal ``k`` is seeded by ``(seed, i,
        k)`` and dealt by seat ``k % players``, so batches do not depend on ``threads``.
    opponents : str, optional
        A kernel bot spec (``"random"``, ``"expert"``, ``"expert:safety=80"``,
        ``"apprentice"``, ``"greedy"``, ``"careful"``) for every seat but ``seat``; not the
        search bot (``pimc``) nor a bot written in Python. Default: no opponents.
    autoreset : bool
        Start a new episode in the step that ends one (the step returns the new episode's
        first observation; rewards and flags are the ended one's).
    scores : sequence of int, optional
        Each side's cumulative score before an episode (points): the minimum counts (R-64)
        and what the bots read; default 0.
    game : bool
        An episode is a game from ``scores`` to the target (R-55): rewards 1 for the seats
        of the side that wins, -1 for the others, at its end. Default: an episode is one deal
        and a seat's reward is its side's deal score less the best other side's (points,
        the ``score_diff`` of ``analyse``).
    seat : int
        The learner's seat when ``opponents`` is given.
    team : bool
        With ``opponents``: the learner plays every seat of ``seat``'s side (its partners
        too), the opponents the other sides.
    threads : int
        Threads to step on (1 .. 256); results do not depend on it.
    record : bool
        Keep each environment's last finished deal with its trace log (:meth:`trace`).
    copy : bool
        Return copies (default); ``False`` returns the output buffers themselves, which the
        next call overwrites (saves copying ``n_envs`` observations every step).
    start : Deal, InfoSet or str, optional
        Every episode starts at this position instead of a new deal: a ``Deal`` (as it
        stands, the same every episode); an ``InfoSet`` (environment ``i`` starts every
        episode in world ``i`` of ``info_set.sample_worlds(n_envs, seed)``: the hidden cards
        filled in exactly); or a run address ``RUN_FOLDER:DEAL[:TURN[:DECISION]]`` (that
        deal of the run replayed to the decision, docs/analysis.md). Its rules are the
        environment's.

    Raises
    ------
    ValueError
        For an argument out of range, a bad bot spec, or the search bot or a Python bot as
        opponent.
    """

    def __init__(
        self,
        n_envs: int,
        rules: Rules | str | None = None,
        *,
        seed: int = 0,
        opponents: str | None = None,
        autoreset: bool = True,
        scores=None,
        game: bool = False,
        seat: int = 0,
        team: bool = False,
        threads: int = 1,
        record: bool = False,
        copy: bool = True,
        start: Deal | InfoSet | str | None = None,
    ):
        check_int("n_envs", n_envs, 1, 1_000_000)
        check_int("seed", seed, 0, 2**64 - 1)
        check_int("threads", threads, 1, 256)
        start, self.rules = _start_and_rules(start, rules)
        check_int("seat", seat, 0, self.rules.players - 1)
        self.n_envs, self.seed, self.threads = n_envs, seed, threads
        self.opponents, self.seat, self.game, self.autoreset = opponents, seat, game, autoreset
        self.players = self.rules.players
        self.copy = copy
        if opponents is not None:
            _check_opponents(opponents)
        table = game_table(self.rules, opponents or "random", scores=scores)
        policies = table.policies[0]
        learner = _learner_seats(self.rules, opponents, seat, team)
        first_scores = np.zeros(MAX_SIDES, np.int64)
        first_scores[: self.rules.sides] = check_scores(scores, self.rules)
        self._cfg = EnvConfig(
            rules=table.rules_array,
            masters=deal_seeds_nb(np.uint64(seed), np.int64(0), np.int64(n_envs)),
            learner=learner,
            policies=np.ascontiguousarray(policies, np.int32),
            params=np.ascontiguousarray(table.params[0]),
            flags=np.array([int(game), int(autoreset)], np.int64),
            start_scores=first_scores,
            starts=_starts(start, n_envs, seed, table.rules_array),
        )
        self._blocks = max(1, min(n_envs, 8 * threads))
        learns = bool(np.isin(policies[learner == 0], LEARNED_CODES).any())
        self._search = Search(*search_work(2 * self._blocks if learns else 0))
        self._learned = Learned(table.weights, feature_work(self._blocks if learns else 0))
        self._rec = _records(n_envs, self._blocks, self.rules.max_turns, record)
        self._out = _outputs(n_envs)
        self._no_actions = np.zeros(n_envs, np.int64)
        self._ready = False
        self._history = _history(start)

    # --- the batch -----------------------------------------------------------------------------
    def reset(self, seed: int | None = None) -> dict[str, np.ndarray]:
        """Start a new episode in every environment (with ``seed``: from a new master seed,
        as if built with it).

        Returns
        -------
        dict
            ``observation`` ``ndarray(int32, (n_envs, ENV_OBS_LEN))``: what the seat to play
            knows (docs/observation.md, then its staged cards); ``legal_action_mask``
            ``ndarray(bool, (n_envs, N_ACTIONS))``; ``current_player`` ``ndarray(int32,
            (n_envs,))``. Copies unless built with ``copy=False``.
        """
        if seed is not None:
            check_int("seed", seed, 0, 2**64 - 1)
            self.seed = seed
            masters = deal_seeds_nb(np.uint64(seed), np.int64(0), np.int64(self.n_envs))
            self._cfg.masters[:] = masters
            self._rec.envs["ctl"][:] = 0
        self._run(np.full(self.n_envs, EnvTodo.reset, np.int8), self._no_actions)
        self._ready = True
        return self._result(False)

    def step(self, actions) -> dict:
        """Take one action in every environment, for its seat to play.

        Parameters
        ----------
        actions : array_like of int, shape (n_envs,)
            Fine-grained action ids (0 .. N_ACTIONS - 1).

        Returns
        -------
        dict
            The keys of :meth:`reset`, plus ``rewards`` ``ndarray(float64, (n_envs,
            players))`` (per seat, given when an episode ends), ``terminated`` and
            ``truncated`` ``ndarray(bool, (n_envs,))`` (truncated: a deal ended by the turn
            limit, R-47, or a turn of more than MAX_TURN_ACTIONS actions) and ``info``: a
            dict of ``end_reason`` ``ndarray(int32, (n_envs,))`` (EndReason of a deal that
            ended in this step, 0 for none) and ``deal_scores`` ``ndarray(int32, (n_envs,
            sides))`` (its scores, points).

        Raises
        ------
        RuntimeError
            Before :meth:`reset`, or for an ended episode without ``autoreset``.
        ValueError
            For actions of the wrong shape or out of range.
        IllegalMove
            For an action the mask refuses; the message names the first such environment,
            its action and the rule. Every action is checked against the masks first, so
            after the error no environment has stepped (a corrected retry steps once).
        """
        if not self._ready:
            raise RuntimeError("call reset() before step()")
        acts = np.asarray(actions)
        if acts.shape != (self.n_envs,) or not np.issubdtype(acts.dtype, np.integer):
            raise ValueError(
                f"actions of shape {acts.shape} and dtype {acts.dtype}; allowed: "
                f"({self.n_envs},) integers"
            )
        if acts.size and (acts.min() < 0 or acts.max() >= N_ACTIONS):
            bad = int(acts[(acts < 0) | (acts >= N_ACTIONS)][0])
            raise ValueError(f"action {bad} out of range; allowed: ids 0 .. {N_ACTIONS - 1}")
        acts = acts.astype(np.int64, copy=False)
        refused = ~self._out.mask[np.arange(self.n_envs), acts]
        if refused.any():
            self._raise(int(np.flatnonzero(refused)[0]), acts)
        self._run(np.full(self.n_envs, EnvTodo.step, np.int8), acts)
        return self._result(True)

    # --- traces --------------------------------------------------------------------------------
    def trace(self, env: int) -> list[dict]:
        """The trace (docs/trace.md) of environment ``env``'s last finished deal, which the
        referee (``canasta_sim.referee.check_trace``) and ``save_trace`` take.

        A deal from a ``start`` Deal begins with that deal's events up to the start (from its
        deck, as the referee replays it), then the episode's.

        Raises
        ------
        ValueError
            Without ``record=True``, for ``env`` out of range, before a deal has ended, or for
            a start position with no events from a deck to begin the trace with (an
            ``InfoSet``, ``Deal.from_position``, a Deal built without ``trace=True``).
        """
        check_int("env", env, 0, self.n_envs - 1)
        rec = self._rec
        if rec.done_states.shape[0] == 0:
            raise ValueError("this environment records no trace; build it with record=True")
        state = rec.done_states[env]
        view = state_view(state, self._cfg.rules)
        if int(view.g[DealSlot.end]) == EndReason.none:
            raise ValueError(f"environment {env} has no finished deal yet")
        seed, log = self.seed, rec.done_logs[env]
        if self._cfg.starts.shape[0]:
            if self._history is None:
                raise ValueError(
                    "the start position has no events from a deck, so a trace of its deals "
                    "cannot begin at the deck as the referee needs; allowed: a start Deal "
                    "played from its deck with trace=True (Deal.new(..., trace=True), a run "
                    "address)"
                )
            seed, events = self._history
            log = log.copy()
            log[: len(events)] = events  # the kernel logs the episode's events after them
        parts = np.zeros((self.rules.sides, SC_LEN), np.int32)
        score_nb(state, self._cfg.rules, parts)
        scores = {
            s: dict(zip(ScorePart._fields, (int(v) for v in parts[s])))
            for s in range(self.rules.sides)
        }
        # the deal's own minimum counts: in a game, env's are already the next deal's
        minimums = view.sides[:, SideSlot.minimum]
        return trace_from_log(self.rules, seed, view, log, minimums, scores)

    # --- internals -----------------------------------------------------------------------------
    def _run(self, todo: np.ndarray, actions: np.ndarray) -> None:
        cfg, rec, out = self._cfg, self._rec, self._out
        total = np.int64(self._blocks)

        def block(b):
            env_block_nb(
                np.int64(b), total, todo, actions, cfg, rec, self._search, self._learned, out
            )

        run_blocks(block, self._blocks, self.threads)

    def _result(self, stepped: bool) -> dict:
        out = self._out
        take = np.copy if self.copy else np.asarray
        result: dict = {
            "observation": take(out.obs),
            "legal_action_mask": take(out.mask),
            "current_player": take(out.current),
        }
        if stepped:
            result["rewards"] = take(out.rewards[:, : self.players])
            result["terminated"] = take(out.terminated)
            result["truncated"] = take(out.truncated)
            result["info"] = {
                "end_reason": take(out.end_reason),
                "deal_scores": take(out.deal_scores[:, : self.rules.sides]),
            }
        return result

    def _raise(self, i: int, actions: np.ndarray) -> None:
        """Raise the error of environment ``i``'s refused action: the move kernel checks it
        alone (refused, its state stays as it is; every other environment is skipped)."""
        a = int(actions[i])
        if not self.autoreset and self._over(i):
            raise RuntimeError(
                f"environment {i}'s episode has ended; call reset() (autoreset=False)"
            )
        todo = np.full(self.n_envs, EnvTodo.skip, np.int8)
        todo[i] = EnvTodo.step
        self._run(todo, actions)
        code = int(self._out.errors[i])
        if code == MoveError.ok:  # the mask and the move checks disagree: a kernel bug
            raise RuntimeError(f"environment {i}: action {a} stepped although its mask refused it")
        err = move_error(code, state_view(self._rec.states[i], self._cfg.rules), self.rules)
        raise IllegalMove(
            err.rule, f"environment {i}, action {a} ({ACTION_NAMES[a]}): {err.detail}"
        )

    def _over(self, i: int) -> bool:
        return int(self._rec.states[i]["g"][DealSlot.phase]) == Phase.over


def _start_and_rules(start, rules) -> tuple[Deal | InfoSet | None, Rules]:
    """The start position (a run address replayed to its Deal) and the environment's rules:
    ``rules``, or with ``rules=None`` the position's.

    Raises
    ------
    ValueError
        For a start that is not None, a Deal, an InfoSet or a run address, or a position
        played under other rules than ``rules``.
    """
    if isinstance(start, str):
        start, _bots = deal_from_run(start)
    if start is not None and not isinstance(start, (Deal, InfoSet)):
        raise ValueError(
            f"start={start!r}: allowed: None (new deals), a Deal, an InfoSet or a run address "
            "'RUN_FOLDER:DEAL[:TURN[:DECISION]]'"
        )
    given = start is not None and rules is None
    rules = start.rules if given else as_rules(rules)  # type: ignore[union-attr]
    if start is not None and start.rules != rules:
        raise ValueError(
            "the start position is played under other rules than rules=; allowed: "
            "rules=None (the position's rules) or the same rules"
        )
    return start, rules


def _learner_seats(rules: Rules, opponents: str | None, seat: int, team: bool) -> np.ndarray:
    """``int8 (players,)``: 1 for the seats the learner plays (all without opponents; with
    them ``seat``, or with ``team`` every seat of its side), 0 for the opponents'."""
    learner = np.zeros(rules.players, np.int8)
    if opponents is None:
        learner[:] = 1
    elif team:
        learner[seat % rules.sides :: rules.sides] = 1
    else:
        learner[seat] = 1
    return learner


def _records(n_envs: int, blocks: int, max_turns: int, record: bool) -> EnvRecords:
    """The kernel's per-environment states, bot memories and event logs; with ``record``
    room for each environment's last finished deal and its log."""
    rows = 30 * max_turns + 1000 if record else 0
    kept = n_envs if record else 0
    return EnvRecords(
        states=np.zeros(n_envs, STATE_DTYPE),
        scratch=np.zeros(n_envs, STATE_DTYPE),
        envs=np.zeros(n_envs, ENV_DTYPE),
        bots=new_bots(blocks),
        logs=np.zeros((n_envs, rows, EV_LEN), np.int32),
        no_log=np.zeros((0, EV_LEN), np.int32),
        done_states=np.zeros(kept, STATE_DTYPE),
        done_logs=np.zeros((kept, rows, EV_LEN), np.int32),
    )


def _outputs(n_envs: int) -> EnvOut:
    """The buffers one kernel call writes its results to (what ``copy=False`` returns)."""
    return EnvOut(
        obs=np.zeros((n_envs, ENV_OBS_LEN), np.int32),
        mask=np.zeros((n_envs, N_ACTIONS), np.bool_),
        current=np.zeros(n_envs, np.int32),
        rewards=np.zeros((n_envs, MAX_PLAYERS), np.float64),
        terminated=np.zeros(n_envs, np.bool_),
        truncated=np.zeros(n_envs, np.bool_),
        end_reason=np.zeros(n_envs, np.int32),
        deal_scores=np.zeros((n_envs, MAX_SIDES), np.int32),
        errors=np.zeros(n_envs, np.int32),
    )


def _starts(start, n_envs: int, seed: int, rules: np.ndarray) -> np.ndarray:
    """The states episodes start from: none (new deals), the deal's, or one world per
    environment of the information set."""
    if start is None:
        return np.zeros(0, STATE_DTYPE)
    if isinstance(start, Deal):
        if start.is_over:
            raise ValueError("the start position's deal is over; allowed: a deal in progress")
        return np.array([start.state], STATE_DTYPE)
    worlds = start.sample_worlds(n_envs, seed)
    public = start.public_state()
    states = np.zeros(n_envs, STATE_DTYPE)
    for i in range(n_envs):
        load_world_nb(
            states[i], public, rules, worlds.hands[i], worlds.stock[i], worlds.seeds[i], 0
        )
    return states


def _history(start) -> tuple[int, np.ndarray] | None:
    """The seed and event log rows of a start Deal played from its deck with a trace (what
    its episodes' traces begin with), else ``None``."""
    if not isinstance(start, Deal) or start.event_log.shape[0] == 0:
        return None
    seed = start.trace()[0]["seed"]
    return seed, start.event_log[: int(start.view.g[DealSlot.n_events])].copy()


def _check_opponents(spec: str) -> None:
    """The opponents must be a bot the environment's kernel plays: a kernel policy or a
    preset of one, not the search bot nor a bot written in Python (their parameters are
    checked when the spec is parsed)."""
    names = (*POLICIES, *PRESETS)
    allowed = [n for n in names if (p := find_policy(n)) and p.code not in SEARCH_CODES]
    name = spec.strip().partition(":")[0].strip().lower() if isinstance(spec, str) else spec
    if name not in allowed:
        raise ValueError(
            f"opponents {spec!r}: not a bot the environment's kernel plays (the search bot "
            f"and bots written in Python cannot); allowed: {', '.join(allowed)} (with "
            f"parameters, e.g. 'expert:safety=80')"
        )
