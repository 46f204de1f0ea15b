"""Element types through the module: what numpy lacks (bfloat16 here; float8 and int4 go the
same way but onnx 1.12 cannot write them), strings, swapped byte order."""
import numpy as np
import pytest
from onnx import TensorProto, helper

import bough
from conftest import EXAMPLE


def cast_model(path, elem_in, elem_out, shape):
    graph = helper.make_graph(
        [helper.make_node("Cast", ["x"], ["y"], to=elem_out)], "cast",
        [helper.make_tensor_value_info("x", elem_in, shape)],
        [helper.make_tensor_value_info("y", elem_out, shape)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    path.write_bytes(model.SerializeToString())
    return str(path)


def test_a_bfloat16_output_comes_back_as_float32(tmp_path):
    s = bough.InferenceSession(cast_model(tmp_path / "m.onnx", TensorProto.FLOAT,
                                          TensorProto.BFLOAT16, [3]))
    assert s.get_outputs()[0].type == "tensor(bfloat16)"
    (y,) = s.run(None, {"x": np.array([1.0, 3.14159274, -2.5], np.float32)})
    # pi is 0x40490FDB; to nearest bfloat16 (upper 16 bits, rounded) 0x4049 = 3.140625.
    assert y.dtype == np.float32
    np.testing.assert_array_equal(y, [1.0, 3.140625, -2.5])


def test_a_bfloat16_input_is_given_as_float32(tmp_path):
    s = bough.InferenceSession(cast_model(tmp_path / "m.onnx", TensorProto.BFLOAT16,
                                          TensorProto.FLOAT, [2]))
    (y,) = s.run(None, {"x": np.array([3.14159274, 0.5], np.float32)})
    np.testing.assert_array_equal(y, [3.140625, 0.5])


def test_strings_in_and_out(tmp_path):
    graph = helper.make_graph(
        [helper.make_node("Identity", ["x"], ["y"])], "strings",
        [helper.make_tensor_value_info("x", TensorProto.STRING, [2, 2])],
        [helper.make_tensor_value_info("y", TensorProto.STRING, [2, 2])])
    path = tmp_path / "s.onnx"
    path.write_bytes(helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", 17)]).SerializeToString())
    s = bough.InferenceSession(str(path))
    for x in (np.array([["a", "héllo"], ["", "z"]]),                     # numpy str
              np.array([["a", "héllo"], ["", "z"]], dtype=object),       # str objects
              np.array([[b"a", "héllo".encode()], [b"", b"z"]])):       # bytes
        (y,) = s.run(None, {"x": x})
        assert y.dtype == object and y.shape == (2, 2)
        assert y.tolist() == [["a", "héllo"], ["", "z"]]
    with pytest.raises(TypeError):
        s.run(None, {"x": np.array([[1, "a"], ["b", "c"]], dtype=object)})


def test_swapped_byte_order_is_converted():
    s = bough.InferenceSession(str(EXAMPLE))
    x = np.array([1, 2, 3], dtype=">f4")
    (y,) = s.run(["x_final"], {"x": x, "n": np.array(4, dtype=">i8")})
    np.testing.assert_array_equal(y, [1, 1.25, 1.5])


def test_a_dtype_bough_lacks_is_a_type_error():
    s = bough.InferenceSession(str(EXAMPLE))
    with pytest.raises(TypeError, match="datetime64|M8"):
        s.run(None, {"x": np.array(["2020-01-01"] * 3, dtype="datetime64[D]"),
                     "n": np.array(1)})


def test_version():
    assert bough.__version__.count(".") == 2
