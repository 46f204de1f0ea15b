"""Triton's model repository extension over gRPC (RepositoryIndex, RepositoryModelLoad,
RepositoryModelUnload, messages of Triton's grpc_service.proto), with grpcio stubs generated
from the server's .proto: the index with each model's state, unload and load seen by
ModelInfer and ModelReady and by REST (the two share one ModelControl), bad names and
parameters refused."""

import grpc
import numpy as np
import pytest

from conftest import Server
from grpc_client import connect, infer_request, outputs_of, pb, typed_input
from test_rest import A, B


@pytest.fixture(scope="module")
def served(repo):
    s = Server("--model-repository", repo)
    stub, channel = connect(s)
    yield s, stub
    channel.close()
    s.stop()


def index(stub, ready=False):
    response = stub.RepositoryIndex(pb.RepositoryIndexRequest(ready=ready), timeout=30)
    return {m.name: (m.version, m.state, m.reason) for m in response.models}


def load(stub, name, **parameters):
    return stub.RepositoryModelLoad(
        pb.RepositoryModelLoadRequest(model_name=name, parameters=parameters), timeout=60)


def unload(stub, name, **parameters):
    return stub.RepositoryModelUnload(
        pb.RepositoryModelUnloadRequest(model_name=name, parameters=parameters), timeout=60)


def add_request():
    return infer_request("add", [typed_input("a", "FP32", A), typed_input("b", "FP32", B)])


def add_sum(stub):
    return outputs_of(stub.ModelInfer(add_request(), timeout=60))["sum"][1]


def refused(call, code, expect):
    with pytest.raises(grpc.RpcError) as error:
        call()
    assert error.value.code() == code, error.value.details()
    assert expect in error.value.details(), error.value.details()


def test_index_lists_every_model_with_its_state(served):
    _, stub = served
    ready = {"add": ("2", "READY", ""), "echo": ("1", "READY", ""),
             "slow": ("1", "READY", ""), "typed": ("1", "READY", "")}
    assert index(stub) == ready
    assert index(stub, ready=True) == ready


def test_unload_then_load(served):
    server, stub = served
    assert unload(stub, "add") == pb.RepositoryModelUnloadResponse()
    assert index(stub)["add"] == ("", "UNAVAILABLE", "unloaded")
    assert "add" not in index(stub, ready=True)
    refused(lambda: stub.ModelInfer(add_request(), timeout=60), grpc.StatusCode.NOT_FOUND,
            "model 'add' is not loaded: unloaded")
    assert not stub.ModelReady(pb.ModelReadyRequest(name="add"), timeout=30).ready
    assert server.infer("add", {"inputs": []})[0] == 404  # REST sees the same models
    assert stub.ModelReady(pb.ModelReadyRequest(name="echo"), timeout=30).ready
    unload(stub, "add")  # again: nothing to do

    assert load(stub, "add") == pb.RepositoryModelLoadResponse()
    assert index(stub)["add"] == ("2", "READY", "")
    assert stub.ModelReady(pb.ModelReadyRequest(name="add"), timeout=30).ready
    np.testing.assert_array_equal(add_sum(stub), A + B)


def test_rest_unload_is_seen_over_grpc(served):
    server, stub = served
    status, _, _ = server.request("POST", "/v2/repository/models/echo/unload", b"")
    assert status == 200
    assert index(stub)["echo"] == ("", "UNAVAILABLE", "unloaded")
    load(stub, "echo")
    assert server.request("GET", "/v2/models/echo/ready")[0] == 200


def test_a_model_that_fails_to_load(served, repo):
    _, stub = served
    (repo / "broken" / "1").mkdir(parents=True)
    (repo / "broken" / "1" / "model.onnx").write_bytes(b"\x08\x07not a model at all")
    refused(lambda: load(stub, "broken"), grpc.StatusCode.INVALID_ARGUMENT,
            "model 'broken' failed to load: ")
    version, state, reason = index(stub)["broken"]
    assert (version, state) == ("", "UNAVAILABLE") and reason.startswith("failed to load: ")
    np.testing.assert_array_equal(add_sum(stub), A + B)


@pytest.mark.parametrize("call,name,parameters,code,expect", [
    ("load", "nothing", {}, grpc.StatusCode.NOT_FOUND,
     "no model 'nothing' in the model repository"),
    ("unload", "nothing", {}, grpc.StatusCode.NOT_FOUND, "unknown model 'nothing'"),
    ("load", ".hidden", {}, grpc.StatusCode.NOT_FOUND, "no model '.hidden'"),
    ("load", "", {}, grpc.StatusCode.NOT_FOUND, "no model '' in the model repository"),
    ("load", "add", {"config": pb.ModelRepositoryParameter(string_param="{}")},
     grpc.StatusCode.INVALID_ARGUMENT, "\"config\" parameter is not supported"),
    ("load", "add", {"file:1/model.onnx": pb.ModelRepositoryParameter(bytes_param=b"\x08\x07")},
     grpc.StatusCode.INVALID_ARGUMENT, "\"file:1/model.onnx\" parameter is not supported"),
])
def test_bad_requests_are_refused(served, call, name, parameters, code, expect):
    _, stub = served
    refused(lambda: (load if call == "load" else unload)(stub, name, **parameters), code, expect)
    assert index(stub)["add"] == ("2", "READY", "")


def test_other_parameters_are_ignored(served):
    _, stub = served
    dependents = pb.ModelRepositoryParameter(bool_param=True)
    unload(stub, "typed", unload_dependents=dependents)
    assert index(stub)["typed"] == ("", "UNAVAILABLE", "unloaded")
    load(stub, "typed", repository_name_hint=pb.ModelRepositoryParameter(string_param="x"))
    assert index(stub)["typed"] == ("1", "READY", "")
