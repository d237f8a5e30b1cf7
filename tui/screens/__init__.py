"""Screens of the genplan TUI."""
