"""Drawing (bokeh). The engine never imports this package; it reads engine data and draws it."""
from .hexmap import (FireMark, PathMark, UnitMark, VPMark, center, citadel_map, corners, describe, draw_map,
                     hexside_segment, movement_example_map, with_alt_text)

__all__ = ["FireMark", "PathMark", "UnitMark", "VPMark", "center", "citadel_map", "corners", "describe",
           "draw_map", "hexside_segment", "movement_example_map", "with_alt_text"]
