"""genplan.engine."""
