"""Hostile inputs: every loader of the engine, declared with one good sample file (see ``cases.py``)."""
