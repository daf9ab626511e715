"""canasta_sim: high-throughput, rule-exact Canasta simulation.

The rule book is RULES.md (rule ids R-xx); the kernels live in :mod:`canasta_sim.nb`.
"""

from .cards import KINDS, N_KINDS, format_cards, parse_cards
from .deal import Deal, is_legal_meld, minimum_count
from .errors import IllegalMove
from .rules import Rules

__version__ = "0.1.0"

__all__ = [
    "KINDS", "N_KINDS", "Deal", "IllegalMove", "Rules", "format_cards", "is_legal_meld",
    "minimum_count", "parse_cards", "__version__",
]
