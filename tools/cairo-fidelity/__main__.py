"""Entry point for `python3 tools/cairo-fidelity ...`: the folder itself is on sys.path,
so the modules import one another by their plain names."""
import sys

from cli import run

sys.exit(run())
