"""genplan.tui."""
