"""The one error the tool turns into exit status 2."""


class Failure(Exception):
    """Something could not be run (build, renderer, Cairo, a PNG, a size mismatch).

    A distinct type lets the entry point tell "could not measure" (exit 2) from a
    measured result, and print one line instead of a traceback."""
