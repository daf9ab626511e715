"""A report's files appear together or not at all: an interrupted ``report`` leaves no file of
its own and a previous report whole, and Ctrl-C during the move into place waits for it."""

import os
import signal

import pytest
from click.testing import CliRunner

from canasta_sim import simulate
from canasta_sim.cli import main
from canasta_sim.results.report import PLOTS, write_report
from canasta_sim.results.report_files import write_together

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
    assert moved == REPORT_FILES + REPORT_FILES  # the old files aside, then the new, report.md last
    for name in REPORT_FILES:  # the new report, whole
        assert not (folder / name).read_bytes().startswith(b"old ")
    assert not [p for p in folder.iterdir() if p.name.startswith(".")]


def test_a_folder_in_place_of_a_report_file_is_refused_leaving_the_old_report(folder):
    _old_report(folder)
    (folder / "red_three_value.png").unlink()
    (folder / "red_three_value.png" / "x").mkdir(parents=True)
    before = _contents(folder)
    r = CliRunner().invoke(main, ["report", str(folder)])
    assert r.exit_code == 2
    assert f"'{folder / 'red_three_value.png'}' is a folder" in r.output
    assert _contents(folder) == before  # nothing written, no temporary folder
    (folder / "red_three_value.png" / "x").rmdir()
    (folder / "red_three_value.png").rmdir()


@pytest.mark.parametrize("old", [True, False], ids=["old-report", "no-report"])
def test_a_rename_failing_at_any_step_leaves_the_folder_as_it_was(tmp_path, monkeypatch, old):
    """The k-th rename of the move fails, for every k: the folder holds the old report whole
    (or no report file), never a mix, and no temporary folder."""
    files = {name: b"new " + name.encode() for name in REPORT_FILES}
    if old:
        for name in REPORT_FILES:
            (tmp_path / name).write_bytes(b"old " + name.encode())
    (tmp_path / "other.txt").write_bytes(b"not the report's")
    before = _contents(tmp_path)
    replace = os.replace
    renames = 2 * len(files) if old else len(files)  # the old files aside, then the new in
    for k in range(renames):
        calls = []

        def failing_replace(src, dst, k=k, calls=calls):
            calls.append(dst)
            if len(calls) == k + 1:
                raise OSError(28, "No space left on device")
            replace(src, dst)

        with monkeypatch.context() as patch:
            patch.setattr(os, "replace", failing_replace)
            with pytest.raises(OSError, match="No space left"):
                write_together(tmp_path, files)
        assert _contents(tmp_path) == before, k
        assert len(calls) == 2 * k + 1  # k renames, the failed one, k moved back
    write_together(tmp_path, files)  # and without a failure, the new report whole
    assert _contents(tmp_path) == before | files


def _killed_report(folder, name=".report-k1ll_9ed"):
    """The temporary folder a report killed with ``kill -9`` during its move leaves: new files
    not yet moved, old ones moved aside."""
    leftover = folder / name
    (leftover / "new").mkdir(parents=True)
    (leftover / "old").mkdir()
    (leftover / "new" / "report.md").write_bytes(b"killed")
    return leftover


def test_a_killed_reports_leftover_is_removed_and_nothing_else(tmp_path):
    leftover = _killed_report(tmp_path)
    empty = tmp_path / ".report-00000000"  # killed before it made new/ and old/
    empty.mkdir()
    kept = {
        ".report-mine": "dir",  # not a name mkdtemp makes
        ".report-abcdefghi": "dir",  # nine characters
        ".report-ABCDEFGH": "dir",  # mkdtemp's names are lower case
        ".report-notes123": "file",  # a file, not a folder
        ".report-other123": "foreign",  # a folder holding something report never writes
    }
    for name, kind in kept.items():
        if kind == "file":
            (tmp_path / name).write_bytes(b"mine")
        else:
            (tmp_path / name).mkdir()
            if kind == "foreign":
                (tmp_path / name / "notes.txt").write_bytes(b"mine")
    files = {name: b"new " + name.encode() for name in REPORT_FILES}
    write_together(tmp_path, files)
    assert not leftover.exists() and not empty.exists()
    assert {p.name for p in tmp_path.iterdir()} == set(kept) | set(files)
    assert (tmp_path / ".report-other123" / "notes.txt").read_bytes() == b"mine"
    assert {name: (tmp_path / name).read_bytes() for name in files} == files


def test_report_after_a_killed_report_removes_its_leftover_and_writes_every_file(folder):
    _old_report(folder)
    leftover = _killed_report(folder)
    r = CliRunner().invoke(main, ["report", str(folder)])
    assert r.exit_code == 0, r.output
    assert not leftover.exists()
    assert not [p for p in folder.iterdir() if p.name.startswith(".")]
    for name in REPORT_FILES:
        assert not (folder / name).read_bytes().startswith(b"old "), name
    text = (folder / "report.md").read_text()
    assert [name for name in PLOTS if f"]({name})" not in text] == []  # every plot shown
