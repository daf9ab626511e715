"""A batched learning environment over the kernels (issue 27, ``docs/environment.md``).

- :mod:`.stepping`: the fine-grained action ids, their names, and :class:`ActionDeal`, one
  deal played by ids.
"""

from .stepping import ACTION_NAMES, ActionDeal, action_id

__all__ = ["ACTION_NAMES", "ActionDeal", "action_id"]
