"""Write ``docs/observation.md`` from the observation layout.

Usage: ``python scripts/observation_doc.py``. The page is generated whole by
:func:`canasta_sim.game.observe.layout_markdown` from ``OBS_LAYOUT`` in
:mod:`canasta_sim.nb.engine.observation`; ``tests/game/test_observation.py`` fails while it is out
of date.
"""

from pathlib import Path

from canasta_sim.game.observe import layout_markdown

DOC = Path(__file__).resolve().parent.parent / "docs" / "observation.md"


def main() -> None:
    DOC.write_text(layout_markdown())


if __name__ == "__main__":
    main()
