"""Python gRPC stubs for the `bough serve` tests, generated when this module is imported from
the server's own src/serve/proto/grpc_predict_v2.proto with grpc_tools.protoc
(python3-grpc-tools) into a temporary folder, and helpers that build requests and read
responses with numpy, independently of the server's code."""
import atexit
import importlib
import shutil
import struct
import sys
import tempfile
from pathlib import Path

import grpc
import numpy as np
from grpc_tools import protoc

PROTO = Path(__file__).resolve().parents[2] / "src" / "serve" / "proto" / "grpc_predict_v2.proto"


def _generate():
    out = tempfile.mkdtemp(prefix="bough_grpc_stubs_")
    atexit.register(shutil.rmtree, out, ignore_errors=True)
    status = protoc.main(["grpc_tools.protoc", f"-I{PROTO.parent}", f"--python_out={out}",
                          f"--grpc_python_out={out}", str(PROTO)])
    if status != 0:
        raise RuntimeError(f"grpc_tools.protoc failed on {PROTO} ({status})")
    sys.path.insert(0, out)
    return (importlib.import_module("grpc_predict_v2_pb2"),
            importlib.import_module("grpc_predict_v2_pb2_grpc"))


pb, pb_grpc = _generate()

# The typed field of each datatype, and its little-endian numpy type (the protocol's table).
FIELDS = {"BOOL": "bool_contents", "UINT8": "uint_contents", "UINT16": "uint_contents",
          "UINT32": "uint_contents", "UINT64": "uint64_contents", "INT8": "int_contents",
          "INT16": "int_contents", "INT32": "int_contents", "INT64": "int64_contents",
          "FP32": "fp32_contents", "FP64": "fp64_contents", "BYTES": "bytes_contents"}
DTYPES = {"BOOL": "?", "UINT8": "<u1", "UINT16": "<u2", "UINT32": "<u4", "UINT64": "<u8",
          "INT8": "<i1", "INT16": "<i2", "INT32": "<i4", "INT64": "<i8", "FP16": "<f2",
          "FP32": "<f4", "FP64": "<f8"}


def connect(server):
    """A stub on the server's gRPC port, and its channel (to close)."""
    channel = grpc.insecure_channel(f"127.0.0.1:{server.grpc_port}")
    return pb_grpc.GRPCInferenceServiceStub(channel), channel


def typed_input(name, datatype, values, shape=None):
    """An input with typed contents: `values` a numpy array (its shape used) or a list."""
    if isinstance(values, np.ndarray):
        shape = list(values.shape) if shape is None else shape
        values = values.flatten().tolist()
    tensor = pb.ModelInferRequest.InferInputTensor(
        name=name, datatype=datatype, shape=[len(values)] if shape is None else shape)
    getattr(tensor.contents, FIELDS[datatype]).extend(values)
    return tensor


def raw_input(name, datatype, shape):
    return pb.ModelInferRequest.InferInputTensor(name=name, datatype=datatype, shape=shape)


def raw_bytes(values, datatype):
    """The protocol's raw layout: little-endian, row-major; BYTES each a 4-byte length first."""
    if datatype == "BYTES":
        return b"".join(struct.pack("<I", len(v)) + v for v in values)
    return np.ascontiguousarray(values, dtype=DTYPES[datatype]).tobytes()


def infer_request(model, inputs, raw=None, outputs=(), **fields):
    request = pb.ModelInferRequest(model_name=model, inputs=inputs, **fields)
    request.outputs.extend(pb.ModelInferRequest.InferRequestedOutputTensor(name=n) for n in outputs)
    if raw is not None:
        request.raw_input_contents.extend(raw)
    return request


def _read_raw(data, datatype, shape):
    if datatype != "BYTES":
        return np.frombuffer(data, dtype=DTYPES[datatype]).reshape(shape)
    values, at = [], 0
    while at < len(data):
        (length,) = struct.unpack_from("<I", data, at)
        values.append(data[at + 4:at + 4 + length])
        at += 4 + length
    return np.array(values, dtype=object).reshape(shape)


def outputs_of(response):
    """{name: (datatype, numpy array)}, from raw_output_contents or typed contents."""
    result = {}
    for i, out in enumerate(response.outputs):
        shape = list(out.shape)
        if response.raw_output_contents:
            array = _read_raw(response.raw_output_contents[i], out.datatype, shape)
        else:
            values = list(getattr(out.contents, FIELDS[out.datatype]))
            array = np.array(values, dtype=object if out.datatype == "BYTES"
                             else DTYPES[out.datatype]).reshape(shape)
        result[out.name] = (out.datatype, array)
    return result
