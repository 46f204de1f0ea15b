"""ONNX Runtime's Python API one name at a time: what each option does or that it warns, the
providers' fallback, model containers, RunOptions.terminate across threads, and what
io_binding and OrtValue share rather than copy."""
import sys
import threading
import time
import warnings

import numpy as np
import onnx
import pytest

import bough as ort
import classifier
from conftest import EXAMPLE

FEED = {"x": np.array([1, 2, 3], np.float32), "n": np.array(4)}
FINAL = [1, 1.25, 1.5]  # examples/if_loop.onnx on FEED: +1, /2, +1, /2


def test_module_level_names():
    assert ort.get_available_providers() == ["CPUExecutionProvider"]
    assert ort.get_all_providers() == ["CPUExecutionProvider"]
    assert ort.get_device() == "CPU"
    assert isinstance(ort.__version__, str) and ort.__version__[0].isdigit()
    ort.set_default_logger_severity(3)
    with pytest.raises(ValueError):
        ort.set_default_logger_severity(7)
    assert repr(ort.Error) == "<class 'bough.Error'>"


def test_another_provider_falls_back_to_the_cpu_with_onnxruntimes_warning():
    with pytest.warns(UserWarning) as caught:
        s = ort.InferenceSession(str(EXAMPLE), providers=[
            ("CUDAExecutionProvider", {"device_id": 0}), "CPUExecutionProvider"])
    assert len(caught) == 1
    assert str(caught[0].message).startswith(
        "Specified provider 'CUDAExecutionProvider' is not in available provider names.")
    assert caught[0].filename == __file__  # pointed at the caller
    assert s.get_providers() == ["CPUExecutionProvider"]
    np.testing.assert_array_equal(s.run(["x_final"], FEED)[0], FINAL)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ort.InferenceSession(str(EXAMPLE), providers=["CPUExecutionProvider"])
    with pytest.raises(ValueError, match="sequence"):
        ort.InferenceSession(str(EXAMPLE), providers="CPUExecutionProvider")
    with pytest.raises(ValueError, match="same length"):
        ort.InferenceSession(str(EXAMPLE), providers=["CPUExecutionProvider"],
                             provider_options=[{}, {}])


def test_the_model_may_be_a_path_bytes_or_a_model_proto(tmp_path):
    proto = onnx.load(str(EXAMPLE))
    for source in (str(EXAMPLE), EXAMPLE, EXAMPLE.read_bytes(), bytearray(EXAMPLE.read_bytes()),
                   proto):
        s = ort.InferenceSession(source)
        np.testing.assert_array_equal(s.run(["x_final"], FEED)[0], FINAL)
    assert ort.check(proto) == []
    for wrong in (42, None, ["model.onnx"]):
        with pytest.raises(TypeError, match="path_or_bytes must be a path.*not "
                                            "(int|NoneType|list)"):
            ort.InferenceSession(wrong)
    with pytest.raises(TypeError, match="model must be a path"):
        ort.check(3.5)
    with pytest.raises(TypeError, match="sess_options must be a bough.SessionOptions"):
        ort.InferenceSession(str(EXAMPLE), {"intra_op_num_threads": 2})


def test_session_options_are_checked_as_they_are_set():
    so = ort.SessionOptions()
    assert (so.intra_op_num_threads, so.inter_op_num_threads, so.enable_profiling) == (0, 0, False)
    assert so.profile_file_prefix == "onnxruntime_profile_"
    assert so.execution_mode == ort.ExecutionMode.ORT_SEQUENTIAL
    with pytest.raises(AttributeError, match="intra_op_num_thread"):
        so.intra_op_num_thread = 4  # misspelled
    with pytest.raises(TypeError, match="intra_op_num_threads must be int"):
        so.intra_op_num_threads = "4"
    with pytest.raises(TypeError, match="graph_optimization_level"):
        so.graph_optimization_level = 5
    so.graph_optimization_level = 1
    assert so.graph_optimization_level is ort.GraphOptimizationLevel.ORT_ENABLE_BASIC
    so.add_session_config_entry("session.intra_op.allow_spinning", "0")
    assert so.get_session_config_entry("session.intra_op.allow_spinning") == "0"
    with pytest.raises(RuntimeError, match="does not have configuration with key: nope"):
        so.get_session_config_entry("nope")
    so.intra_op_num_threads = -1
    with pytest.raises(ValueError, match="intra_op_num_threads"):
        ort.InferenceSession(str(EXAMPLE), so)


def test_settings_bough_has_no_equivalent_for_give_one_warning():
    so = ort.SessionOptions()
    so.inter_op_num_threads = 4
    so.execution_mode = ort.ExecutionMode.ORT_PARALLEL
    so.enable_mem_pattern = False
    so.add_session_config_entry("session.intra_op.allow_spinning", "0")
    so.log_severity_level = 0  # bough writes no log: nothing to ignore
    with pytest.warns(UserWarning) as caught:
        s = ort.InferenceSession(str(EXAMPLE), so)
    assert len(caught) == 1
    text = str(caught[0].message)
    for part in ("inter_op_num_threads=4", "execution_mode=", "enable_mem_pattern=False",
                 "'session.intra_op.allow_spinning'='0'"):
        assert part in text
    assert "log_severity_level" not in text and caught[0].filename == __file__
    np.testing.assert_array_equal(s.run(["x_final"], FEED)[0], FINAL)
    assert s.get_session_options() is so


def test_optimization_comes_from_the_options_unless_given(tmp_path):
    path = tmp_path / "classifier.onnx"
    path.write_bytes(classifier.model().SerializeToString())
    so = ort.SessionOptions()
    so.intra_op_num_threads = 2
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    so.optimized_model_filepath = str(tmp_path / "optimized.onnx")
    x = np.random.default_rng(1).standard_normal((3, 4)).astype(np.float32)
    for optimization, doubling_left in ((None, True), ("basic", False)):
        s = ort.InferenceSession(str(path), so, threads=1, optimization=optimization)
        probs, logits = s.run([], {"x": x})  # [] is every output, as in onnxruntime
        np.testing.assert_allclose(logits, classifier.reference(x)[1], rtol=1e-5, atol=1e-5)
        # The model as optimized: ORT_DISABLE_ALL leaves the doubling, basic folds it.
        written = onnx.load(so.optimized_model_filepath)
        assert ("w2_double" in [n.name for n in written.graph.node]) == doubling_left
    assert [i.name for i in s.get_overridable_initializers()] == ["scale"]
    assert [i.name for i in s.get_inputs()] == ["x"]


def test_terminate_stops_a_run_from_another_thread():
    s = ort.InferenceSession(str(EXAMPLE))
    options = ort.RunOptions()
    assert options.terminate is False
    long_feed = {"x": np.ones(3, np.float32), "n": np.array(50_000_000)}  # many seconds

    def stop_soon():
        time.sleep(0.2)
        options.terminate = True

    stopper = threading.Thread(target=stop_soon)
    stopper.start()
    started = time.monotonic()
    with pytest.raises(ort.Error) as e:
        s.run(["x_final"], long_feed, options)
    stopper.join()
    # Stopped by the session's cancel mid-run (not by the check after a run that finished).
    assert e.value.kind == "stopped" and "cancelled" in str(e.value)
    assert time.monotonic() - started < 30
    # While terminate is set, a run stops at once; cleared, the options run again.
    with pytest.raises(ort.Error, match="RunOptions.terminate") as e:
        s.run(["x_final"], FEED, options)
    assert e.value.kind == "stopped"
    options.terminate = False
    np.testing.assert_array_equal(s.run(["x_final"], FEED, options)[0], FINAL)
    with pytest.raises(TypeError, match="run_options must be a bough.RunOptions"):
        s.run(None, FEED, {"terminate": False})


def test_terminate_stops_every_run_using_the_options():
    """ONNX Runtime's terminate stops all the calls in progress with these options: here two
    sessions' runs on two threads, while a third run with other options finishes."""
    sessions = [ort.InferenceSession(str(EXAMPLE)) for _ in range(3)]
    options = ort.RunOptions()
    errors, results = [], []

    def run(session, n, run_options):
        try:
            results.append(session.run(["x_final"], {"x": np.zeros(3, np.float32),
                                                     "n": np.array(n)}, run_options)[0])
        except ort.Error as e:
            errors.append(e)

    runners = [threading.Thread(target=run, args=(s, 50_000_000, options)) for s in sessions[:2]]
    # About a second: still running when terminate is set.
    runners.append(threading.Thread(target=run, args=(sessions[2], 3_000_000, ort.RunOptions())))
    for t in runners:
        t.start()
    time.sleep(0.3)
    options.terminate = True
    for t in runners:
        t.join()
    assert len(errors) == 2 and all(e.kind == "stopped" for e in errors)
    # Pairs of steps x -> (x + 1) / 2 from 0 reach 1 in float32 within 30 pairs, and stay.
    assert len(results) == 1 and results[0].tolist() == [1, 1, 1]


def test_run_options_fields():
    options = ort.RunOptions()
    options.log_severity_level = 4
    options.logid = "tag"
    options.add_run_config_entry("memory.enable_memory_arena_shrinkage", "cpu:0")
    assert options.get_run_config_entry("memory.enable_memory_arena_shrinkage") == "cpu:0"
    with pytest.raises(AttributeError):
        options.terminated = True


def test_io_binding_reads_inputs_in_place_and_shares_outputs():
    s = ort.InferenceSession(str(EXAMPLE))
    binding = s.io_binding()
    x = np.ones(3, np.float32)
    binding.bind_cpu_input("x", x)
    binding.bind_cpu_input("n", np.array(3_000_000))
    binding.bind_output("x_all")
    binding.bind_output("x_final")
    before = sys.getrefcount(x)
    seen = []
    runner = threading.Thread(target=s.run_with_iobinding, args=(binding,))
    runner.start()
    time.sleep(0.05)  # the run has taken its inputs and released the GIL by now
    seen.append(sys.getrefcount(x))
    runner.join()
    assert seen[0] == before + 1  # the run's tensor holds the array itself: no copy
    x_all, x_final = binding.copy_outputs_to_cpu()
    assert x_all.shape == (3_000_000, 3) and x_final.shape == (3,)
    assert type(x_final.base).__name__ == "PyCapsule"  # over bough's buffer
    values = binding.get_outputs()
    assert [v.shape() for v in values] == [[3_000_000, 3], [3]]
    assert values[1].data_type() == "tensor(float)" and values[1].device_name() == "cpu"
    assert np.shares_memory(values[1].numpy(), x_final)


def test_outputs_bound_to_the_callers_memory_are_filled():
    s = ort.InferenceSession(str(EXAMPLE))
    binding = s.io_binding()
    target = ort.OrtValue.ortvalue_from_shape_and_type([3], np.float32)
    raw = np.zeros((4, 3), np.float32)
    binding.bind_ortvalue_input("x", ort.OrtValue.ortvalue_from_numpy(FEED["x"]))
    binding.bind_cpu_input("n", FEED["n"])
    binding.bind_ortvalue_output("x_final", target)
    binding.bind_output("x_all", "cpu", 0, np.float32, [4, 3], raw.ctypes.data)
    s.run_with_iobinding(binding)
    np.testing.assert_array_equal(target.numpy(), FINAL)
    np.testing.assert_array_equal(raw[3], FINAL)
    final, everything = binding.copy_outputs_to_cpu()
    assert np.shares_memory(final, target.numpy()) and np.shares_memory(everything, raw)
    binding.bind_cpu_input("n", np.array(2))
    with pytest.raises(ValueError, match="x_all"):  # two rows do not fit four
        s.run_with_iobinding(binding)
    with pytest.raises(ValueError, match="CPU only"):
        binding.bind_output("x_all", "cuda")


def test_an_ortvalue_shares_its_arrays_buffer():
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    v = ort.OrtValue.ortvalue_from_numpy(x)
    assert np.shares_memory(v.numpy(), x) and v.data_ptr() == x.ctypes.data
    assert v.shape() == [2, 3] and v.element_type() is np.float32 and v.is_tensor()
    assert [ort.OrtValue.ortvalue_from_numpy(np.array(a)).data_type()
            for a in (1.0, 1, True, "s")] == ["tensor(double)", "tensor(int64)",
                                              "tensor(bool)", "tensor(string)"]
    x[0, 0] = 7
    assert v.numpy()[0, 0] == 7
    with pytest.raises(ValueError, match="CPU only"):
        ort.OrtValue.ortvalue_from_numpy(x, "cuda", 0)
