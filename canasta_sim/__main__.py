"""``python -m canasta_sim`` runs the command line."""

from .cli import main

main(prog_name="canasta-sim")
