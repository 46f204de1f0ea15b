"""bough.check, bough.infer, bough.optimize and bough.convert, and the inputs with defaults
(ONNX Runtime's overridable initializers), on models written here with onnx's helpers."""
import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

import bough
from conftest import EXAMPLE

FLOAT, INT64, BOOL = TensorProto.FLOAT, TensorProto.INT64, TensorProto.BOOL


def model_bytes(nodes, inputs, outputs, initializers=(), opset=17):
    graph = helper.make_graph(nodes, "g", inputs, outputs, initializer=list(initializers))
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    return model.SerializeToString()


def relu_transpose():
    """x [2,3] -> Relu "r" -> Transpose "t" -> y, with no type declared for r's output."""
    return model_bytes(
        [helper.make_node("Relu", ["x"], ["h"], name="r"),
         helper.make_node("Transpose", ["h"], ["y"], name="t", perm=[1, 0])],
        [helper.make_tensor_value_info("x", FLOAT, [2, 3])],
        [helper.make_tensor_value_info("y", FLOAT, None)])


def float_plus_int():
    """Add of a float and an int64: a type error at node "add"."""
    return model_bytes(
        [helper.make_node("Add", ["a", "b"], ["c"], name="add")],
        [helper.make_tensor_value_info("a", FLOAT, [2]),
         helper.make_tensor_value_info("b", INT64, [2])],
        [helper.make_tensor_value_info("c", FLOAT, [2])])


def constant_if():
    """y = x + 1 through an If whose condition is an initializer (true), so fold-if removes it."""
    then_branch = helper.make_graph(
        [helper.make_node("Add", ["x", "one"], ["t"])], "then", [],
        [helper.make_tensor_value_info("t", FLOAT, [2])])
    else_branch = helper.make_graph(
        [helper.make_node("Sub", ["x", "one"], ["e"])], "else", [],
        [helper.make_tensor_value_info("e", FLOAT, [2])])
    return model_bytes(
        [helper.make_node("If", ["cond"], ["y"], name="gate",
                          then_branch=then_branch, else_branch=else_branch)],
        [helper.make_tensor_value_info("x", FLOAT, [2])],
        [helper.make_tensor_value_info("y", FLOAT, [2])],
        [numpy_helper.from_array(np.array(True), "cond"),
         numpy_helper.from_array(np.array([1, 1], np.float32), "one")])


def ops_of(model):
    return [n.op_type for n in model.graph.node]


def test_check_lists_nothing_for_a_valid_model():
    assert bough.check(EXAMPLE) == []
    assert bough.check(str(EXAMPLE)) == []


def test_check_names_the_node_and_what_it_expected():
    found = bough.check(float_plus_int())
    errors = [d for d in found if d.severity == "error"]
    assert len(errors) == 1
    d = errors[0]
    assert d.kind == "invalid_model"
    assert 'Add "add"' in d.place
    assert "tensor(int64)" in d.message and "tensor(float)" in d.message
    assert str(d) == d.place + ": " + d.message and "error" in repr(d)


def test_check_of_a_newer_opset_is_an_error_unless_allowed():
    newer = model_bytes([helper.make_node("Relu", ["x"], ["y"])],
                        [helper.make_tensor_value_info("x", FLOAT, [2])],
                        [helper.make_tensor_value_info("y", FLOAT, [2])], opset=99)
    refused = bough.check(newer)
    assert [d.kind for d in refused] == ["unsupported"] and "99" in refused[0].message
    allowed = bough.check(newer, allow_newer_opset=True)
    assert [d.severity for d in allowed] == ["warning"] and allowed[0].kind is None
    assert str(allowed[0]).count("warning: ") == 1


def test_check_raises_for_a_file_it_cannot_read(tmp_path):
    with pytest.raises(bough.Error) as e:
        bough.check(tmp_path / "missing.onnx")
    assert e.value.kind == "io"


def test_infer_writes_every_value_type_as_value_info(tmp_path):
    typed = onnx.load_from_string(bough.infer(relu_transpose()))
    shapes = {v.name: [d.dim_value for d in v.type.tensor_type.shape.dim]
              for v in list(typed.graph.value_info) + list(typed.graph.output)}
    # Relu keeps [2,3]; Transpose with perm [1,0] gives [3,2] (worked out by hand).
    assert shapes["h"] == [2, 3] and shapes["y"] == [3, 2]
    out = tmp_path / "typed.onnx"
    assert bough.infer(relu_transpose(), out) is None
    assert onnx.load(str(out)).graph.value_info[0].name == "h"


def test_infer_refuses_an_invalid_model_and_never_writes_over_its_input(tmp_path):
    with pytest.raises(bough.Error) as e:
        bough.infer(float_plus_int())
    assert e.value.kind == "invalid_model" and 'Add "add"' in str(e.value)
    path = tmp_path / "m.onnx"
    path.write_bytes(relu_transpose())
    with pytest.raises(bough.Error) as e:
        bough.infer(path, path)
    assert e.value.kind == "io"
    assert path.read_bytes() == relu_transpose()


def test_optimize_folds_a_constant_if_and_keeps_the_meaning(tmp_path):
    original = constant_if()
    assert ops_of(onnx.load_from_string(original)) == ["If"]
    x = np.array([2, 5], np.float32)
    for kwargs in ({}, {"level": "all"}, {"passes": ["fold-if"]}):
        folded = bough.optimize(original, **kwargs)
        assert "If" not in ops_of(onnx.load_from_string(folded))
        y = bough.InferenceSession(folded, optimization="none").run(None, {"x": x})[0]
        np.testing.assert_array_equal(y, [3, 6])
    kept = onnx.load_from_string(bough.optimize(original, level="none"))
    assert ops_of(kept) == ["If"]
    out = tmp_path / "folded.onnx"
    assert bough.optimize(original, out) is None and "If" not in ops_of(onnx.load(str(out)))


def test_optimize_refuses_unknown_passes_and_levels():
    with pytest.raises(bough.Error) as e:
        bough.optimize(constant_if(), passes=["no-such-pass"])
    assert "no-such-pass" in str(e.value)
    with pytest.raises(ValueError):
        bough.optimize(constant_if(), level="fast")


def test_optimize_repair_makes_a_payload_if_valid():
    # An If-1 with a second input (a payload), which the spec forbids: its branches read x
    # by name, so legalize-if drops the payload.
    def branch(op, name):
        return helper.make_graph([helper.make_node(op, ["x"], [name])], name, [],
                                 [helper.make_tensor_value_info(name, FLOAT, [2])])

    payload = model_bytes(
        [helper.make_node("If", ["c", "x"], ["y"], name="gate",
                          then_branch=branch("Neg", "t"), else_branch=branch("Abs", "e"))],
        [helper.make_tensor_value_info("c", BOOL, []),
         helper.make_tensor_value_info("x", FLOAT, [2])],
        [helper.make_tensor_value_info("y", FLOAT, [2])])
    assert any(d.severity == "error" for d in bough.check(payload))
    with pytest.raises(bough.Error):
        bough.optimize(payload)
    repaired = bough.optimize(payload, repair=True)
    assert bough.check(repaired) == []
    s = bough.InferenceSession(repaired)
    x = np.array([-1, 2], np.float32)
    np.testing.assert_array_equal(s.run(None, {"c": np.array(True), "x": x})[0], [1, -2])
    np.testing.assert_array_equal(s.run(None, {"c": np.array(False), "x": x})[0], [1, 2])


def test_convert_to_openvino_ir_and_back_gives_the_same_results(tmp_path):
    xml = tmp_path / "example.xml"
    assert bough.convert(EXAMPLE, xml) is None
    assert xml.exists() and (tmp_path / "example.bin").exists()
    feed = {"x": np.array([1, 2, 3], np.float32), "n": np.array(4, np.int64)}
    via_ir = bough.InferenceSession(xml).run(None, feed)
    direct = bough.InferenceSession(EXAMPLE).run(None, feed)
    for a, b in zip(via_ir, direct):
        np.testing.assert_array_equal(a, b)


def test_convert_sets_the_opset_only_where_the_meaning_stays(tmp_path):
    relu = model_bytes([helper.make_node("Relu", ["x"], ["y"], name="r")],
                       [helper.make_tensor_value_info("x", FLOAT, [2])],
                       [helper.make_tensor_value_info("y", FLOAT, [2])], opset=13)
    out = tmp_path / "relu14.onnx"
    bough.convert(relu, out, opset=14)
    assert [o.version for o in onnx.load(str(out)).opset_import if o.domain == ""] == [14]
    # Add's broadcasting changed at opset 7, so an Add written at 13 cannot go to 6.
    add = model_bytes([helper.make_node("Add", ["a", "b"], ["c"], name="add")],
                      [helper.make_tensor_value_info("a", FLOAT, [2, 3]),
                       helper.make_tensor_value_info("b", FLOAT, [3])],
                      [helper.make_tensor_value_info("c", FLOAT, [2, 3])], opset=13)
    with pytest.raises(bough.Error) as e:
        bough.convert(add, tmp_path / "add6.onnx", opset=6)
    assert e.value.kind == "unsupported" and 'Add "add"' in str(e.value)
    assert not (tmp_path / "add6.onnx").exists()
    with pytest.raises(ValueError):
        bough.convert(relu, tmp_path / "relu.xml", opset=14)


def test_inputs_with_defaults_are_overridable_initializers_like_ort():
    # y = x * w, where w is a graph input with an initializer [2, 3] as its default.
    m = model_bytes([helper.make_node("Mul", ["x", "w"], ["y"])],
                    [helper.make_tensor_value_info("x", FLOAT, [2]),
                     helper.make_tensor_value_info("w", FLOAT, [2])],
                    [helper.make_tensor_value_info("y", FLOAT, [2])],
                    [numpy_helper.from_array(np.array([2, 3], np.float32), "w")])
    s = bough.InferenceSession(m)
    assert [a.name for a in s.get_inputs()] == ["x"]
    assert [(a.name, a.type, a.shape) for a in s.get_overridable_initializers()] == [
        ("w", "tensor(float)", [2])]
    x = np.array([1, 10], np.float32)
    np.testing.assert_array_equal(s.run(None, {"x": x})[0], [2, 30])
    np.testing.assert_array_equal(s.run(None, {"x": x, "w": np.array([5, 7], np.float32)})[0],
                                  [5, 70])
