"""scripts/finetune_outcomes.py's options: each bad one is a usage error (exit code 2, no
play, no folder made), a resume must give the folder's settings, Ctrl-C exits 130. No deal
is played: the checks run before any play."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
import finetune_outcomes  # noqa: E402

DATA = Path(__file__).resolve().parents[2] / "canasta_sim" / "data"


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--players", "3", "--start", str(DATA / "apprentice_4p.npz")], "fitted for 4 players"),
        (["--start", "missing.npz"], "no such file"),
        (["--pool", "self", "nobody"], "--pool nobody"),
        (["--rounds", "0"], "--rounds 0: allowed: 1 or more"),
        (["--seed", "-1"], "--seed -1: allowed: 0 or more"),
        (["--temperature", "0"], "--temperature 0.0: allowed: above 0"),
        (["--batch", "0"], "--batch 0: allowed: 1 or more"),
        (["--epochs", "0"], "--epochs 0"),
        (["--critic-epochs", "0"], "--critic-epochs 0"),
        (["--lr", "nan"], "--lr nan"),
        (["--kl", "-0.5"], "--kl -0.5: allowed: 0 or more"),
        (["--clip", "0"], "--clip 0.0"),
        (["--critic-lr", "-1"], "--critic-lr -1.0"),
        (["--deals", "9", "--pool", "self", "start"], "a multiple of the pool's size (2)"),
    ],
)
def test_a_bad_option_is_a_usage_error(tmp_path, capsys, argv, said):
    out = tmp_path / "run"
    with pytest.raises(SystemExit) as exc:
        finetune_outcomes.main(["--out", str(out), *argv])
    assert exc.value.code == 2
    assert said in capsys.readouterr().err
    assert not out.exists()


def test_an_out_that_is_a_file_is_refused(tmp_path, capsys):
    (tmp_path / "f").write_text("x")
    with pytest.raises(SystemExit) as exc:
        finetune_outcomes.main(["--out", str(tmp_path / "f")])
    assert exc.value.code == 2 and "--out" in capsys.readouterr().err


def test_missing_jax_names_the_extra(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "optax", None)  # its import fails
    with pytest.raises(SystemExit) as exc:
        finetune_outcomes.main(["--out", str(tmp_path / "run")])
    assert exc.value.code == 2
    assert 'pip install -e ".[train]"' in capsys.readouterr().err


def test_a_resume_with_other_settings_is_refused(tmp_path, capsys):
    out = tmp_path / "run"
    finetune_outcomes.write_settings(finetune_outcomes.parse(["--out", str(out), "--seed", "5"]))
    assert (out / "settings.json").exists()
    finetune_outcomes.parse(["--out", str(out), "--seed", "5"])  # the same: a resume
    with pytest.raises(SystemExit) as exc:
        finetune_outcomes.parse(["--out", str(out), "--seed", "6"])
    assert exc.value.code == 2
    assert "--seed 6: " in capsys.readouterr().err


def test_every_option_has_help_with_its_default(capsys):
    with pytest.raises(SystemExit):
        finetune_outcomes.main(["--help"])
    text = " ".join(capsys.readouterr().out.split())
    for said in ("--batch BATCH decisions a step", "(default: 1024)", "(default: 50.0)"):
        assert said in text
    assert text.count("(default: ") == 15  # every option but --help and the required --out


def test_ctrl_c_exits_130(tmp_path, capsys, monkeypatch):
    def interrupted(args):
        raise KeyboardInterrupt

    monkeypatch.setattr(finetune_outcomes, "run", interrupted)
    with pytest.raises(SystemExit) as exc:
        finetune_outcomes.main(["--out", str(tmp_path / "run")])
    assert exc.value.code == 130
    assert capsys.readouterr().err == "Interrupted.\n"
