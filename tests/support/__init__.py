"""Test doubles shared by genplan's tests (``tests/`` is on sys.path through tests/conftest.py).

Import as ``from support.scripted_server import Reply, ScriptedServer``.
"""
