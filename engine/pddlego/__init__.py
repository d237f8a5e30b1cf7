"""PDDLego+ (Gong et al. 2025) and its PlanGen baseline: PDDL written and refined by the model from text
observations of a partially observable game, planned with Fast Downward, checked in the game.

Modules: ``environment`` (the game adapter: CoinCollector, a logged game), ``solver`` (model files to game
commands), ``loop`` (both approaches' loops and metrics), ``runner`` (a trial played on a genplan Run),
``trial_log`` (the release's trial logs), ``importer`` (replaying them), ``batch`` (imports as a batch).
"""
