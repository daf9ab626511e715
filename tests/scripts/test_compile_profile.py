"""benchmarks/compile_profile.py's bad arguments: usage errors (exit code 2) that name the value
given and what is allowed, never a traceback."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def compile_profile(*args):
    """Run the benchmark script with ``args``, as a user does (the repository on the path)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    script = ROOT / "benchmarks" / "compile_profile.py"
    return subprocess.run(
        [sys.executable, str(script), *args], capture_output=True, text=True, env=env, timeout=300
    )


@pytest.mark.parametrize("top", ["-3", "0", "x"])
def test_compile_profile_top_below_one_is_a_usage_error(top):
    # --top -3 listed all kernels but the last three; x raised a traceback
    r = compile_profile("--top", top, "--", "bogus")
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert f"argument --top: {top!r} is not allowed; allowed: a whole number, 1 or more" in r.stderr


def test_compile_profile_unknown_command_gets_clicks_usage():
    # click's UsageError came out as a traceback (the command ran with standalone_mode=False)
    r = compile_profile("--", "bogus")
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "Usage: canasta-sim [OPTIONS] COMMAND" in r.stderr
    assert "No such command 'bogus'" in r.stderr
