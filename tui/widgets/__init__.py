"""Widgets of the genplan TUI."""
