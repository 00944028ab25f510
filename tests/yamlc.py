"""YAML for the tests' own edits of data files (read a shipped file, change a value, write it back): libyaml's
reader and writer where installed, which take a tenth of the time of PyYAML's pure-Python ones (Pyodide's);
the same values either way. The engine reads files only through :mod:`wargames.core.yamlio`."""
import yaml

LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


def safe_load(stream):
    """``yaml.safe_load``, with libyaml where installed."""
    return yaml.load(stream, Loader=LOADER)


def safe_dump(data, stream=None, **kwargs):
    """``yaml.safe_dump``, with libyaml where installed."""
    return yaml.dump(data, stream, Dumper=DUMPER, **kwargs)
