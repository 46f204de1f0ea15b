"""bench/compare --suite real (or cnn): the models of bench/make-real-models (or
bench/make-cnn-models) on bough and on ONNX Runtime
(the peer's ort_run.js, onnxruntime-node 1.30, CPU), timed back to back in the same run.

How it measures, for each model, thread count and rep (the reps go round the whole suite, so a
drift in the machine's speed hits every model and both engines alike; the engine that goes
first alternates between reps):
- bough: `bough bench` (Session::run in C++), median and min of N runs after N/10 warm-ups.
- ORT: ort_run.js --api binding (the native binding called synchronously; --opt all, one
  session, intra-op threads = the same count), median and min of N runs, minus the same
  figures for the peer's one-Identity model measured in the same rep. That removes node's
  per-call cost (~5 us) and also ORT's own per-Run floor, so ORT's figure errs low, in ORT's
  favour. ORT still pays the copy of outputs into JS buffers (~1 % on gemm_1024, less elsewhere).
- N is chosen so each engine runs about --budget-ms per rep (at least 20 runs).
- ratio = bough time / ORT time: below 1 means bough is faster. A model's ratio is the median of
  its per-rep ratios; the suite's figure is the geometric mean of the models' ratios.
- Outputs: ORT's outputs on the spec's inputs are dumped, bough runs the same inputs, and every
  output must satisfy |bough - ORT| <= 1e-5 * max(1, max|ORT|) + 1e-4 * |ORT| elementwise (integer
  and bool outputs exactly). A mismatch or a failure prints MISMATCH / FAILED and the exit
  status is 1; the model is still timed when it ran.
- Peak RSS: the decoder run in a process of its own each (GNU time's maximum resident set), next to
  the same for the Identity model, whose peak is the engine's own floor (node + ORT's library,
  or bough's binary); "model" = peak - floor.
"""
import json
import math
import os
import statistics
import shutil
import subprocess
import sys
import tempfile

from benchlib import ROOT, bough_bench, bough_cli, input_flags, ort_json, output_errors, peak_rss_mib
import op_breakdown

RTOL, ATOL = 1e-4, 1e-5


def add_arguments(ap):
    ap.add_argument("--model", help="real suite: only these models (comma list)")
    ap.add_argument("--models-dir", help="real/cnn suite: where bench/make-real-models writes "
                    "(made if missing; default build/bench-models, build/cnn-models for cnn)")
    ap.add_argument("--budget-ms", type=float, default=200.0,
                    help="real suite: timed run time per engine, model, thread count and rep")
    ap.add_argument("--breakdown", action="store_true",
                    help="real suite: where bough's time goes per model (perf) and ORT's (profiler)")
    ap.add_argument("--no-rss", action="store_true", help="real suite: skip the peak RSS runs")
    ap.add_argument("--json", help="real suite: also write every measurement to this file")


GENERATORS = {"real": ("make-real-models", "bench-models"), "cnn": ("make-cnn-models", "cnn-models")}


def load_suite(kind, models_dir, only):
    generator, default_dir = GENERATORS[kind]
    models_dir = models_dir or os.path.join(ROOT, "build", default_dir)
    if not os.path.exists(os.path.join(models_dir, "suite.json")):
        subprocess.run([os.path.join(ROOT, "bench", generator), models_dir], check=True)
    with open(os.path.join(models_dir, "suite.json")) as f:
        suite = json.load(f)
    for e in suite:
        e["path"] = os.path.join(models_dir, e["model"])
        e["spec_path"] = os.path.join(models_dir, e["spec"])
    if only:
        wanted = only.split(",")
        unknown = [w for w in wanted if w not in {e["name"] for e in suite}]
        if unknown:
            sys.exit(f"unknown model {', '.join(unknown)}; the suite has "
                     f"{', '.join(e['name'] for e in suite)}")
        suite = [e for e in suite if e["name"] in wanted]
    return suite


def prepare(peer, e, work):
    """Dumps ORT's inputs and outputs, runs `bough check` and compares bough's outputs.
    Sets e['dump'], e['est_ms'] (ORT's median, for choosing N), e['status'], e['errors']."""
    e["dump"] = os.path.join(work, e["name"])
    r = ort_json(peer, e["path"], e["spec_path"], 20, 3, 1,
                 ("--api", "binding", "--creates", "1", "--dump", e["dump"]))
    e["est_ms"] = r["median_ms"]
    check = subprocess.run([bough_cli(), "check", e["path"]], capture_output=True, text=True)
    if check.returncode != 0:
        said = (check.stdout + check.stderr).strip().replace("\n", " ")[-300:]
        e["status"], e["errors"] = "FAILED: bough check: " + said, []
        return
    try:
        e["errors"] = output_errors(e["path"], e["dump"], RTOL, ATOL)
    except subprocess.CalledProcessError as err:
        e["status"], e["errors"] = "FAILED: bough run: " + err.stderr.strip()[-300:], []
        return
    bad = [name for name, _, ok in e["errors"] if not ok]
    e["status"] = "MISMATCH: " + ", ".join(bad) if bad else "ok"


def paired_reps(peer, suite, threads, reps, budget_ms):
    """Returns {(model, t): [(bough med, bough min, ORT med, ORT min), ...]} with the
    Identity floor already taken off ORT's figures."""
    identity = (os.path.join(peer, "models", "identity.onnx"),
                os.path.join(peer, "specs", "identity.json"))
    runs = {}
    for rep in range(reps):
        for t in threads:
            fl = ort_json(peer, *identity, 2000, 200, t, ("--api", "binding", "--creates", "1"))
            for e in suite:
                if e["status"].startswith("FAILED"):
                    continue
                iters = max(20, min(5000, int(budget_ms / max(e["est_ms"], 1e-3))))
                # Past the runs over which a session at 2 threads chooses per node and per run
                # (docs/threads.md): 32-41 for runs of 0.5 ms or more, which a tenth of the
                # iterations covers for shorter ones. Both engines get the same.
                warm = max(40, iters // 10)

                def run_bough():
                    return bough_bench(e["path"], e["dump"], iters, warm, t)

                def run_ort():
                    r = ort_json(peer, e["path"], e["spec_path"], iters, warm, t,
                                 ("--api", "binding", "--creates", "1"))
                    others = (r.get("noise") or {}).get("foreign_frac", float("nan"))
                    return r["median_ms"] - fl["median_ms"], r["min_ms"] - fl["min_ms"], others
                if rep % 2 == 0:
                    b, o = run_bough(), run_ort()
                else:
                    o, b = run_ort(), run_bough()
                runs.setdefault((e["name"], t), []).append((*b, *o))  # b0 b1 o0 o1 others
                print(f"  rep {rep + 1}/{reps} t={t} {e['name']}: bough {b[0]:.4f} ms, "
                      f"ORT {o[0]:.4f} ms", file=sys.stderr)
    return runs


def summarize(runs):
    rows = {}
    for key, rs in runs.items():
        rows[key] = dict(bough_ms=statistics.median(r[0] for r in rs),
                         ort_ms=statistics.median(r[2] for r in rs),
                         ratio=statistics.median(r[0] / r[2] for r in rs),
                         ratio_min=statistics.median(r[1] / r[3] for r in rs),
                         others=statistics.median(r[4] for r in rs), reps=len(rs))
    return rows


def geomean(values):
    values = list(values)
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else float("nan")


def rss_rows(peer, dec, threads, work):
    """Peak RSS (MiB) of the decoder and of the Identity floor, each engine, per thread count."""
    ident_model = os.path.join(peer, "models", "identity.onnx")
    ident_spec = os.path.join(peer, "specs", "identity.json")
    ident_dump = os.path.join(work, "identity")
    ort_json(peer, ident_model, ident_spec, 1, 0, 1, ("--creates", "1", "--dump", ident_dump))
    rows = []
    for t in threads:
        def bough_cmd(model, dump):
            return [bough_cli(), "bench", model, *input_flags(dump), "--iters", "50", "--warmup", "5",
                    "--threads", str(t)]

        def ort_cmd(model, spec):
            return ["node", "ort_run.js", model, "--inputs", spec, "--iters", "50", "--warmup", "5",
                    "--threads", str(t), "--opt", "all", "--api", "binding", "--creates", "1"]
        b = peak_rss_mib(bough_cmd(dec["path"], dec["dump"]))
        b0 = peak_rss_mib(bough_cmd(ident_model, ident_dump))
        o = peak_rss_mib(ort_cmd(dec["path"], dec["spec_path"]), cwd=peer)
        o0 = peak_rss_mib(ort_cmd(ident_model, ident_spec), cwd=peer)
        rows.append(dict(threads=t, bough=b, bough_floor=b0, ort=o, ort_floor=o0))
    return rows


def print_report(kind, suite, rows, threads, reps, rss, breakdown):
    print(f"\n## {kind.capitalize()} suite: bough vs ONNX Runtime, reps={reps}, threads {threads}, bough = {bough_cli()}")
    print("ratio = bough time / ORT time (below 1: bough faster); medians over reps of per-rep "
          "ratios; ORT time has the Identity floor taken off")
    print("\n### Outputs (bough vs ORT, |d| <= 1e-5*max(1,max|ORT|) + 1e-4*|ORT|)\n")
    print("| model | outputs | max abs diff | result |\n|---|---|---|---|")
    for e in suite:
        worst = max((err for _, err, _ in e["errors"]), default=float("nan"))
        print(f"| {e['name']} | {len(e['errors'])} | {worst:.2e} | {e['status']} |")
    print("\n### Time per run\n")
    print("others' CPU = CPU time other processes used during ORT's timed runs, as a share of "
          "the machine (from /proc/stat): the load the measurement shared the machine with\n")
    print("| model | threads | bough ms | ORT ms | bough/ORT (median) | bough/ORT (min) | "
          "others' CPU |\n|---|---|---|---|---|---|---|")
    for e in suite:
        for t in threads:
            r = rows.get((e["name"], t))
            if r:
                print(f"| {e['name']} | {t} | {r['bough_ms']:.4f} | {r['ort_ms']:.4f} | "
                      f"{r['ratio']:.3f} | {r['ratio_min']:.3f} | {100 * r['others']:.0f} % |")
    print()
    for t in threads:
        graphs = [rows[(e["name"], t)]["ratio"] for e in suite
                  if "gemm_flops" not in e and (e["name"], t) in rows]
        every = [rows[(e["name"], t)]["ratio"] for e in suite if (e["name"], t) in rows]
        print(f"geometric mean of bough/ORT, {t} thread(s): {geomean(graphs):.3f} over the "
              f"{len(graphs)} model graphs, {geomean(every):.3f} over all {len(every)} models")
    gemms = [e for e in suite if "gemm_flops" in e]
    if gemms:
        print("\n### GEMM throughput (GFLOP/s from the median time; ratio = bough/ORT "
              "throughput, above 1: bough faster)\n")
        print("| shape | threads | bough GFLOP/s | ORT GFLOP/s | bough/ORT throughput |")
        print("|---|---|---|---|---|")
        for e in gemms:
            for t in threads:
                r = rows.get((e["name"], t))
                if r:
                    gb, go = e["gemm_flops"] / r["bough_ms"] / 1e6, e["gemm_flops"] / r["ort_ms"] / 1e6
                    print(f"| {e['name'][5:]} | {t} | {gb:.1f} | {go:.1f} | {1 / r['ratio']:.3f} |")
    if rss:
        print("\n### Peak RSS, decoder (MiB; floor = the same engine running a one-Identity "
              "model; model = peak - floor)\n")
        print("| threads | bough peak | ORT peak | bough/ORT peak | bough floor | ORT floor | "
              "bough model | ORT model | bough/ORT model |\n|---|---|---|---|---|---|---|---|---|")
        for r in rss:
            bm, om = r["bough"] - r["bough_floor"], r["ort"] - r["ort_floor"]
            print(f"| {r['threads']} | {r['bough']:.1f} | {r['ort']:.1f} | {r['bough'] / r['ort']:.2f} "
                  f"| {r['bough_floor']:.1f} | {r['ort_floor']:.1f} | {bm:.1f} | {om:.1f} | "
                  f"{bm / om:.2f} |")
    if breakdown:
        op_breakdown.print_breakdowns(breakdown)


def run(args, peer):
    threads = [int(t) for t in (args.threads or "1,2").split(",")]
    kind = "cnn" if args.suite == "cnn" else "real"
    suite = load_suite(kind, args.models_dir, args.model)
    # Dumps and profiles of this run only: several people may run the suite at once.
    work = tempfile.mkdtemp(prefix="bough-real-")
    try:
        return run_in(args, peer, threads, kind, suite, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def run_in(args, peer, threads, kind, suite, work):
    print(f"bough: {bough_cli()}", file=sys.stderr)
    for e in suite:
        prepare(peer, e, work)
        if e["status"] != "ok":
            print(f"*** {e['status']} on {e['name']} ***", file=sys.stderr)
    rows = summarize(paired_reps(peer, suite, threads, args.reps, args.budget_ms))
    dec = [e for e in suite if e["name"] == "decoder" and not e["status"].startswith("FAILED")]
    rss = rss_rows(peer, dec[0], threads, work) if dec and not args.no_rss else []
    breakdown = ([op_breakdown.profile(peer, e) for e in suite if not e["status"].startswith("FAILED")]
                 if args.breakdown else [])
    print_report(kind, suite, rows, threads, args.reps, rss, breakdown)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(dict(models=suite,
                           rows=[dict(model=m, threads=t, **r) for (m, t), r in rows.items()],
                           rss=rss, breakdown=breakdown), f, indent=1)
    failed = [e["name"] for e in suite if e["status"] != "ok"]
    if failed:
        print(f"\n*** bough FAILED or MISMATCHED on: {', '.join(failed)} ***")
    return 1 if failed else 0
