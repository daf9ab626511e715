"""Results and statistics of runs: aggregates, statistics with intervals, study statistics,
tables, reports, and replaying a deal of a run folder (docs/architecture.md)."""
