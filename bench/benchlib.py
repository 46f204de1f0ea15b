"""Helpers shared by bench/compare's suites: running bough and ONNX Runtime (the peer's
ort_run.js), feeding bough ORT's dumped inputs, comparing outputs, peak RSS of a child."""
import json
import os
import shutil
import subprocess

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The CLI under test: this tree's build, or --bough (another worktree's build).
BOUGH = os.path.join(ROOT, "build", "bough")
# The optimization level `bough bench` and `bough run` are given (--bough-optimize); None: the
# default level.
OPTIMIZE = None


def use_bough(path):
    global BOUGH
    if not os.access(path, os.X_OK):
        raise SystemExit(f"{path}: not an executable bough CLI")
    BOUGH = os.path.abspath(path)


def bough_cli():
    return BOUGH


def use_optimize(level):
    global OPTIMIZE
    OPTIMIZE = level


def optimize_flags():
    return ["--optimize", OPTIMIZE] if OPTIMIZE else []


def sh(cmd, **kw):
    return subprocess.run(cmd, check=True, capture_output=True, text=True, **kw).stdout


def peer_dir():
    return sh(["sh", os.path.join(ROOT, "..", "shared", "peer", "setup.sh")]).strip().splitlines()[-1]


def ort_json(peer, model, spec, iters, warmup, threads, extra=()):
    """Runs ort_run.js at --opt all (one session) and returns its JSON result line."""
    cmd = ["node", "ort_run.js", model, "--inputs", spec, "--iters", str(iters), "--warmup",
           str(warmup), "--threads", str(threads), "--opt", "all", *extra]
    return json.loads([l for l in sh(cmd, cwd=peer).splitlines() if l.startswith("{")][-1])


def input_flags(dump):
    """bough's --input flags for the inputs ORT dumped as .npy files."""
    flags = []
    for f in sorted(os.listdir(os.path.join(dump, "inputs"))):
        flags += ["--input", f"{f[:-4]}={os.path.join(dump, 'inputs', f)}"]
    return flags


def bough_bench(model_path, dump, iters, warmup, threads):
    """`bough bench`: returns (median ms, min ms) of `iters` runs in one process."""
    out = sh([bough_cli(), "bench", model_path, *input_flags(dump), "--iters", str(iters), "--warmup",
              str(warmup), "--threads", str(threads), "--json", *optimize_flags()])
    ns = json.loads(out)["ns"]
    return ns["median"] / 1e6, ns["min"] / 1e6


def output_errors(model_path, dump, rtol, atol):
    """Runs bough on ORT's dumped inputs and compares every output with ORT's. Floats match
    when |bough - ORT| <= atol * max(1, max|ORT|) + rtol * |ORT| elementwise; other types
    must be equal. Returns [(output, max abs error, ok)]."""
    outdir = dump + "-bough"
    shutil.rmtree(outdir, ignore_errors=True)  # bough run never replaces a file unasked
    sh([bough_cli(), "run", model_path, *input_flags(dump), "--output-dir", outdir, *optimize_flags()])
    rows = []
    for f in sorted(os.listdir(os.path.join(dump, "outputs"))):
        a = np.load(os.path.join(dump, "outputs", f))
        b_path = os.path.join(outdir, f)
        if not os.path.exists(b_path):
            rows.append((f[:-4], float("inf"), False))
            continue
        b = np.load(b_path)
        if a.shape != b.shape or a.dtype != b.dtype:
            rows.append((f[:-4], float("inf"), False))
        elif a.size == 0:
            rows.append((f[:-4], 0.0, True))
        elif np.issubdtype(a.dtype, np.floating):
            diff = np.abs(a.astype(np.float64) - b.astype(np.float64))
            scale = max(1.0, float(np.max(np.abs(a))))
            ok = bool(np.all(diff <= atol * scale + rtol * np.abs(a)))
            rows.append((f[:-4], float(np.max(diff)), ok))
        else:
            rows.append((f[:-4], float(np.max(a != b)), bool(np.array_equal(a, b))))
    return rows


def peak_rss_mib(cmd, cwd=None):
    """Peak resident set of a command, MiB, as /usr/bin/time (GNU time) reports it. Not the
    wait4 rusage of a child of this process: Linux counts into a child's maximum the copy of
    the parent's memory it had between fork and exec (~60 MiB of Python with numpy)."""
    if not os.path.exists("/usr/bin/time"):
        raise RuntimeError("peak RSS needs GNU time: apt-get install time")
    out = subprocess.run(["/usr/bin/time", "-f", "%M", *cmd], cwd=cwd, capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed: {out.stderr[-500:]}")
    return int(out.stderr.strip().splitlines()[-1]) / 1024.0
