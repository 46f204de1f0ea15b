"""A script as onnxruntime users write it, run with only its import changed: session options,
providers, get_inputs, run, run options, an io_binding loop, OrtValues, model metadata and
the profile, which is parsed and checked as tools read ONNX Runtime's."""
import json
import os
import threading
import warnings

import numpy as np
import pytest

import classifier

SCRIPT = '''
import json
import numpy as np
import onnxruntime as ort

so = ort.SessionOptions()
so.intra_op_num_threads = 2
so.inter_op_num_threads = 1
so.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
so.log_severity_level = 3
so.enable_profiling = True
so.profile_file_prefix = PROFILE_PREFIX

providers = [p for p in ["CUDAExecutionProvider", "CPUExecutionProvider"]
             if p in ort.get_available_providers()]
sess = ort.InferenceSession(MODEL_PATH, sess_options=so, providers=providers)
print("device:", ort.get_device(), "version:", ort.__version__, sess.get_providers())

inp = sess.get_inputs()[0]
features = inp.shape[1]
x = np.random.default_rng(0).standard_normal((5, features)).astype(np.float32)
output_names = [o.name for o in sess.get_outputs()]
probs, logits = sess.run(output_names, {inp.name: x})
everything = sess.run(None, {inp.name: x})

run_options = ort.RunOptions()
run_options.log_severity_level = 3
run_options.logid = "one-run"
(halved,) = sess.run(["logits"], {inp.name: x, "scale": np.array(0.25, np.float32)},
                     run_options)

meta = sess.get_modelmeta()
meta_fields = {"producer_name": meta.producer_name, "graph_name": meta.graph_name,
               "domain": meta.domain, "description": meta.description,
               "graph_description": meta.graph_description, "version": meta.version,
               "custom_metadata_map": meta.custom_metadata_map}

binding = sess.io_binding()
looped = []
for i in range(3):
    batch = x[: i + 1] * (i + 1)
    binding.bind_cpu_input(inp.name, batch)
    binding.bind_output("probs")
    sess.run_with_iobinding(binding)
    looped.append((batch, binding.copy_outputs_to_cpu()[0]))

x_value = ort.OrtValue.ortvalue_from_numpy(x)
(logits_value,) = sess.run_with_ort_values(["logits"], {inp.name: x_value})
logits_again = logits_value.numpy()

profile_file = sess.end_profiling()
with open(profile_file) as f:
    profile = json.load(f)
'''


def run_script(tmp_path):
    source = SCRIPT.replace("import onnxruntime as ort", "import bough as ort")
    assert sum(a != b for a, b in zip(source.splitlines(), SCRIPT.splitlines())) == 1
    path = tmp_path / "classifier.onnx"
    path.write_bytes(classifier.model().SerializeToString())
    scope = {"MODEL_PATH": str(path), "PROFILE_PREFIX": str(tmp_path / "profile")}
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # nothing in the script is ignored or unavailable
        exec(compile(source, "ort_script.py", "exec"), scope)
    return scope


def test_the_script_computes_what_numpy_computes(tmp_path):
    s = run_script(tmp_path)
    x = s["x"]
    probs, logits = classifier.reference(x)
    np.testing.assert_allclose(s["probs"], probs, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(s["logits"], logits, rtol=1e-5, atol=1e-5)
    assert s["probs"].dtype == np.float32 and s["probs"].shape == (5, 3)
    for got, want in zip(s["everything"], (s["probs"], s["logits"])):
        np.testing.assert_array_equal(got, want)
    np.testing.assert_allclose(s["halved"], classifier.reference(x, 0.25)[1], rtol=1e-5,
                               atol=1e-5)
    for batch, got in s["looped"]:
        np.testing.assert_allclose(got, classifier.reference(batch)[0], rtol=1e-5, atol=1e-6)
    assert [got.shape for _, got in s["looped"]] == [(1, 3), (2, 3), (3, 3)]
    np.testing.assert_array_equal(s["logits_again"], s["logits"])


def test_the_script_reads_the_models_description(tmp_path):
    s = run_script(tmp_path)
    assert s["meta_fields"] == classifier.METADATA
    assert s["inp"].name == "x" and s["inp"].type == "tensor(float)"
    assert s["inp"].shape == ["batch", 4]
    assert s["output_names"] == ["probs", "logits"]
    assert s["sess"].get_providers() == ["CPUExecutionProvider"]


def test_the_profile_is_onnxruntimes_format(tmp_path):
    s = run_script(tmp_path)
    name = s["profile_file"]
    assert name.startswith(str(tmp_path / "profile") + "_") and name.endswith(".json")
    events = s["profile"]
    assert isinstance(events, list)
    for e in events:
        assert set(e) == {"cat", "pid", "tid", "dur", "ts", "ph", "name", "args"}, e
        assert isinstance(e["ts"], int) and isinstance(e["dur"], int)
        assert e["ts"] >= 0 and e["dur"] >= 0
    # bough's summary per operator comes last, as metadata; the rest are ONNX Runtime's.
    assert events[-1]["name"] == "bough_op_summary" and events[-1]["ph"] == "M"
    assert events[-1]["cat"] == "Summary" and events[-1]["dur"] == 0
    for e in events[:-1]:
        assert e["ph"] == "X" and e["cat"] in ("Session", "Node")
        shapes = {"input_type_shape", "output_type_shape"}
        assert all(isinstance(v, str) for k, v in e["args"].items() if k not in shapes)
        assert all(isinstance(e["args"][k], list) for k in shapes & set(e["args"]))
    assert [e["ts"] for e in events] == sorted(e["ts"] for e in events)
    assert events[0]["name"] == "session_initialization"
    # The script ran on this thread: every event says so.
    assert {(e["pid"], e["tid"]) for e in events} == {(os.getpid(), threading.get_native_id())}
    runs = [e for e in events if e["name"] == "model_run"]
    assert len(runs) == 2 + 1 + 3 + 1  # run x2, with run options, the loop, OrtValues
    nodes = [e for e in events if e["cat"] == "Node"]
    assert nodes
    for e in nodes:
        assert e["name"].endswith("_kernel_time")
        assert e["args"]["provider"] == "CPUExecutionProvider" and e["args"]["op_name"]
        assert e["args"]["place"].startswith("main/")
        # Within one run (ts and dur are rounded down to microseconds).
        assert any(r["ts"] <= e["ts"] and e["ts"] + e["dur"] <= r["ts"] + r["dur"] + 2
                   for r in runs), e
    # Profiling ended: a second call writes nothing, and runs are no longer recorded.
    assert s["sess"].end_profiling() == ""


def test_profile_node_events_carry_the_models_node_names(tmp_path):
    """Without optimization every node of the model runs once per run, named as in the
    model (ONNX Runtime 1.30 names them so); the basic level folds the weight doubling away."""
    import bough as ort
    path = tmp_path / "classifier.onnx"
    path.write_bytes(classifier.model().SerializeToString())
    x = np.ones((2, 4), np.float32)
    for level, expected in ((ort.GraphOptimizationLevel.ORT_DISABLE_ALL, classifier.NODES),
                            (ort.GraphOptimizationLevel.ORT_ENABLE_BASIC,
                             [n for n in classifier.NODES if n != "w2_double"])):
        so = ort.SessionOptions()
        so.graph_optimization_level = level
        so.enable_profiling = True
        so.profile_file_prefix = str(tmp_path / level.name)
        sess = ort.InferenceSession(str(path), so)
        for _ in range(2):
            sess.run(None, {"x": x})
        with open(sess.end_profiling()) as f:
            nodes = [e for e in json.load(f) if e["cat"] == "Node"]
        names = sorted(e["name"] for e in nodes)
        assert names == sorted(n + "_kernel_time" for n in expected * 2), level
        ops = {e["name"]: e["args"]["op_name"] for e in nodes}
        assert ops["fc1_kernel_time"] == "MatMul" and ops["softmax_kernel_time"] == "Softmax"
    # The extended level is bough's 'all', as ORT_ENABLE_ALL: the bias Add is fused away too.
    for level in (ort.GraphOptimizationLevel.ORT_ENABLE_EXTENDED,
                  ort.GraphOptimizationLevel.ORT_ENABLE_ALL):
        so = ort.SessionOptions()
        so.graph_optimization_level = level
        so.enable_profiling = True
        so.profile_file_prefix = str(tmp_path / level.name)
        sess = ort.InferenceSession(str(path), so)
        sess.run(None, {"x": x})
        with open(sess.end_profiling()) as f:
            names = {e["name"] for e in json.load(f) if e["cat"] == "Node"}
        assert "fc1_kernel_time" in names and "fc1_bias_kernel_time" not in names, level
        assert "w2_double_kernel_time" not in names, level


def test_profile_node_events_carry_onnxruntimes_shapes_and_sizes(tmp_path):
    """Unoptimized, with x: float[2, 4]. Sizes are bytes: parameters are the initializers a
    run cannot override (`scale` can: an activation), activations the other inputs."""
    import bough as ort
    path = tmp_path / "classifier.onnx"
    path.write_bytes(classifier.model().SerializeToString())
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    so.enable_profiling = True
    so.profile_file_prefix = str(tmp_path / "shapes")
    sess = ort.InferenceSession(str(path), so)
    for _ in range(3):
        sess.run(None, {"x": np.ones((2, 4), np.float32)})
    with open(sess.end_profiling()) as f:
        events = json.load(f)
    args = {e["name"][:-len("_kernel_time")]: e["args"] for e in events if e["cat"] == "Node"}

    def f(*dims):
        return {"float": list(dims)}

    expected = {  # name: inputs, outputs, activation, parameter and output bytes
        "fc1": ([f(2, 4), f(4, 8)], [f(2, 8)], 32, 128, 64),
        "fc1_bias": ([f(2, 8), f(8)], [f(2, 8)], 64, 32, 64),
        "relu": ([f(2, 8)], [f(2, 8)], 64, 0, 64),
        "w2_double": ([f(8, 3), f()], [f(8, 3)], 0, 100, 96),
        "fc2": ([f(2, 8), f(8, 3)], [f(2, 3)], 64 + 96, 0, 24),
        "fc2_bias": ([f(2, 3), f(3)], [f(2, 3)], 24, 12, 24),
        "scaled": ([f(2, 3), f()], [f(2, 3)], 24 + 4, 0, 24),
        "softmax": ([f(2, 3)], [f(2, 3)], 24, 0, 24),
    }
    assert set(args) == set(expected)
    for name, (inputs, outputs, activation, parameter, output) in expected.items():
        a = args[name]
        assert a["input_type_shape"] == inputs and a["output_type_shape"] == outputs, name
        assert (a["activation_size"], a["parameter_size"], a["output_size"]) == (
            str(activation), str(parameter), str(output)), name
    summary = events[-1]["args"]
    calls = {op["op"]: op["calls"] for op in summary["ops"]}
    assert calls == {"MatMul": 6, "Add": 6, "Relu": 3, "Mul": 6, "Softmax": 3}
    totals = [op["total_ns"] for op in summary["ops"]]
    assert totals == sorted(totals, reverse=True)
    assert summary["runs_ns"] >= sum(totals)
    assert 0 < sum(op["share"] for op in summary["ops"]) <= 100.5


@pytest.mark.parametrize("level, name", [(0, "ORT_DISABLE_ALL"), (1, "ORT_ENABLE_BASIC"),
                                         (2, "ORT_ENABLE_EXTENDED"), (99, "ORT_ENABLE_ALL")])
def test_graph_optimization_levels_are_onnxruntimes(level, name):
    import bough as ort
    assert ort.GraphOptimizationLevel[name] == level
    default = ort.SessionOptions().graph_optimization_level
    assert default is ort.GraphOptimizationLevel.ORT_ENABLE_ALL
