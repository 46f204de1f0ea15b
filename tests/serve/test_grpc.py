"""`bough serve` over gRPC, with Python's grpcio and stubs generated from the server's .proto
(grpc_client.py): every RPC of inference.GRPCInferenceService, typed and raw tensor contents,
output selection, parameters; expected values from numpy."""
import numpy as np
import pytest

from conftest import TYPED_TYPES
from grpc_client import (connect, infer_request, outputs_of, pb, raw_bytes, raw_input,
                         typed_input)
from test_rest import A, A_TIMES_B, B


@pytest.fixture(scope="module")
def stub(server):
    stub, channel = connect(server)
    yield stub
    channel.close()


def test_server_live_ready_and_metadata(stub):
    assert stub.ServerLive(pb.ServerLiveRequest(), timeout=30).live
    assert stub.ServerReady(pb.ServerReadyRequest(), timeout=30).ready
    metadata = stub.ServerMetadata(pb.ServerMetadataRequest(), timeout=30)
    assert metadata.name == "bough"
    assert metadata.version
    assert list(metadata.extensions) == ["binary_tensor_data", "model_repository"]


def test_model_ready(stub):
    assert stub.ModelReady(pb.ModelReadyRequest(name="add"), timeout=30).ready
    assert stub.ModelReady(pb.ModelReadyRequest(name="add", version="2"), timeout=30).ready


def test_model_metadata(stub):
    add = stub.ModelMetadata(pb.ModelMetadataRequest(name="add"), timeout=30)
    assert add.name == "add"
    assert list(add.versions) == ["2"]  # the newest version folder
    assert add.platform == "bough"
    assert [(t.name, t.datatype, list(t.shape)) for t in add.inputs] == [
        ("a", "FP32", [-1, 3]), ("b", "FP32", [-1, 3])]
    assert [(t.name, t.datatype, list(t.shape)) for t in add.outputs] == [
        ("sum", "FP32", [-1, 3]), ("prod", "FP32", [-1, 3])]
    echo = stub.ModelMetadata(pb.ModelMetadataRequest(name="echo", version="1"), timeout=30)
    assert [(t.name, t.datatype, list(t.shape)) for t in echo.inputs] == [
        ("i64", "INT64", [-1]), ("flag", "BOOL", [-1]), ("text", "BYTES", [-1]),
        ("half", "FP16", [-1]), ("u8", "UINT8", [-1]), ("f64", "FP64", [-1])]


def add_typed(**fields):
    return infer_request("add", [typed_input("a", "FP32", A), typed_input("b", "FP32", B)],
                         **fields)


def add_raw(**fields):
    return infer_request("add", [raw_input("a", "FP32", [2, 3]), raw_input("b", "FP32", [2, 3])],
                         raw=[raw_bytes(A, "FP32"), raw_bytes(B, "FP32")], **fields)


def test_infer_typed_contents_with_id(stub):
    response = stub.ModelInfer(add_typed(id="req-7"), timeout=60)
    assert (response.model_name, response.model_version, response.id) == ("add", "2", "req-7")
    assert not response.raw_output_contents  # a typed request gets typed outputs
    assert [o.name for o in response.outputs] == ["sum", "prod"]
    out = outputs_of(response)
    for name, expected in (("sum", A + B), ("prod", A_TIMES_B)):
        datatype, array = out[name]
        assert datatype == "FP32" and array.shape == (2, 3)
        assert np.array_equal(array, expected)  # 1e30 * 1e30 is infinity in float32


def test_infer_raw_contents(stub):
    response = stub.ModelInfer(add_raw(), timeout=60)
    assert response.id == ""  # none asked, none given
    assert len(response.raw_output_contents) == 2
    assert all(not o.HasField("contents") for o in response.outputs)
    assert response.raw_output_contents[0] == (A + B).astype("<f4").tobytes()
    assert np.array_equal(outputs_of(response)["prod"][1], A_TIMES_B)


def test_outputs_requested_by_name_and_version(stub):
    response = stub.ModelInfer(add_typed(outputs=["prod"], model_version="2"), timeout=60)
    assert [o.name for o in response.outputs] == ["prod"]
    assert np.array_equal(outputs_of(response)["prod"][1], A_TIMES_B)
    # Two outputs in the order asked, not the graph's.
    response = stub.ModelInfer(add_raw(outputs=["prod", "sum"]), timeout=60)
    assert [o.name for o in response.outputs] == ["prod", "sum"]
    assert response.raw_output_contents[1] == (A + B).astype("<f4").tobytes()


def test_binary_data_output_parameter_picks_the_form(stub):
    raw_wanted = add_typed()
    raw_wanted.parameters["binary_data_output"].bool_param = True
    response = stub.ModelInfer(raw_wanted, timeout=60)
    assert response.raw_output_contents[0] == (A + B).astype("<f4").tobytes()
    typed_wanted = add_raw()
    typed_wanted.parameters["binary_data_output"].bool_param = False
    response = stub.ModelInfer(typed_wanted, timeout=60)
    assert not response.raw_output_contents
    assert np.array_equal(outputs_of(response)["sum"][1], A + B)
    # Other parameters, on the request, an input or an output, are accepted and ignored.
    other = add_typed(outputs=["sum"])
    other.parameters["priority"].int64_param = 3
    other.inputs[0].parameters["note"].string_param = "x"
    other.outputs[0].parameters["classification"].int64_param = 2
    assert np.array_equal(outputs_of(stub.ModelInfer(other, timeout=60))["sum"][1], A + B)


# One value list per input of the typed model, with each type's edges.
TYPED_VALUES = {
    "b": [True, False, True],
    "u8": [0, 255],
    "u16": [0, 65535],
    "u32": [0, 2**32 - 1],
    "u64": [0, 2**64 - 1],
    "i8": [-128, 127],
    "i16": [-32768, 32767],
    "i32": [-2**31, 2**31 - 1],
    "i64": [-2**63, 2**63 - 1, 5],
    "f32": [0.1, -3.5, 65504.0, 1e-8],
    "f64": [0.1, -1e300],
    "s": ["héllo".encode(), b"", b"a\x00b"],
}


def typed_request(outputs=(), **override):
    """A typed request to the typed model: TYPED_VALUES, with some inputs' values replaced."""
    values = dict(TYPED_VALUES, **override)
    return infer_request("typed", [typed_input(n, TYPED_TYPES[n][1], values[n]) for n in TYPED_TYPES],
                         outputs=outputs)


def test_every_typed_datatype_round_trips(stub):
    outputs = [n + "_out" for n in TYPED_TYPES]
    response = stub.ModelInfer(typed_request(outputs=outputs), timeout=60)
    assert not response.raw_output_contents
    out = outputs_of(response)
    for name, (_, datatype) in TYPED_TYPES.items():
        got_type, got = out[name + "_out"]
        assert got_type == datatype
        if datatype == "BYTES":
            assert list(got) == TYPED_VALUES[name]
        else:
            expected = np.array(TYPED_VALUES[name], dtype=got.dtype)
            assert np.array_equal(got, expected), name
    # f32 went through float32 (0.1 is not exact); f64 did not.
    assert out["f32_out"][1][0] == np.float32(0.1)
    assert out["f64_out"][1][0] == 0.1


def test_fp16_output_makes_the_response_raw(stub):
    # FP16 has no typed field, and a response holds raw or typed data, not both.
    response = stub.ModelInfer(typed_request(outputs=["half", "i8_out"]), timeout=60)
    assert len(response.raw_output_contents) == 2
    out = outputs_of(response)
    assert out["half"][0] == "FP16"
    expected = np.array(TYPED_VALUES["f32"], np.float32).astype(np.float16)
    assert np.array_equal(out["half"][1], expected)
    assert out["i8_out"][1].tolist() == [-128, 127]
    # Every output when none is named, in graph order.
    response = stub.ModelInfer(typed_request(), timeout=60)
    assert [o.name for o in response.outputs] == [n + "_out" for n in TYPED_TYPES] + ["half"]


def test_raw_contents_of_every_echo_datatype(stub):
    values = {"i64": np.array([2**62 + 1, -(2**63), 7], np.int64),
              "flag": np.array([True, False]),
              "text": [b"a\x00b", "é".encode(), b""],
              "half": np.array([0.1, 65504, -2.5], np.float16),
              "u8": np.array([0, 255], np.uint8),
              "f64": np.array([0.1], np.float64)}
    types = {"i64": "INT64", "flag": "BOOL", "text": "BYTES", "half": "FP16", "u8": "UINT8",
             "f64": "FP64"}
    request = infer_request("echo", [raw_input(n, types[n], [len(v)]) for n, v in values.items()],
                            raw=[raw_bytes(v, types[n]) for n, v in values.items()])
    response = stub.ModelInfer(request, timeout=60)
    assert [o.name for o in response.outputs] == [n + "_out" for n in values]
    for i, (name, value) in enumerate(values.items()):
        assert response.outputs[i].datatype == types[name]
        assert list(response.outputs[i].shape) == [len(value)]
        assert response.raw_output_contents[i] == raw_bytes(value, types[name]), name


def test_empty_tensor(stub):
    empty = np.zeros((0, 3), np.float32)
    response = stub.ModelInfer(infer_request(
        "add", [typed_input("a", "FP32", empty), typed_input("b", "FP32", empty)]), timeout=60)
    assert [list(o.shape) for o in response.outputs] == [[0, 3], [0, 3]]
    assert outputs_of(response)["sum"][1].size == 0
