"""A report's files appear together or not at all: an interrupted ``report`` leaves no file of
its own and a previous report whole, and Ctrl-C during the move into place waits for it."""

import os
import signal

import pytest
from click.testing import CliRunner

from canasta_sim import simulate
from canasta_sim.cli import main
from canasta_sim.results.report import PLOTS, write_report

REPORT_FILES = [*PLOTS, "report.md"]


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    """A small run folder without records (the report reads its aggregates)."""
    out = tmp_path_factory.mktemp("report") / "run"
    simulate(200, seed=1, out=out, records=False)
    return out


def _contents(folder):
    return {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()} | {
        p.name: None for p in folder.iterdir() if p.is_dir()
    }


def _interrupt_the_second_file(monkeypatch):
    """Ctrl-C while the report's second file is written (synced): the first is complete."""
    synced = []

    def fsync(fd):
        synced.append(fd)
        if len(synced) == 2:
            raise KeyboardInterrupt

    monkeypatch.setattr(os, "fsync", fsync)


def _old_report(folder):
    """A previous report, its files marked so that a replaced one shows."""
    write_report(folder)
    for name in REPORT_FILES:
        (folder / name).write_bytes(b"old " + name.encode())


def test_an_interrupted_report_leaves_no_file_and_an_old_report_whole(folder, monkeypatch):
    for name in REPORT_FILES:
        (folder / name).unlink(missing_ok=True)
    before = _contents(folder)
    with monkeypatch.context() as patch:
        _interrupt_the_second_file(patch)
        with pytest.raises(KeyboardInterrupt):
            write_report(folder)
    assert _contents(folder) == before  # no plot, no report.md, no temporary folder
    _old_report(folder)
    before = _contents(folder)
    with monkeypatch.context() as patch:
        _interrupt_the_second_file(patch)
        with pytest.raises(KeyboardInterrupt):
            write_report(folder)
    assert _contents(folder) == before  # every file of the old report, none replaced


def test_ctrl_c_in_report_exits_130_leaving_the_old_report(folder, monkeypatch):
    _old_report(folder)
    before = _contents(folder)
    _interrupt_the_second_file(monkeypatch)
    r = CliRunner().invoke(main, ["report", str(folder)])
    assert (r.exit_code, r.output) == (130, "Interrupted.\n")
    assert _contents(folder) == before


def test_ctrl_c_while_the_files_move_into_place_waits_for_the_last(folder, monkeypatch):
    _old_report(folder)
    replace = os.replace
    moved = []

    def ctrl_c_then_replace(src, dst):
        if not moved:
            signal.raise_signal(signal.SIGINT)
        moved.append(os.path.basename(dst))
        replace(src, dst)

    monkeypatch.setattr(os, "replace", ctrl_c_then_replace)
    # Ctrl-C's handler, also where SIGINT is inherited as ignored (tests in the background)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt):
            write_report(folder)
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    finally:
        signal.signal(signal.SIGINT, previous)
    assert moved == REPORT_FILES  # report.md last
    for name in REPORT_FILES:  # the new report, whole
        assert not (folder / name).read_bytes().startswith(b"old ")
    assert not [p for p in folder.iterdir() if p.name.startswith(".")]
