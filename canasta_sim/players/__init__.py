"""Players: bot specs, the candidate moves of a decision, their ranking and bots written in
Python (docs/architecture.md)."""
