"""The flat package's module paths (before the subpackages) still import, with a warning."""

import importlib
import subprocess
import sys

import pytest

from canasta_sim._moved import MOVED


def test_an_old_path_gives_the_module_at_its_new_path_and_warns():
    sys.modules.pop("canasta_sim.candidates", None)
    with pytest.warns(
        DeprecationWarning,
        match=r"canasta_sim\.candidates moved to "
        r"canasta_sim\.players\.choices",
    ):
        old = importlib.import_module("canasta_sim.candidates")
    assert old is importlib.import_module("canasta_sim.players.choices")


def test_from_an_old_path_imports_the_same_class():
    sys.modules.pop("canasta_sim.candidates", None)
    from canasta_sim.players.choices import Candidate

    with pytest.warns(DeprecationWarning):
        from canasta_sim.candidates import Candidate as Old  # noqa: F401
    assert Old is Candidate


def test_every_old_path_names_a_module_that_exists():
    for new in MOVED.values():
        importlib.import_module(f"canasta_sim.{new}")


def test_an_unknown_module_is_still_not_found():
    with pytest.raises(ModuleNotFoundError, match="canasta_sim.no_such_module"):
        importlib.import_module("canasta_sim.no_such_module")


def test_an_old_path_in_a_fresh_process():
    # the documented example of README before the move, in a process of its own
    code = (
        "import warnings; warnings.simplefilter('error', DeprecationWarning)\n"
        "try:\n    import canasta_sim.deal\nexcept DeprecationWarning as w:\n    print(w)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == (
        "canasta_sim.deal moved to canasta_sim.game.deals; import it from there "
        "(the old path will be removed in a later version)"
    )
