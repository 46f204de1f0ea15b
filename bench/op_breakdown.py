"""Where each engine's time goes on one model, without touching the engine:
- bough: `perf record -e cpu-clock` (sampling; works in this VM without hardware counters) of
  `bough bench` at 1 thread for about 2 s of runs, leaf functions grouped into categories by
  name (CATEGORIES; first match wins). Model loading and session creation are in the same
  process; their functions are counted apart ("load") and left out of the shares.
- ORT: its own profiler (ort_run.js --profile), kernel time per operator type as a share of
  the summed kernel time. The profiler adds ~1 us per node event, so it is for the shares only.
"""
import os
import re
import shutil
import subprocess

from benchlib import bough_cli, input_flags, ort_json

# (category, regex on the demangled leaf symbol), first match wins.
CATEGORIES = [
    ("load (not per run)", r"protobuf|google::|bough::onnx::|formats::|_dl_|dl_main|Model::load|"
                           r"check::|infer::|passes::|Session::Session"),
    ("GEMM (MatMul, Gemm, Conv after im2col)", r"matmul|gemm|dot_|::tile<|pack_?b|microkernel|dnnl|xsmm|openblas"),
    ("Conv im2col, direct and Winograd", r"conv|im2col|::unroll<|RowBlock<|::InputTransform|::OutputTransform"),
    ("LSTM/GRU/RNN (incl. their weight transposes)", r"lstm|gru|rnn|recurrent::"),
    ("Softmax/LogSoftmax", r"softmax"),
    ("LayerNormalization", r"layer_norm"),
    ("libm erf", r"erf"),
    ("libm pow", r"pow"),
    ("libm exp", r"expf|expm1|__exp"),
    ("libm log", r"logf|log1p|__log"),
    ("libm tanh", r"tanh"),
    ("elementwise and reductions", r"binary_map|unary_map|arith|for_each_run|reduce|relu|sigmoid|"
                                   r"compare|where|clip|sqrt"),
    ("copies (Transpose/Concat/Slice/Gather/Pad)", r"copy|memmove|memcpy|transpose|concat|gather|"
                                                   r"slice|split|pad"),
    ("allocation (malloc/free/memset)", r"malloc|free|_int_|memset|Storage|allocate|operator new|"
                                        r"operator delete"),
    ("control flow and executor", r"exec::|control::|Session::run|Loop|Scan|If|Value"),
    ("thread pool", r"ThreadPool|futex|sched_yield|spin"),
]


def categorize(symbol, kernel):
    if kernel:
        return "kernel (page faults, syscalls)"
    for name, pattern in CATEGORIES:
        if re.search(pattern, symbol, re.IGNORECASE):
            return name
    return "other"


def short(symbol):
    """The function's name without its argument list, for display."""
    s = symbol.replace("bough::", "").replace("(anonymous namespace)::", "")
    depth, out = 0, ""
    for ch in s:
        if ch == "(" and depth == 0 and out and not out.endswith("operator"):
            break
        depth += ch in "<"
        depth -= ch in ">"
        out += ch
    return out[:90]


def bough_profile(e, seconds=2.0):
    data = os.path.join(os.path.dirname(e["dump"]), e["name"] + ".perf")
    iters = max(50, int(seconds * 1000 / max(e["est_ms"], 1e-3)))
    subprocess.run(["perf", "record", "-q", "-e", "cpu-clock", "-F", "4999", "-o", data, "--",
                    bough_cli(), "bench", e["path"], *input_flags(e["dump"]), "--iters", str(iters),
                    "--warmup", "5", "--threads", "1"], check=True, capture_output=True)
    report = subprocess.run(["perf", "report", "-i", data, "--stdio", "--no-children", "--sort",
                             "sym", "-q", "-g", "none", "--percent-limit", "0"],
                            check=True, capture_output=True, text=True).stdout
    shares, symbols = {}, []
    for line in report.splitlines():
        m = re.match(r"\s*([0-9.]+)%\s+\[(.)\]\s+(.*)", line)
        if not m:
            continue
        pct, kernel, sym = float(m.group(1)), m.group(2) == "k", m.group(3).strip()
        cat = categorize(sym, kernel)
        shares[cat] = shares.get(cat, 0.0) + pct
        if cat != "load (not per run)":
            symbols.append((pct, short(sym)))
    load = shares.pop("load (not per run)", 0.0)
    run_total = sum(shares.values()) or 1.0
    cats = sorted(((100 * v / run_total, k) for k, v in shares.items()), reverse=True)
    top = sorted(symbols, reverse=True)[:6]
    return dict(categories=cats, top_symbols=[(100 * p / run_total, s) for p, s in top],
                load_pct=load)


def ort_profile(peer, e):
    prof = os.path.join(os.path.dirname(e["dump"]), e["name"] + "-ort-profile")
    iters = max(20, min(300, int(500 / max(e["est_ms"], 1e-3))))
    r = ort_json(peer, e["path"], e["spec_path"], iters, 5, 1, ("--creates", "1", "--profile", prof))
    shutil.rmtree(prof, ignore_errors=True)
    ops = r["profile"]["kernel_time_by_op"]
    total = sum(o["ms_per_run"] for o in ops) or 1.0
    return [(100 * o["ms_per_run"] / total, o["op"]) for o in ops]


def profile(peer, e):
    if not shutil.which("perf"):
        return dict(name=e["name"], bough=None, ort=ort_profile(peer, e))
    return dict(name=e["name"], bough=bough_profile(e), ort=ort_profile(peer, e))


def print_breakdowns(rows):
    print("\n### Where the time goes (1 thread; bough: perf samples of leaf functions; "
          "ORT: its profiler's kernel time per op type)\n")
    print("| model | bough: categories | bough: top functions | ORT: top op types |")
    print("|---|---|---|---|")
    for r in rows:
        if r["bough"] is None:
            cats = syms = "perf not available"
        else:
            cats = ", ".join(f"{name} {p:.0f} %" for p, name in r["bough"]["categories"] if p >= 2)
            syms = ", ".join(f"`{s}` {p:.0f} %" for p, s in r["bough"]["top_symbols"] if p >= 2)
        ort = ", ".join(f"{op} {p:.0f} %" for p, op in r["ort"][:5] if p >= 2)
        print(f"| {r['name']} | {cats} | {syms} | {ort} |")
