"""The batched learning environment's kernels: many environments stepped in one call.

Each environment is one deal state (:data:`~.engine.state.STATE_DTYPE`), a scratch state, a
bots' working record and one record of :data:`ENV_DTYPE` (the staged cards, the pickup plan,
its counters :data:`EnvSlot` and, in a game, the sides' cumulative scores). One
call of :func:`env_block_nb` per block of environments takes the learner's action in each
(or starts a new episode), then plays the seats that are not the learner's with their kernel
policies (:func:`.bots.turn.learned_turn_nb`: every policy but the search bot) until a
learner seat is to act or the episode ends, scores a finished deal, starts the next deal of a
game or the next episode (autoreset), and writes the observation and the legal-action mask.

Deal ``k`` of environment ``i`` is seeded by ``(masters[i], k)`` (:func:`.engine.rng.deal_seed_nb`)
and dealt by seat ``k % players``; nothing depends on the block or thread, so a batch is the
same on any number of threads.
"""

from typing import NamedTuple

import numba as nb
import numpy as np

from .actions import action_mask_nb, apply_action_nb, clear_staged_nb, env_observe_nb
from .bots.turn import learned_turn_nb
from .engine.deal import start_deal_nb
from .engine.melds import minimum_count_nb
from .engine.rng import deal_seed_nb
from .engine.score import side_score_nb
from .engine.state import copy_state_nb
from .enums import MAX_SIDES, N_KINDS, DealSlot, EndReason, MoveError, Phase, RuleSlot, SideSlot
from .jit import inline_kernel

#: Actions one player may take in one turn before the episode is truncated (staging and
#: unstaging can go on for ever; uniformly random masked play takes about 40 actions a turn
#: and rarely over 300).
MAX_TURN_ACTIONS = 1000


class _EnvSlot(NamedTuple):
    deals: int = 0  # deals started by this environment (deal k is seeded by (master, k))
    episodes: int = 1  # episodes started
    episode_deals: int = 2  # deals started in the running episode (a game has several)
    turn_actions: int = 3  # actions of the seat to play in this turn


#: Slots of an environment's counters (``ctl`` of :data:`ENV_DTYPE`).
EnvSlot = _EnvSlot()
ENV_CTL_LEN = len(EnvSlot)


class _EnvTodo(NamedTuple):
    skip: int = -1  # leave the environment as it is
    step: int = 0  # take the given action
    reset: int = 1  # start a new episode


#: What the batched step does with each environment (``todo[i]``).
EnvTodo = _EnvTodo()

#: One environment's own record (see the module docstring).
ENV_DTYPE = np.dtype(
    [
        ("staged", np.int8, (N_KINDS, 3)),
        ("plan", np.int8, (N_KINDS, 3)),
        ("ctl", np.int64, (ENV_CTL_LEN,)),
        ("scores", np.int64, (MAX_SIDES,)),  # cumulative scores before the running deal
        ("minimums", np.int32, (MAX_SIDES,)),  # minimum counts of the running deal, R-64
    ],
    align=True,
)


class EnvConfig(NamedTuple):
    """What every environment of a batch shares (read only)."""

    rules: np.ndarray  # int32, (RULES_LEN,)
    masters: np.ndarray  # uint64, (n_envs,): each environment's master seed
    learner: np.ndarray  # int8, (players,): 1 for a seat the caller plays
    policies: np.ndarray  # int32, (players,): the other seats' policy codes
    params: np.ndarray  # float64, (players, N_PARAMS)
    flags: np.ndarray  # int64, (2,): game (1: an episode is a game, R-55), autoreset
    start_scores: np.ndarray  # int64, (MAX_SIDES,): cumulative scores an episode starts from
    starts: np.ndarray  # STATE_DTYPE, (m,): positions episodes start from (m = 0: new deals)


class EnvRecords(NamedTuple):
    """Each environment's records (changed in place)."""

    states: np.ndarray  # STATE_DTYPE, (n_envs,)
    scratch: np.ndarray  # STATE_DTYPE, (n_envs,)
    envs: np.ndarray  # ENV_DTYPE, (n_envs,)
    bots: np.ndarray  # BOT_DTYPE, (n_blocks,): one working record per block
    logs: np.ndarray  # int32, (n_envs, rows, EV_LEN): trace logs (rows = 0: none)
    no_log: np.ndarray  # int32, (0, EV_LEN)
    # with trace logs: each environment's last finished deal and its log, (n_envs,) and
    # (n_envs, rows, EV_LEN); else (0,) and (0, 0, EV_LEN)
    done_states: np.ndarray
    done_logs: np.ndarray


class EnvOut(NamedTuple):
    """What a call writes per environment."""

    obs: np.ndarray  # int32, (n_envs, ENV_OBS_LEN): the seat to play's observation
    mask: np.ndarray  # bool, (n_envs, N_ACTIONS): its legal actions
    current: np.ndarray  # int32, (n_envs,): the seat to play
    rewards: np.ndarray  # float64, (n_envs, MAX_PLAYERS): per seat
    terminated: np.ndarray  # bool, (n_envs,)
    truncated: np.ndarray  # bool, (n_envs,)
    end_reason: np.ndarray  # int32, (n_envs,): EndReason of a deal that ended in this call
    deal_scores: np.ndarray  # int32, (n_envs, MAX_SIDES): its scores (points)
    errors: np.ndarray  # int32, (n_envs,): MoveError of a refused action (state unchanged)


@inline_kernel
def start_deal_env_nb(i, cfg, state, env, log):
    """Start environment ``i``'s next deal: a new shuffle (seeded by its deal count and
    master seed, the dealer rotating) or its next start position; the minimum counts and
    the scores the seats read come from ``env.scores``."""
    rules = cfg.rules
    ctl = env.ctl
    k = ctl[EnvSlot.deals]
    ctl[EnvSlot.deals] = k + 1
    ctl[EnvSlot.episode_deals] += 1
    ctl[EnvSlot.turn_actions] = 0
    clear_staged_nb(env.staged)
    n_sides = rules[RuleSlot.sides]
    for s in range(n_sides):
        env.minimums[s] = minimum_count_nb(env.scores[s], rules)
    m = cfg.starts.shape[0]
    if m > 0:
        copy_state_nb(state, cfg.starts[(i + k * cfg.masters.shape[0]) % m])
        return
    seed = deal_seed_nb(cfg.masters[i], np.int64(k))
    dealer = np.int32(k % rules[RuleSlot.players])  # the chunk kernel's type: one compile
    start_deal_nb(state, rules, seed, dealer, env.minimums[:], log)
    for s in range(n_sides):
        state.sides[s, SideSlot.score] = env.scores[s]


@inline_kernel
def new_episode_nb(i, cfg, state, env, log):
    env.ctl[EnvSlot.episodes] += 1
    env.ctl[EnvSlot.episode_deals] = 0
    for s in range(MAX_SIDES):
        env.scores[s] = cfg.start_scores[s]
    start_deal_env_nb(i, cfg, state, env, log)


@inline_kernel
def play_others_nb(cfg, state, bot, search, learned, block, log):
    """Play the seats that are not the learner's until a learner seat is to act or the deal
    is over."""
    g = state.g
    while g[DealSlot.phase] != Phase.over and cfg.learner[g[DealSlot.current]] == 0:
        learned_turn_nb(
            state, cfg.rules, bot, cfg.policies, cfg.params, search, learned, block, log
        )


@inline_kernel
def deal_over_nb(i, cfg, state, env, out):
    """Score environment ``i``'s finished deal into ``out`` and decide the episode: the
    rewards (per seat: its side's deal score less the best other side's, points; in a game,
    at its end, 1 for the winning side's seats and -1 for the others, R-55), terminated or
    truncated (a deal ended by the turn limit, R-47). Returns True when a game goes on."""
    rules = cfg.rules
    n_sides = rules[RuleSlot.sides]
    end = state.g[DealSlot.end]
    out.end_reason[i] = end
    for s in range(n_sides):
        out.deal_scores[i, s] = side_score_nb(state, rules, s)[5]
    if cfg.flags[0] != 0:
        best = -(1 << 40)
        ties = 0
        for s in range(n_sides):
            env.scores[s] += out.deal_scores[i, s]
            if env.scores[s] > best:
                best, ties = env.scores[s], 1
            elif env.scores[s] == best:
                ties += 1
        if best < rules[RuleSlot.game_target] or ties > 1:
            return True
        for p in range(rules[RuleSlot.players]):
            won = env.scores[rules[RuleSlot.side_of + p]] == best
            out.rewards[i, p] = 1.0 if won else -1.0
        out.terminated[i] = True
        return False
    for p in range(rules[RuleSlot.players]):
        own = rules[RuleSlot.side_of + p]
        other = -(1 << 40)
        for s in range(n_sides):
            if s != own and out.deal_scores[i, s] > other:
                other = out.deal_scores[i, s]
        out.rewards[i, p] = out.deal_scores[i, own] - other
    if end == EndReason.turn_limit:
        out.truncated[i] = True
    else:
        out.terminated[i] = True
    return False


@inline_kernel
def env_one_nb(i, todo, action, cfg, rec, search, learned, block, out):
    """One environment's part of :func:`env_block_nb`."""
    state, env = rec.states[i], rec.envs[i]
    bot = rec.bots[block]
    log = rec.logs[i]
    g = state.g
    out.terminated[i] = False
    out.truncated[i] = False
    out.end_reason[i] = EndReason.none
    out.errors[i] = MoveError.ok
    for p in range(out.rewards.shape[1]):
        out.rewards[i, p] = 0.0
    for s in range(MAX_SIDES):
        out.deal_scores[i, s] = 0
    if todo == EnvTodo.reset:
        new_episode_nb(i, cfg, state, env, log)
    elif g[DealSlot.phase] == Phase.over:
        out.errors[i] = MoveError.phase  # an ended episode (no autoreset) needs a reset
        return
    else:
        turn = g[DealSlot.turn]
        staged, plan = env.staged[:], env.plan[:]  # plain C arrays, as the Python callers pass
        err = apply_action_nb(state, cfg.rules, staged, rec.scratch[i], plan, action, log)
        if err != MoveError.ok:
            out.errors[i] = err
            return
        ctl = env.ctl
        ctl[EnvSlot.turn_actions] = ctl[EnvSlot.turn_actions] + 1 if g[DealSlot.turn] == turn else 0
    while True:
        play_others_nb(cfg, state, bot, search, learned, block, log)
        if g[DealSlot.phase] != Phase.over:
            if env.ctl[EnvSlot.turn_actions] >= MAX_TURN_ACTIONS:
                out.truncated[i] = True
            break
        if rec.done_states.shape[0] > 0:
            keep_deal_nb(state, log, rec.done_states[i], rec.done_logs[i])
        if not deal_over_nb(i, cfg, state, env, out):
            break
        start_deal_env_nb(i, cfg, state, env, log)
    if (out.terminated[i] or out.truncated[i]) and cfg.flags[1] != 0:
        new_episode_nb(i, cfg, state, env, log)
        play_others_nb(cfg, state, bot, search, learned, block, log)


@inline_kernel
def keep_deal_nb(state, log, done_state, done_log):
    """Keep a finished deal and its trace log (the next deal overwrites the running ones)."""
    copy_state_nb(done_state, state)
    for r in range(min(state.g[DealSlot.n_events], log.shape[0])):
        for c in range(log.shape[1]):
            done_log[r, c] = log[r, c]


@inline_kernel
def env_write_nb(i, cfg, rec, out):
    """The observation, mask and seat to play of environment ``i`` into ``out``."""
    state, env = rec.states[i], rec.envs[i]
    seat = state.g[DealSlot.current]
    out.current[i] = seat
    staged, plan = env.staged[:], env.plan[:]  # plain C arrays, as the Python callers pass
    env_observe_nb(state, cfg.rules, staged, seat, out.obs[i])
    action_mask_nb(state, cfg.rules, staged, rec.scratch[i], plan, rec.no_log, out.mask[i])


@nb.njit(cache=True, _nrt=False, nogil=True)
def env_block_nb(block, n_blocks, todo, actions, cfg, rec, search, learned, out):
    """Step, reset or skip each environment of block ``block`` of ``n_blocks`` (consecutive
    environments) as ``todo`` says (:data:`EnvTodo`), with the learner's ``actions``
    (``int64[n_envs]``); ``search`` and ``learned`` are the learned bot's work arrays
    (:class:`.play.Search`, :class:`.play.Learned`, used at index ``block``). Writes ``out``
    (:class:`EnvOut`) for every environment not skipped. Releases the GIL, so blocks run in
    parallel threads."""
    n = todo.shape[0]
    for i in range(block * n // n_blocks, (block + 1) * n // n_blocks):
        if todo[i] == EnvTodo.skip:
            continue
        env_one_nb(i, todo[i], actions[i], cfg, rec, search, learned, block, out)
        env_write_nb(i, cfg, rec, out)
