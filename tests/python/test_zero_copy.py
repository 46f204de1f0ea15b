"""What the module copies: contiguous inputs of the right dtype are read in place, outputs
come back as arrays over bough's own buffers."""
import sys
import threading
import time

import numpy as np

import bough
from conftest import EXAMPLE

LONG_RUN = np.array(3_000_000)  # loop iterations: long enough to look at the input meanwhile


def refcount_during_a_run(x):
    """sys.getrefcount(x) seen from another thread while a long run reads x."""
    s = bough.InferenceSession(str(EXAMPLE))
    seen = []
    started = threading.Event()

    def run():
        started.set()
        s.run(["x_final"], {"x": x, "n": LONG_RUN})

    before = sys.getrefcount(x)
    t = threading.Thread(target=run)
    t.start()
    started.wait()
    time.sleep(0.05)  # the run has converted its inputs and released the GIL by now
    seen.append(sys.getrefcount(x))
    t.join()
    return before, seen[0], sys.getrefcount(x)


def test_a_contiguous_input_of_the_right_dtype_is_read_in_place():
    # The bough tensor over the array holds a reference to it for the length of the run
    # (and the feed dict one more); a copy would hold none.
    x = np.ones(3, np.float32)
    before, during, after = refcount_during_a_run(x)
    assert during == before + 2 and after == before


def test_a_strided_input_is_copied():
    x = np.ones(6, np.float32)[::2]
    assert not x.flags.c_contiguous
    before, during, after = refcount_during_a_run(x)
    assert during == before + 1 and after == before  # the feed dict's only


def test_outputs_are_views_of_boughs_buffers():
    s = bough.InferenceSession(str(EXAMPLE))
    x = np.array([1, 2, 3], np.float32)
    x_final, x_all = s.run(None, {"x": x, "n": np.array(4)})
    for y in (x_final, x_all):
        assert not y.flags.owndata  # the memory is not numpy's
        assert type(y.base).__name__ == "PyCapsule"  # it holds bough's tensor
        assert y.flags.writeable and y.flags.c_contiguous
        assert y.ctypes.data % 64 == 0  # bough's buffers start 64-byte aligned
    assert not np.shares_memory(x_final, x_all) and not np.shares_memory(x_final, x)
    # The arrays are the caller's: writing into one changes neither the next run nor x.
    x_final[:] = 99
    again = s.run(["x_final"], {"x": x, "n": np.array(4)})[0]
    np.testing.assert_array_equal(again, [1, 1.25, 1.5])
    np.testing.assert_array_equal(x, [1, 2, 3])


def test_an_output_outlives_its_session():
    s = bough.InferenceSession(str(EXAMPLE))
    y = s.run(["x_all"], {"x": np.zeros(3, np.float32), "n": np.array(2)})[0]
    del s
    np.testing.assert_array_equal(y, [[1, 1, 1], [0.5, 0.5, 0.5]])


def test_an_input_freed_by_the_caller_after_the_run_is_released():
    s = bough.InferenceSession(str(EXAMPLE))
    x = np.ones(3, np.float32)
    before = sys.getrefcount(x)
    for _ in range(100):
        s.run(None, {"x": x, "n": np.array(3)})
    assert sys.getrefcount(x) == before  # no reference leaked per run


def test_sequence_items_are_views_too(tmp_path):
    from onnx import TensorProto, helper
    graph = helper.make_graph(
        [helper.make_node("SequenceConstruct", ["a", "b"], ["s"])], "seq",
        [helper.make_tensor_value_info("a", TensorProto.FLOAT, [2]),
         helper.make_tensor_value_info("b", TensorProto.FLOAT, [3])],
        [helper.make_value_info("s", helper.make_sequence_type_proto(
            helper.make_tensor_type_proto(TensorProto.FLOAT, None)))])
    path = tmp_path / "seq.onnx"
    path.write_bytes(helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", 17)]).SerializeToString())
    s = bough.InferenceSession(str(path))
    assert s.get_outputs()[0].type == "seq(tensor(float))"
    a, b = np.array([1, 2], np.float32), np.array([3, 4, 5], np.float32)
    (items,) = s.run(None, {"a": a, "b": b})
    assert isinstance(items, list) and len(items) == 2
    np.testing.assert_array_equal(items[0], a)
    np.testing.assert_array_equal(items[1], b)
    for y in items:
        assert type(y.base).__name__ == "PyCapsule"
        assert not np.shares_memory(y, a) and not np.shares_memory(y, b)
