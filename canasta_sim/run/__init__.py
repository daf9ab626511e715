"""Running many deals and storing them: the chunk runner, Dask clusters, records, run folders,
and the simulate, games, compare, merge, study and verify runs (docs/architecture.md)."""
