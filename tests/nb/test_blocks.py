"""The chunk kernel's blocks: records on cache lines of their own, how many blocks a chunk is
split into, and that the split never changes a deal."""

import numpy as np

from canasta_sim import Rules
from canasta_sim.nb import play
from canasta_sim.nb.bots.memory import BOT_DTYPE
from canasta_sim.nb.engine.state import STATE_DTYPE
from canasta_sim.players.specs import side_bots
from canasta_sim.run.seating import Table, board_seeds, play_deals


def test_line_records_start_each_record_on_its_own_cache_line():
    for dtype, stride in ((STATE_DTYPE, 27 * 64), (BOT_DTYPE, 33 * 64)):
        # 1,672 and 2,088 bytes round up to 27 and 33 lines of 64 bytes
        records = play.line_records(5, dtype)
        assert records.shape == (5,)
        assert records.strides == (stride,)
        assert records.ctypes.data % 64 == 0
        for i in range(5):
            assert np.frombuffer(records[i].tobytes(), np.uint8).sum() == 0


def test_block_count_a_few_per_thread_more_for_big_chunks():
    assert play.block_count(100_000, 2) == 64  # 32 a thread: blocks of 1,562 deals
    assert play.block_count(40_000, 2) == 40  # blocks of at least 1,000 deals
    assert play.block_count(3_000, 2) == 16  # never fewer than 8 a thread
    assert play.block_count(5, 2) == 5  # never more blocks than deals
    assert play.block_count(0, 1) == 1


def _records(rules: Rules, n: int):
    table = Table(rules, (tuple(side_bots("expert", rules.sides)),))
    index = np.arange(n, dtype=np.int64)
    seeds = board_seeds(5, index)
    dealers = (index % rules.players).astype(np.int32)
    scores = np.zeros((n, rules.sides), np.int32)
    return play_deals(table, seeds, dealers, scores, np.zeros(n, np.int32))


def test_deals_do_not_depend_on_the_number_of_blocks(monkeypatch):
    rules = Rules(players=4)
    few = _records(rules, 600)  # 16 blocks on 2 threads (8 on 1)
    monkeypatch.setattr(play, "MIN_BLOCK_DEALS", 1)
    many = _records(rules, 600)  # 32 blocks a thread: about 9 deals each
    for a, b in zip(few, many):
        assert a.tobytes() == b.tobytes()
    assert few[0]["turns"].sum() > 0
