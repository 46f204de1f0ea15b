"""Hostile names and bytes through the module (issue 29): names that are not UTF-8 read as
str (surrogateescape) and find their value again; bool arrays holding bytes other than 0
and 1, numpy views among them, are read as numpy reads them (nonzero is true)."""
import numpy as np
from onnx import TensorProto, helper

import bough


def model_bytes(input_name, output_name, op="Identity", elem=TensorProto.FLOAT):
    """x -> op -> y with the names replaced, bytes for bytes, after serializing (onnx's
    Python API takes str names only). The placeholders have the names' lengths."""
    x, y = "X" * len(input_name), "Y" * len(output_name)
    graph = helper.make_graph([helper.make_node(op, [x], [y])], "g",
                              [helper.make_tensor_value_info(x, elem, [4])],
                              [helper.make_tensor_value_info(y, elem, [4])])
    data = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]).SerializeToString()
    return data.replace(x.encode(), input_name).replace(y.encode(), output_name)


def test_names_that_are_not_utf8_read_and_find_their_value():
    s = bough.InferenceSession(model_bytes(b"in\xff\x00", b"out\xfe\n"))
    (inp,) = s.get_inputs()  # raised UnicodeDecodeError
    (out,) = s.get_outputs()
    assert inp.name == "in\udcff\x00" and out.name == "out\udcfe\n"
    assert "in\\udcff\\x00" in repr(inp)
    x = np.array([1, 2, 3, 4], np.float32)
    (y,) = s.run([out.name], {inp.name: x})
    np.testing.assert_array_equal(y, x)


def test_an_error_naming_a_non_utf8_value_is_a_bough_error():
    s = bough.InferenceSession(model_bytes(b"in\xff", b"out"))
    try:
        s.run(None, {"in\udcfe": np.zeros(4, np.float32)})
    except bough.Error as e:
        assert e.kind == "bad_input" and "\\xfe" in str(e)
    else:
        raise AssertionError("no error")


def test_bool_bytes_other_than_0_and_1_are_true():
    s = bough.InferenceSession(model_bytes(b"a", b"y", "Not", TensorProto.BOOL),
                               optimization="none")
    raw = np.array([0, 1, 2, 255], np.uint8)
    for a in (raw.view(np.bool_), raw.view(np.bool_)[::-1][::-1],
              np.frombuffer(raw.tobytes(), np.bool_)):  # a read-only view
        (y,) = s.run(None, {"a": a})
        np.testing.assert_array_equal(y, [True, False, False, False])
    np.testing.assert_array_equal(raw, [0, 1, 2, 255])  # the caller's bytes are untouched
