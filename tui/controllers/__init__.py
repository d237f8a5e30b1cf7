"""The logic behind the TUI's views, in plain classes that hold their state and are tested without a terminal
(tests/test_tui_controllers.py): what they need of the app and of the main screen is in base.py."""
