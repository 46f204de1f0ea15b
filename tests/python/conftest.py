"""Paths for the tests of the Python module: ctest puts build/python on PYTHONPATH and
gives the source folder in BOUGH_SOURCE_DIR."""
import os
from pathlib import Path

import pytest

SOURCE_DIR = Path(os.environ.get("BOUGH_SOURCE_DIR", Path(__file__).resolve().parents[2]))
EXAMPLE = SOURCE_DIR / "examples" / "if_loop.onnx"


def conformance_dir():
    """The ONNX backend node tests, looked up as tests/conformance/check_manifest.sh does."""
    candidates = [os.environ.get("BOUGH_CONFORMANCE_DIR", ""),
                  SOURCE_DIR.parent / "shared" / "conformance" / "onnx-node",
                  "/usr/share/libonnx-testdata/data/node"]
    for c in candidates:
        if c and Path(c).is_dir():
            return Path(c)
    return None


@pytest.fixture
def example_path():
    return EXAMPLE
