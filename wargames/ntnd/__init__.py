"""No Trumpets No Drums: the Vietnam War, 1965-1975, a strategic and political game (rule ids "NT 19.2").

The engine is being built in layers: the rules index, the turn record, the reconstructed map of Indochina, the
charts, the counter mix and the combat procedure come first; the ``Game`` that plays a whole turn through the
shared protocol follows.
"""
