"""canasta_sim: high-throughput, rule-exact Canasta simulation.

The rule book is RULES.md (rule ids R-xx); the kernels live in :mod:`canasta_sim.nb`.
"""

from . import pybot as pybot  # noqa: E402  (registers Deal.python_seating)
from ._version import BOTS_VERSION, RULES_VERSION, __version__  # noqa: E402
from .address import deal_from_run, info_set_from_run  # noqa: E402
from .analysis import AnalysisResult, analyse  # noqa: E402
from .cards import KINDS, N_KINDS, format_cards, parse_cards  # noqa: E402
from .compare import compare, sweep  # noqa: E402
from .deal import Deal, is_legal_meld, minimum_count, trace_deal  # noqa: E402
from .errors import IllegalMove  # noqa: E402
from .games import GamesResult, play_games  # noqa: E402
from .infoset import InfoSet, Worlds  # noqa: E402
from .observation import Observation  # noqa: E402
from .review import ReviewResult, review  # noqa: E402
from .rules import Rules  # noqa: E402
from .simulate import SimulationResult, simulate  # noqa: E402
from .tune import TuneResult, tune  # noqa: E402

__all__ = [
    "AnalysisResult",
    "KINDS",
    "N_KINDS",
    "Deal",
    "GamesResult",
    "IllegalMove",
    "InfoSet",
    "Observation",
    "ReviewResult",
    "Rules",
    "SimulationResult",
    "TuneResult",
    "Worlds",
    "analyse",
    "compare",
    "deal_from_run",
    "format_cards",
    "info_set_from_run",
    "is_legal_meld",
    "minimum_count",
    "parse_cards",
    "review",
    "play_games",
    "simulate",
    "sweep",
    "trace_deal",
    "tune",
    "__version__",
    "RULES_VERSION",
    "BOTS_VERSION",
]
