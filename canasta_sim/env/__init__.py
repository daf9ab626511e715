"""A batched learning environment over the kernels (issue 27, ``docs/environment.md``).

- :mod:`.stepping`: the fine-grained action ids, their names, and :class:`ActionDeal`, one
  deal played by ids.
- :mod:`.vec`: :class:`VecCanasta`, many environments stepped by one kernel call, with the
  other seats played inside it by a kernel bot.
- :mod:`.evaluation`: :func:`~.evaluation.evaluate`, a policy against a built-in bot on
  seat-rotated duplicate deals.
- :mod:`.macro`: :class:`~.macro.MacroDeal`, a deal played by the candidate layer's
  candidates (64 macro ids with a mask), each made of fine-grained ids.
- :mod:`.gym_env` and :mod:`.pettingzoo_env` (the ``env`` extra): Gymnasium's ``Env`` and
  ``VectorEnv``, PettingZoo's AEC environment ``canasta_v0``; :mod:`.spiel` (the
  ``openspiel`` extra): the OpenSpiel game ``python_canasta``. Imported by name, not here.
"""

from .stepping import ACTION_NAMES, ActionDeal, action_id
from .vec import VecCanasta

__all__ = ["ACTION_NAMES", "ActionDeal", "VecCanasta", "action_id"]
