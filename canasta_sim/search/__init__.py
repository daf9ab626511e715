"""Analysis and search: a decision's candidates rolled out over sampled worlds, game equity,
reviewing a bot's decisions and tuning its parameters (docs/architecture.md)."""
