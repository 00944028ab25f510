"""Test-wide settings: Hypothesis runs derandomised, so a property draws the same examples in every run (the
unit layer's time and its verdict repeat from run to run; benchmarks/README.md), with no per-example deadline
(a slow machine must not turn into a failure). A test's own ``@settings`` still bounds its examples."""
from hypothesis import settings

settings.register_profile("wargames", derandomize=True, deadline=None, print_blob=True)
settings.load_profile("wargames")
