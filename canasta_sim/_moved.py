"""The module paths of the flat package (before the subpackages), still importable.

Until version 0.x the package was flat (``canasta_sim.deal``, ``canasta_sim.candidates``, ...);
its modules now live in subpackages by purpose (docs/architecture.md). Code written against
the old paths keeps working: importing one (``import canasta_sim.candidates`` or
``from canasta_sim.candidates import Candidate``) warns with a :class:`DeprecationWarning`
naming the new path and gives the module at its new path (the same module object, so its
names, classes and functions are the same ones). Run folders name no module, so old run
folders read the same either way.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import warnings

#: Old module (below ``canasta_sim.``) -> its path now (below ``canasta_sim.``).
MOVED = {
    "address": "run.address",
    "aggregate": "results.aggregate",
    "analysis": "search.analysis",
    "bots": "players.specs",
    "candidates": "players.choices",
    "cluster": "run.cluster",
    "compare": "run.compare",
    "deal": "game.deals",
    "equity": "search.equity",
    "games": "run.games",
    "grid": "run.study",
    "infoset": "game.infoset",
    "merge": "run.merge",
    "notation": "game.notation",
    "observation": "game.observe",
    "outdir": "run.outdir",
    "positions": "game.positions",
    "pybot": "players.pybot",
    "ranking": "players.ranking",
    "records": "results.records",
    "replay": "run.address",
    "report": "results.report",
    "review": "search.review",
    "rules": "game.rules",
    "runner": "run.runner",
    "simulate": "run.simulate",
    "stats": "results.stats",
    "studies": "results.study_stats",
    "tables": "results.tables",
    "trace": "game.trace",
    "tune": "search.tune",
    "verify": "run.verify",
    "weights": "players.weights",
}


class _Alias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds ``canasta_sim.OLD`` for every OLD of :data:`MOVED` and loads it as the module at
    its new path: the import system then keeps that module under the old name too."""

    def __init__(self, package: str) -> None:
        self.package = package

    def find_spec(self, fullname, path=None, target=None):
        head, _, old = fullname.partition(".")
        if head != self.package or old not in MOVED:
            return None
        return importlib.machinery.ModuleSpec(fullname, self)

    def create_module(self, spec):
        return None  # a placeholder, replaced in exec_module

    def exec_module(self, module) -> None:
        old = module.__name__.partition(".")[2]
        new = f"{self.package}.{MOVED[old]}"
        warnings.warn(
            f"{module.__name__} moved to {new}; import it from there "
            "(the old path will be removed in a later version)",
            DeprecationWarning,
            stacklevel=2,
        )
        # the import system returns what sys.modules holds under the name after exec_module
        sys.modules[module.__name__] = importlib.import_module(new)


def install(package: str) -> None:
    """Make the old module paths of ``package`` importable (once per process)."""
    if not any(isinstance(f, _Alias) for f in sys.meta_path):
        # first: an old path must not be found as a file elsewhere (a stale checkout on the path)
        sys.meta_path.insert(0, _Alias(package))
