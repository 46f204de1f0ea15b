#!/usr/bin/python3
"""A benchmark suite (bench/make-real-models, or the generator given, e.g. bench/make-cnn-models)
stays valid and runnable on bough.

Generates the suite into a temporary folder twice (the output must be byte-identical), then
for every benchmark: `bough check` must pass, `bough run` on inputs drawn as its spec says
must give every declared output with the declared shape and finite values, and where an
independent reference is cheap it must match: the GEMMs against numpy's A @ B, the NMS Loop
against a numpy greedy NMS, the decoder's present K/V against Concat(past, new) (cache full)
or a single new row (cache empty); the CNN suite's probabilities sum to 1 over their classes
and its detection maps lie in [0, 1]. Usage: real_models_test.py BOUGH_CLI [GENERATOR].
Exits 77 (skipped)
when onnx or numpy is not importable, 1 listing every problem.
"""
import json
import os
import subprocess
import sys
import tempfile

try:
    import numpy as np
    import onnx
    from onnx import numpy_helper
except ImportError:
    print("onnx or numpy is not importable: skipped")
    sys.exit(77)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEFAULT_GENERATOR = os.path.join(ROOT, "bench", "make-real-models")
DTYPES = {"float32": np.float32, "int64": np.int64, "bool": np.bool_}


def make_inputs(spec, folder):
    """Writes one .npy per input of the spec; random fills are uniform in [-1, 1) like ORT's."""
    values = {}
    for name, s in spec.items():
        shape = s["shape"]
        if "values" in s:
            a = np.full(shape, s["values"][0], DTYPES[s["dtype"]])
        else:
            a = np.random.default_rng(s["seed"]).uniform(-1, 1, shape).astype(DTYPES[s["dtype"]])
        np.save(os.path.join(folder, name + ".npy"), a)
        values[name] = a
    return values


def greedy_nms(boxes, scores, max_out=64, iou_t=0.3, score_t=0.2):
    """The model's NMS written directly: boxes (cx, cy, w, h), half sizes |w|/4, |h|/4."""
    cx, cy, w, h = boxes.T
    x1, x2 = cx - np.abs(w) * 0.25, cx + np.abs(w) * 0.25
    y1, y2 = cy - np.abs(h) * 0.25, cy + np.abs(h) * 0.25
    area = (x2 - x1) * (y2 - y1)
    cand = np.nonzero(scores > score_t)[0]
    selected = []
    while len(cand) and len(selected) < max_out:
        best = cand[np.argmax(scores[cand])]
        selected.append(best)
        iw = np.maximum(np.minimum(x2[cand], x2[best]) - np.maximum(x1[cand], x1[best]), 0)
        ih = np.maximum(np.minimum(y2[cand], y2[best]) - np.maximum(y1[cand], y1[best]), 0)
        inter = iw * ih
        cand = cand[inter / (area[cand] + area[best] - inter) < iou_t]
    return np.array(selected, np.int64)


def reference_problems(entry, model, inputs, outputs):
    name, problems = entry["name"], []
    if "gemm_flops" in entry:
        b = numpy_helper.to_array(model.graph.initializer[0]).astype(np.float64)
        want = inputs["A"].astype(np.float64) @ b
        if not np.allclose(outputs["Y"], want, rtol=1e-4, atol=1e-4):
            problems.append(f"{name}: Y differs from numpy's A @ B")
    elif name == "nms_loop":
        want = greedy_nms(inputs["boxes"], inputs["scores"])
        if not np.array_equal(outputs["selected"], want):
            problems.append(f"{name}: selected {outputs['selected']} != reference {want}")
        if not np.array_equal(outputs["selected_boxes"], inputs["boxes"][want]):
            problems.append(f"{name}: selected_boxes are not the selected rows")
    elif name.startswith("decoder"):
        for kind in ("key", "value"):
            for layer in range(3):
                past = inputs[f"past_{kind}_{layer}"]
                present = outputs[f"present_{kind}_{layer}"]
                if present.shape[2] != past.shape[2] + 1 or \
                        not np.array_equal(present[:, :, :past.shape[2]], past):
                    problems.append(f"{name}: present_{kind}_{layer} is not Concat(past, new)")
    elif "probs" in outputs:
        if not np.allclose(outputs["probs"].sum(axis=-1), 1, atol=1e-5):
            problems.append(f"{name}: probs do not sum to 1 over the classes")
    elif "maps" in outputs:
        if not (outputs["maps"].min() >= 0 and outputs["maps"].max() <= 1):
            problems.append(f"{name}: maps are not within [0, 1]")
    return problems


def check_entry(bough, folder, entry, work):
    problems = []
    path = os.path.join(folder, entry["model"])
    check = subprocess.run([bough, "check", path], capture_output=True, text=True)
    if check.returncode != 0:
        return [f"{entry['name']}: bough check failed: {check.stdout}{check.stderr}"]
    with open(os.path.join(folder, entry["spec"])) as f:
        inputs = make_inputs(json.load(f), work)
    flags = [x for n in inputs for x in ("--input", f"{n}={os.path.join(work, n + '.npy')}")]
    out_dir = os.path.join(work, "out")
    run = subprocess.run([bough, "run", path, *flags, "--output-dir", out_dir],
                         capture_output=True, text=True)
    if run.returncode != 0:
        return [f"{entry['name']}: bough run failed: {run.stderr}"]
    model = onnx.load(path)
    outputs = {}
    for o in model.graph.output:
        got = np.load(os.path.join(out_dir, o.name + ".npy"))
        outputs[o.name] = got
        dims = [d.dim_value if d.HasField("dim_value") else None for d in o.type.tensor_type.shape.dim]
        if len(dims) != got.ndim or any(d is not None and d != g for d, g in zip(dims, got.shape)):
            problems.append(f"{entry['name']}: output {o.name} has shape {got.shape}, declared {dims}")
        if got.dtype.kind == "f" and not np.all(np.isfinite(got)):
            problems.append(f"{entry['name']}: output {o.name} is not finite")
    return problems + reference_problems(entry, model, inputs, outputs)


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit("usage: real_models_test.py BOUGH_CLI [GENERATOR]")
    bough = sys.argv[1]
    generator = sys.argv[2] if len(sys.argv) == 3 else DEFAULT_GENERATOR
    with tempfile.TemporaryDirectory() as tmp:
        first, second = os.path.join(tmp, "a"), os.path.join(tmp, "b")
        for folder in (first, second):
            subprocess.run([generator, folder], check=True, capture_output=True)
        problems = [f"{f} differs between two runs of the generator" for f in sorted(os.listdir(first))
                    if open(os.path.join(first, f), "rb").read() != open(os.path.join(second, f), "rb").read()]
        with open(os.path.join(first, "suite.json")) as f:
            suite = json.load(f)
        for entry in suite:
            work = os.path.join(tmp, "run-" + entry["name"])
            os.makedirs(work)
            problems += check_entry(bough, first, entry, work)
    for p in problems:
        print(p)
    print(f"{len(suite) - len({p.split(':')[0] for p in problems})} passed, "
          f"{len({p.split(':')[0] for p in problems})} failed")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
