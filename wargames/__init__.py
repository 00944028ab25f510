"""Executable rulebooks for four Vietnam-era board wargames.

``wargames.core`` holds what every game shares (hexes, dice, exact
distributions, charts, the rules registry, resolutions and errors); each game
package mirrors its rulebook's chapters.
"""
__version__ = "0.1.0"
