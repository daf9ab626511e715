"""canasta_sim: high-throughput, rule-exact Canasta simulation.

The rule book is RULES.md (rule ids R-xx); the kernels live in :mod:`canasta_sim.nb`.

The public names are imported on first use (:data:`_HOMES`), so a command imports only the
modules it uses: ``canasta-sim analyse`` does not load the comparison, statistics (scipy),
review or tuning modules.
"""

from __future__ import annotations

import sys
import types
from importlib import import_module
from typing import TYPE_CHECKING

from . import _moved
from ._version import BOTS_VERSION, RULES_VERSION, __version__

if TYPE_CHECKING:  # what the names of _HOMES are, for type checkers (F401: used lazily)
    from .cards import KINDS, N_KINDS, format_cards, parse_cards  # noqa: F401
    from .errors import IllegalMove  # noqa: F401
    from .game.deals import Deal, trace_deal  # noqa: F401
    from .game.infoset import InfoSet, Worlds  # noqa: F401
    from .game.notation import is_legal_meld, minimum_count  # noqa: F401
    from .game.observe import Observation  # noqa: F401
    from .game.rules import Rules  # noqa: F401
    from .run.address import deal_from_run, info_set_from_run  # noqa: F401
    from .run.compare import compare, sweep  # noqa: F401
    from .run.games import GamesResult, play_games  # noqa: F401
    from .run.simulate import SimulationResult, simulate  # noqa: F401
    from .search.analysis import AnalysisResult, analyse  # noqa: F401
    from .search.review import ReviewResult, review  # noqa: F401
    from .search.tune import TuneResult, tune  # noqa: F401

#: The module of this package that defines each public name.
_HOMES = {
    "deal_from_run": "run.address",
    "info_set_from_run": "run.address",
    "AnalysisResult": "search.analysis",
    "analyse": "search.analysis",
    "KINDS": "cards",
    "N_KINDS": "cards",
    "format_cards": "cards",
    "parse_cards": "cards",
    "compare": "run.compare",
    "sweep": "run.compare",
    "Deal": "game.deals",
    "is_legal_meld": "game.notation",
    "minimum_count": "game.notation",
    "trace_deal": "game.deals",
    "IllegalMove": "errors",
    "GamesResult": "run.games",
    "play_games": "run.games",
    "InfoSet": "game.infoset",
    "Worlds": "game.infoset",
    "Observation": "game.observe",
    "ReviewResult": "search.review",
    "review": "search.review",
    "Rules": "game.rules",
    "SimulationResult": "run.simulate",
    "simulate": "run.simulate",
    "TuneResult": "search.tune",
    "tune": "search.tune",
}

__all__ = [*_HOMES, "__version__", "RULES_VERSION", "BOTS_VERSION"]


class _Package(types.ModuleType):
    """This package's module type: a public name is imported from its module on first use;
    importing a submodule of the same name (``canasta_sim.simulate``) leaves the public name
    (the function ``simulate``) in place, as an eager import of it did."""

    def __getattr__(self, name: str):
        home = _HOMES.get(name)
        if home is None and name in _moved.MOVED:  # an old module path: with its warning
            return import_module(f"{self.__name__}.{name}")
        if home is None:
            raise AttributeError(f"module {self.__name__!r} has no attribute {name!r}")
        value = getattr(import_module(f"{self.__name__}.{home}"), name)
        super().__setattr__(name, value)
        return value

    def __setattr__(self, name: str, value) -> None:
        if name in _HOMES and isinstance(value, types.ModuleType):
            return  # the import system binding a submodule: the public name wins
        super().__setattr__(name, value)

    def __dir__(self) -> list[str]:
        return sorted({*super().__dir__(), *_HOMES})


sys.modules[__name__].__class__ = _Package
_moved.install(__name__)  # the flat package's module paths still import, with a warning
