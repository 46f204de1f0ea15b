"""The wheel: built from the CMake tree with pip (setup.py packages the tree's extension and
CLI, compiling nothing), installed with `pip install --no-index` into a fresh venv, where an
onnxruntime-style script imports bough from the venv (not from the source or build tree) and
runs examples/if_loop.onnx, and the `bough` command runs it too. ctest gives the build tree in
BOUGH_BUILD_DIR and the sources in BOUGH_SOURCE_DIR."""
import json
import os
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

SOURCE_DIR = Path(os.environ.get("BOUGH_SOURCE_DIR", Path(__file__).resolve().parents[2]))
BUILD_DIR = Path(os.environ.get("BOUGH_BUILD_DIR", SOURCE_DIR / "build"))
EXAMPLE = SOURCE_DIR / "examples" / "if_loop.onnx"

# x = [1, 2, 3], n = 5: even iterations add 1, odd ones halve (worked out by hand).
X_ALL = [[2, 3, 4], [1, 1.5, 2], [2, 2.5, 3], [1, 1.25, 1.5], [2, 2.25, 2.5]]

SCRIPT = """
import json
import sys

import numpy as np
import bough as ort

so = ort.SessionOptions()
so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
sess = ort.InferenceSession(sys.argv[1], so, providers=["CPUExecutionProvider"])
feed = {"x": np.array([1, 2, 3], np.float32), "n": np.array(5, np.int64)}
x_final, x_all = sess.run([o.name for o in sess.get_outputs()], feed)
print(json.dumps({"file": ort.__file__, "version": ort.__version__,
                  "inputs": [i.name for i in sess.get_inputs()],
                  "providers": sess.get_providers(),
                  "x_final": x_final.tolist(), "x_all": x_all.tolist()}))
"""


def clean_env():
    """The environment without what would find bough elsewhere than in the venv."""
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    return env


def test_wheel_installs_in_a_fresh_venv_and_runs_an_onnxruntime_script(tmp_path):
    dist = tmp_path / "dist"
    env = dict(clean_env(), BOUGH_BUILD_DIR=str(BUILD_DIR))
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-build-isolation", "--no-deps",
                    "--no-index", "-q", "-w", str(dist), str(SOURCE_DIR)],
                   check=True, env=env, cwd=tmp_path)
    wheels = list(dist.glob("bough-*.whl"))
    assert len(wheels) == 1, wheels
    tag = sysconfig.get_config_var("EXT_SUFFIX").split(".")[1]  # cpython-311-x86_64-linux-gnu
    with zipfile.ZipFile(wheels[0]) as whl:
        names = whl.namelist()
        assert f"bough/_core.{tag}.so" in names, names
        assert "bough/bin/bough" in names and "bough/session.py" in names, names
        assert not [n for n in names if n.endswith((".cc", ".h", ".o"))], names

    venv = tmp_path / "venv"
    # With the system's packages: numpy (the wheel's dependency) and pip come from Debian.
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", "--without-pip",
                    str(venv)], check=True)
    python = venv / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "--no-index", "-q", str(wheels[0])],
                   check=True, env=clean_env(), cwd=tmp_path)

    (tmp_path / "script.py").write_text(SCRIPT)
    out = subprocess.run([str(python), "script.py", str(EXAMPLE)], check=True, env=clean_env(),
                         cwd=tmp_path, capture_output=True, text=True).stdout
    got = json.loads(out)
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_path("
                                "'platlib'))"], check=True, capture_output=True, text=True,
                               env=clean_env()).stdout.strip())
    assert Path(got["file"]).resolve() == (site / "bough" / "__init__.py").resolve(), got
    assert str(venv) in got["file"], got
    assert got["version"] == wheels[0].name.split("-")[1], got
    assert got["inputs"] == ["x", "n"] and got["providers"] == ["CPUExecutionProvider"], got
    assert got["x_final"] == X_ALL[-1] and got["x_all"] == X_ALL, got

    # The `bough` command of the venv is the CLI.
    bough = venv / "bin" / "bough"
    version = subprocess.run([str(bough), "--version"], check=True, capture_output=True,
                             text=True, env=clean_env()).stdout
    assert version.startswith("bough " + got["version"] + "\n"), version
    check = subprocess.run([str(bough), "check", str(EXAMPLE)], capture_output=True, text=True,
                           env=clean_env())
    assert check.returncode == 0, check.stdout + check.stderr
