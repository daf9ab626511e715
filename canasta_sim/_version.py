"""Versions, in one place: the package's, and the behaviour versions that results carry.

``RULES_VERSION`` changes when the engine's rules change what a deal does; ``BOTS_VERSION``
when a bot decides differently. Each bump goes with regenerated goldens
(``tests/data/goldens.json``) and a line in ``CHANGELOG.md``.
"""

__version__ = "0.2.0"
RULES_VERSION = 2
BOTS_VERSION = 12
