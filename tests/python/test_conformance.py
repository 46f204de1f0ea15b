"""The ONNX backend tests with control flow (If, Loop, Scan, SequenceMap) and optionals, run
through the Python module and compared with their expected outputs as `bough test-data`
compares them (rtol 1e-3, atol 1e-7; NaN only with NaN; sequences item by item)."""
import glob
import os

import numpy as np
import onnx
import pytest
from onnx import numpy_helper

import bough
from conftest import conformance_dir

PATTERNS = ["test_if*", "test_loop*", "test_scan*", "test_sequence_map*", "test_optional_*"]
SUITE = conformance_dir()
CASES = sorted({os.path.basename(p) for pattern in PATTERNS
                for p in glob.glob(str(SUITE / pattern))}) if SUITE else []


def read_value(path, type_proto):
    """An input or output file as the module takes and gives it."""
    which = type_proto.WhichOneof("value")
    data = open(path, "rb").read()
    if which == "sequence_type":
        proto = onnx.SequenceProto()
        proto.ParseFromString(data)
        return [numpy_helper.to_array(t) for t in proto.tensor_values]
    if which == "optional_type":
        proto = onnx.OptionalProto()
        proto.ParseFromString(data)
        if proto.elem_type == onnx.OptionalProto.UNDEFINED:
            return None
        if proto.elem_type == onnx.OptionalProto.SEQUENCE:
            return [numpy_helper.to_array(t) for t in proto.sequence_value.tensor_values]
        return numpy_helper.to_array(proto.tensor_value)
    proto = onnx.TensorProto()
    proto.ParseFromString(data)
    return numpy_helper.to_array(proto)


def assert_same(got, want, where):
    if want is None:
        assert got is None, where
        return
    if isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), where
        for i, (g, w) in enumerate(zip(got, want)):
            assert_same(g, w, f"{where}[{i}]")
        return
    assert isinstance(got, np.ndarray), where
    assert got.shape == want.shape and got.dtype == want.dtype, where
    if want.dtype.kind in "fc":
        np.testing.assert_allclose(got, want, rtol=1e-3, atol=1e-7, equal_nan=True, err_msg=where)
    else:
        np.testing.assert_array_equal(got, want, err_msg=where)


@pytest.mark.skipif(SUITE is None, reason="no ONNX conformance suite found")
def test_the_suite_has_the_control_flow_models():
    assert len(CASES) >= 20, CASES


@pytest.mark.parametrize("case", CASES)
def test_control_flow_model_gives_its_expected_outputs(case):
    folder = SUITE / case
    model = onnx.load(str(folder / "model.onnx"))
    initializers = {i.name for i in model.graph.initializer}
    inputs = [i for i in model.graph.input if i.name not in initializers]
    session = bough.InferenceSession(str(folder / "model.onnx"))
    data_sets = sorted(glob.glob(str(folder / "test_data_set_*")))
    assert data_sets
    for data_set in data_sets:
        feed = {i.name: read_value(f"{data_set}/input_{k}.pb", i.type)
                for k, i in enumerate(inputs) if os.path.exists(f"{data_set}/input_{k}.pb")}
        got = session.run(None, feed)
        for k, out in enumerate(model.graph.output):
            want = read_value(f"{data_set}/output_{k}.pb", out.type)
            assert_same(got[k], want, f"{case}/{os.path.basename(data_set)}/{out.name}")
