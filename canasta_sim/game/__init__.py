"""The game and its rules: rule switches, card notation, one deal played step by step (`Deal`),
what a seat knows (`InfoSet`, `Observation`), position files and traces (docs/architecture.md)."""
