"""genplan.tui: the Textual application `genplan-tui` (presentation only; the work is done by genplan.engine).

Entry point: genplan.tui.main:main. The app is GenplanApp in genplan.tui.app.
"""
