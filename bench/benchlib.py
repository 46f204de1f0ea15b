"""Helpers shared by bench/compare's suites: running bough and ONNX Runtime (the peer's
ort_run.js), feeding bough ORT's dumped inputs, comparing outputs, peak RSS of a child."""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys

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


def one_node_bough_ms(cli, model, iters, threads):
    """The median ms of `bough bench` on a one-node model (cli: a bough CLI)."""
    out = sh([cli, "bench", model, "--iters", str(iters), "--warmup", "3", "--threads",
              str(threads), "--json"])
    return json.loads(out)["ns"]["median"] / 1e6


def one_node_main(doc, cases, write_model, flops, out_dir):
    """The command line of bench/conv-paths and bench/attn-paths (`doc`, the script's
    docstring, gives its usage): paired_one_node_table on the arguments."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("--baseline", required=True, help="the bough CLI to compare against")
    ap.add_argument("--bough", default=os.path.join(ROOT, "build", "bough"))
    ap.add_argument("--threads", default="1")
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("--case", action="append", help="only these cases (repeatable)")
    ap.add_argument("--no-ort", action="store_true")
    try:
        paired_one_node_table(ap.parse_args(), cases, write_model, flops, out_dir)
    except subprocess.CalledProcessError as e:
        sys.exit(f"{' '.join(e.cmd)} failed:\n{e.stderr}")


def paired_one_node_table(args, cases, write_model, flops, out_dir):
    """Times each of `cases` (dicts with a "name"; write_model(case) -> (model, input spec))
    on two bough CLIs (args.baseline, args.bough) and ORT unless args.no_ort, in paired,
    interleaved runs (args.reps reps, at each of args.threads), and prints a markdown table
    of medians, GFLOP/s (flops(case) / time) and the medians of the per-rep ratios: this
    shared machine's speed drifts within minutes. Only args.case's cases when given."""
    os.makedirs(out_dir, exist_ok=True)
    peer = None if args.no_ort else peer_dir()
    print("load:", open("/proc/loadavg").read().split()[:3])
    print("| case | threads | baseline ms | new ms | new/baseline | new GFLOP/s | ORT ms | new/ORT |")
    print("|---|---|---|---|---|---|---|---|")
    for case in cases:
        if args.case and case["name"] not in args.case:
            continue
        model, spec = write_model(case)
        for threads in [int(t) for t in args.threads.split(",")]:
            # About 0.1 s per engine per rep.
            iters = max(5, int(0.1 / max(one_node_bough_ms(args.bough, model, 3, threads) / 1e3,
                                         1e-5)))
            base, new, ort = [], [], []
            for _ in range(args.reps):
                base.append(one_node_bough_ms(args.baseline, model, iters, threads))
                new.append(one_node_bough_ms(args.bough, model, iters, threads))
                if peer:  # its profiler's model_run: JS wall time adds copying the tensors
                    prof = ["--profile", os.path.join(out_dir, "ort-profile")]
                    r = ort_json(peer, model, spec, iters, 3, threads, prof)
                    ort.append(r["profile"]["model_run"]["median_ms"])
            ratio = statistics.median(n / b for n, b in zip(new, base))
            gflops = flops(case) / statistics.median(new) / 1e6
            ort_cols = "| - | -"
            if ort:
                ort_ratio = statistics.median(n / o for n, o in zip(new, ort))
                ort_cols = f"| {statistics.median(ort):.3f} | {ort_ratio:.2f}"
            print(f"| {case['name']} | {threads} | {statistics.median(base):.3f} | "
                  f"{statistics.median(new):.3f} | {ratio:.2f} | {gflops:.1f} {ort_cols} |",
                  flush=True)
    print("load:", open("/proc/loadavg").read().split()[:3])
