"""genplan.cli."""
