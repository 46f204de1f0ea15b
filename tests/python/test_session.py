"""bough.InferenceSession on the bundled example: inputs, outputs, types, errors, threads."""
import os
import threading
from pathlib import Path

import numpy as np
import pytest

import bough
from conftest import EXAMPLE


def expected_if_loop(x, n):
    """A reference loop for examples/if_loop.onnx: even iterations add 1, odd ones halve."""
    x = np.array(x, np.float32)
    states = []
    for i in range(n):
        x = x + np.float32(1) if i % 2 == 0 else x * np.float32(0.5)
        states.append(x)
    return x, np.array(states, np.float32).reshape(n, 3)


def test_runs_the_example_from_a_path():
    s = bough.InferenceSession(str(EXAMPLE))
    x_final, x_all = s.run(None, {"x": np.array([1, 2, 3], np.float32), "n": np.array(4)})
    ref_final, ref_all = expected_if_loop([1, 2, 3], 4)
    np.testing.assert_array_equal(x_final, [1, 1.25, 1.5])
    np.testing.assert_array_equal(x_final, ref_final)
    np.testing.assert_array_equal(x_all, ref_all)
    assert x_final.dtype == np.float32 and x_all.shape == (4, 3)


def test_loads_from_bytes_and_from_a_path_object():
    feed = {"x": np.array([0, 0, 0], np.float32), "n": np.array(3, np.int64)}
    from_bytes = bough.InferenceSession(EXAMPLE.read_bytes())
    from_path = bough.InferenceSession(EXAMPLE)  # os.PathLike
    for s in (from_bytes, from_path):
        np.testing.assert_array_equal(s.run(["x_final"], feed)[0], expected_if_loop([0] * 3, 3)[0])


def test_inputs_and_outputs_like_ort_node_args():
    s = bough.InferenceSession(str(EXAMPLE))
    inputs = {a.name: a for a in s.get_inputs()}
    assert list(inputs) == ["x", "n"]
    assert inputs["x"].type == "tensor(float)" and inputs["x"].shape == [3]
    assert inputs["n"].type == "tensor(int64)" and inputs["n"].shape == []
    outputs = s.get_outputs()
    assert [o.name for o in outputs] == ["x_final", "x_all"]
    assert outputs[1].type == "tensor(float)" and outputs[1].shape == ["n", 3]
    assert "x_all" in repr(outputs[1]) and "'n'" in repr(outputs[1])
    assert s.get_providers() == ["CPUExecutionProvider"]


def test_selects_outputs_by_name_in_the_order_asked():
    s = bough.InferenceSession(str(EXAMPLE))
    feed = {"x": np.ones(3, np.float32), "n": np.array(2)}
    x_all, x_final = s.run(["x_all", "x_final"], feed)
    assert x_all.shape == (2, 3) and x_final.shape == (3,)


def test_errors_carry_boughs_message_and_kind(tmp_path):
    with pytest.raises(bough.Error) as e:
        bough.InferenceSession(str(tmp_path / "missing.onnx"))
    assert "missing.onnx" in str(e.value) and e.value.kind == "io"
    assert isinstance(e.value, RuntimeError)

    bad = tmp_path / "bad.onnx"
    bad.write_bytes(b"not a model")
    with pytest.raises(bough.Error) as e:
        bough.InferenceSession(str(bad))
    assert "bad.onnx" in str(e.value)

    s = bough.InferenceSession(str(EXAMPLE))
    with pytest.raises(bough.Error) as e:
        s.run(None, {"x": np.ones(3, np.float64), "n": np.array(2)})
    assert "input 'x'" in str(e.value) and "float" in str(e.value)
    assert e.value.kind == "bad_input"
    with pytest.raises(bough.Error, match="missing input 'n'"):
        s.run(None, {"x": np.ones(3, np.float32)})
    with pytest.raises(bough.Error, match="no input named 'y'"):
        s.run(None, {"y": np.ones(3, np.float32)})
    with pytest.raises(bough.Error, match="no output named 'z'"):
        s.run(["z"], {"x": np.ones(3, np.float32), "n": np.array(1)})
    with pytest.raises(bough.Error, match="shape"):
        s.run(None, {"x": np.ones(4, np.float32), "n": np.array(1)})
    # The session is still usable after each error.
    np.testing.assert_array_equal(s.run(["x_final"], {"x": np.ones(3, np.float32),
                                                      "n": np.array(1)})[0], [2, 2, 2])


def test_threads_option_and_threads_sharing_a_session():
    s = bough.InferenceSession(str(EXAMPLE), threads=2)
    results = {}

    def work(k):
        x = np.full(3, k, np.float32)
        results[k] = [s.run(["x_final"], {"x": x, "n": np.array(k % 7)})[0] for _ in range(200)]

    threads = [threading.Thread(target=work, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for k, outs in results.items():
        ref = expected_if_loop([k] * 3, k % 7)[0]
        for y in outs:
            np.testing.assert_array_equal(y, ref)
    assert s.threads == 2
    with pytest.raises(ValueError, match="threads must be 0"):
        bough.InferenceSession(str(EXAMPLE), threads=-1)


def physical_cores():
    """The cores this process may run on, hardware threads of one core counted once."""
    cores = set()
    for cpu in os.sched_getaffinity(0):
        path = Path(f"/sys/devices/system/cpu/cpu{cpu}/topology/thread_siblings_list")
        cores.add(path.read_text().strip() if path.exists() else f"cpu{cpu}")
    return len(cores)


def test_threads_default_to_one_per_physical_core():
    """As ONNX Runtime's intra_op_num_threads = 0; 1 stays one thread."""
    assert bough.InferenceSession(str(EXAMPLE)).threads == physical_cores()
    assert bough.InferenceSession(str(EXAMPLE), threads=0).threads == physical_cores()
    assert bough.InferenceSession(str(EXAMPLE), threads=1).threads == 1
    so = bough.SessionOptions()
    assert bough.InferenceSession(str(EXAMPLE), so).threads == physical_cores()
    so.intra_op_num_threads = 1
    assert bough.InferenceSession(str(EXAMPLE), so).threads == 1
    so.intra_op_num_threads = 3
    s = bough.InferenceSession(str(EXAMPLE), so)
    assert s.threads == 3
    np.testing.assert_array_equal(s.run(["x_final"], {"x": np.array([1, 2, 3], np.float32),
                                                      "n": np.array(4)})[0], [1, 1.25, 1.5])
    # The keyword wins over the options.
    assert bough.InferenceSession(str(EXAMPLE), so, threads=2).threads == 2


def test_every_optimization_level_gives_the_same_results():
    x, n = [1, 2, 3], 5
    ref = expected_if_loop(x, n)
    for level in ("none", "basic", "all"):
        s = bough.InferenceSession(str(EXAMPLE), optimization=level)
        for got, want in zip(s.run(None, {"x": np.array(x, np.float32), "n": np.array(n)}), ref):
            np.testing.assert_array_equal(got, want)
    with pytest.raises(ValueError, match="optimization must be"):
        bough.InferenceSession(str(EXAMPLE), optimization="fast")


def test_releases_the_gil_while_running():
    # A run of 2M loop iterations takes a while; another Python thread keeps counting
    # meanwhile only if the run does not hold the GIL.
    s = bough.InferenceSession(str(EXAMPLE))
    counted = 0
    done = threading.Event()

    def count():
        nonlocal counted
        while not done.is_set():
            counted += 1

    t = threading.Thread(target=count)
    t.start()
    before = counted
    s.run(["x_final"], {"x": np.ones(3, np.float32), "n": np.array(2_000_000)})
    during = counted - before
    done.set()
    t.join()
    assert during > 1000


def test_an_onnxruntime_snippet_runs_after_changing_the_import():
    # Written for onnxruntime; only the import line differs ("import onnxruntime as ort").
    snippet = """
import numpy as np
import bough as ort

sess = ort.InferenceSession(MODEL, providers=["CPUExecutionProvider"])
input_name = sess.get_inputs()[0].name
feed = {input_name: np.array([1, 2, 3], dtype=np.float32), sess.get_inputs()[1].name: np.array(4)}
output_names = [o.name for o in sess.get_outputs()]
result = sess.run(output_names, feed)
final = result[0]
"""
    scope = {"MODEL": str(EXAMPLE)}
    exec(snippet, scope)
    np.testing.assert_array_equal(scope["final"], [1, 1.25, 1.5])


def test_an_output_named_twice_comes_back_in_two_buffers():
    s = bough.InferenceSession(str(EXAMPLE))
    feed = {"x": np.array([1, 2, 3], np.float32), "n": np.array(4)}
    a, b = s.run(["x_final", "x_final"], feed)
    np.testing.assert_array_equal(a, b)
    assert not np.shares_memory(a, b)
    a[0] = 100
    assert b[0] == 1


def test_warnings_are_returned():
    s = bough.InferenceSession(str(EXAMPLE))
    assert s.get_warnings() == []


# An OpenVINO accumulator: sum = ReadValue-6(acc, zeros at first) + x, Assign-6(acc, sum).
ACCUMULATOR_IR = """<?xml version="1.0"?>
<net name="acc" version="11"><layers>
<layer id="0" name="x" type="Parameter" version="opset1"><data shape="2" element_type="f32"/>
<output><port id="0" precision="FP32" names="x"><dim>2</dim></port></output></layer>
<layer id="1" name="read" type="ReadValue" version="opset6">
<data variable_id="acc" variable_type="f32" variable_shape="2"/>
<output><port id="0" precision="FP32"><dim>2</dim></port></output></layer>
<layer id="2" name="sum" type="Add" version="opset1">
<input><port id="0" precision="FP32"><dim>2</dim></port><port id="1" precision="FP32"><dim>2</dim></port></input>
<output><port id="2" precision="FP32" names="sum"><dim>2</dim></port></output></layer>
<layer id="3" name="assign" type="Assign" version="opset6"><data variable_id="acc"/>
<input><port id="0" precision="FP32"><dim>2</dim></port></input>
<output><port id="1" precision="FP32"><dim>2</dim></port></output></layer>
<layer id="4" name="sum/sink_port_0" type="Result" version="opset1">
<input><port id="0" precision="FP32"><dim>2</dim></port></input></layer>
</layers><edges>
<edge from-layer="1" from-port="0" to-layer="2" to-port="0"/>
<edge from-layer="0" from-port="0" to-layer="2" to-port="1"/>
<edge from-layer="2" from-port="2" to-layer="3" to-port="0"/>
<edge from-layer="2" from-port="2" to-layer="4" to-port="0"/>
</edges></net>
"""


def test_reset_state_starts_a_stateful_model_again(tmp_path):
    path = tmp_path / "acc.xml"
    path.write_text(ACCUMULATOR_IR)
    s = bough.InferenceSession(str(path))
    x = np.array([1, 2], np.float32)
    assert s.run(None, {"x": x})[0].tolist() == [1, 2]
    assert s.run(None, {"x": x})[0].tolist() == [2, 4]
    s.reset_state()
    assert s.run(None, {"x": x})[0].tolist() == [1, 2]
