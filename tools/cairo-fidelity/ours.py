"""Our renderer: building it and having it write the seven images."""
import os
import subprocess
import sys

from errors import Failure

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
# A scratch path of its own, so that a release build does not disturb the debug one.
SCRATCH = ".build-fidelity"
BINARY = os.path.join(ROOT, SCRATCH, "release", "popover-goldens")


def build():
    print(f"cairo-fidelity: swift build -c release --scratch-path {SCRATCH}", file=sys.stderr)
    r = subprocess.run(["swift", "build", "-c", "release", "--scratch-path", SCRATCH], cwd=ROOT,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        sys.stderr.write(r.stdout[-4000:])
        raise Failure("swift build failed")


def render(theme, scale, folder):
    """Writes folder/<image>.png for the seven images in one theme and scale."""
    if not os.path.exists(BINARY):
        raise Failure(f"{BINARY} not found (build it, or drop --no-build)")
    r = subprocess.run([BINARY, "artwork", "--theme", theme, "--scale", str(scale), "--out", folder],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        sys.stderr.write(r.stdout)
        raise Failure(f"popover-goldens artwork --theme {theme} --scale {scale} failed")
