"""deploy/: every YAML parses (python3-yaml), and what must agree with `bough serve` does: the
ServingRuntime's args are options bough knows, its ports, probes and metrics annotation match
those args, its model formats and protocol versions are the ones bough serves, the
InferenceService names that runtime, and the Dockerfile runs the same command. Then bough is
started with the runtime's own arguments (ports and the mount moved to free loopback ports and
a test repository) to show that it takes them."""
import http.client
import re
import subprocess
import sys
from pathlib import Path

import pytest

yaml = pytest.importorskip("yaml")
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "serve"))
from conftest import BOUGH, Server, binary_model, save  # noqa: E402

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
# The KServe model format bough serves, and the file its repository takes for it.
FORMATS = {"onnx": "model.onnx", "openvino": "model.xml"}


def documents():
    docs = []
    for path in sorted(DEPLOY.rglob("*.y*ml")):
        for doc in yaml.safe_load_all(path.read_text()):
            assert doc["apiVersion"].startswith("serving.kserve.io/"), path
            docs.append(doc)
    return docs


def one(kind):
    found = [d for d in documents() if d["kind"] == kind]
    assert len(found) == 1, kind
    return found[0]


def flags(args):
    """{--flag: value} of args in the --flag=value form."""
    out = {}
    for arg in args:
        m = re.fullmatch(r"(--[a-z][a-z_-]*)=(.*)", arg)
        assert m, f"{arg!r}: write options as --flag=value"
        out[m.group(1)] = m.group(2)
    return out


def runtime_container():
    containers = one("ServingRuntime")["spec"]["containers"]
    assert [c["name"] for c in containers] == ["kserve-container"]
    return containers[0]


def test_every_yaml_parses():
    kinds = sorted(d["kind"] for d in documents())
    assert kinds == ["InferenceService", "ServingRuntime"]


def test_runtime_args_are_bough_serve_options():
    args = runtime_container()["args"]
    assert args[0] == "serve"
    help_text = subprocess.run([BOUGH, "serve", "--help"], capture_output=True, text=True,
                               timeout=60, check=True).stdout
    known = set(re.findall(r"--[a-z][a-z_-]*", help_text))
    given = flags(args[1:])
    assert set(given) <= known, set(given) - known
    assert given["--model-repository"] == "/mnt/models"  # where KServe mounts the model
    assert given["--host"] == "0.0.0.0"


def test_ports_probes_and_metrics_agree_with_the_args():
    runtime = one("ServingRuntime")
    container = runtime_container()
    given = flags(container["args"][1:])
    http_port = int(given["--http-port"])
    assert http_port == 8080  # KServe's default for REST
    assert [p["containerPort"] for p in container["ports"]] == [http_port]
    assert container["ports"][0]["protocol"] == "TCP"
    assert container["readinessProbe"]["httpGet"] == {"path": "/v2/health/ready",
                                                      "port": http_port}
    assert container["livenessProbe"]["httpGet"] == {"path": "/v2/health/live",
                                                     "port": http_port}
    annotations = runtime["spec"]["annotations"]
    assert annotations["prometheus.kserve.io/port"] == given["--metrics-port"]
    assert annotations["prometheus.kserve.io/path"] == "/metrics"
    assert len({given["--http-port"], given["--grpc-port"], given["--metrics-port"]}) == 3


def test_formats_and_protocols_are_the_ones_bough_serves():
    spec = one("ServingRuntime")["spec"]
    assert sorted(f["name"] for f in spec["supportedModelFormats"]) == sorted(FORMATS)
    assert all(isinstance(f["version"], str) for f in spec["supportedModelFormats"])
    assert sorted(spec["protocolVersions"]) == ["grpc-v2", "v2"]
    model = one("InferenceService")["spec"]["predictor"]["model"]
    assert model["runtime"] == one("ServingRuntime")["metadata"]["name"]
    assert model["modelFormat"]["name"] in FORMATS
    assert model["protocolVersion"] in spec["protocolVersions"]


def test_dockerfile_runs_the_runtime_command():
    text = (DEPLOY / "Dockerfile").read_text()
    assert re.search(r"^FROM debian:12\b", text, re.M)
    assert "scripts/setup --build" in text
    entry = re.search(r"^ENTRYPOINT (\[.*\])$", text, re.M).group(1)
    cmd = re.search(r"^CMD (\[.*\])$", text, re.M).group(1)
    assert yaml.safe_load(entry) == ["bough"]
    args = runtime_container()["args"]
    assert yaml.safe_load(cmd) == args  # a JSON array is YAML too
    given = flags(args[1:])
    exposed = sorted(int(p) for p in re.search(r"^EXPOSE (.*)$", text, re.M).group(1).split())
    assert exposed == sorted(int(given[f]) for f in ("--http-port", "--grpc-port",
                                                     "--metrics-port"))


def test_bough_takes_the_runtime_args(tmp_path):
    save(binary_model("Add", "add"), str(tmp_path / "add" / "1" / FORMATS["onnx"]))
    moved = {"--model-repository": str(tmp_path), "--host": "127.0.0.1", "--http-port": "0",
             "--grpc-port": "0", "--metrics-port": "0"}
    args = [f"{k}={moved.get(k, v)}" for k, v in flags(runtime_container()["args"][1:]).items()]
    s = Server(*args)
    try:
        assert s.port and s.grpc_port and s.metrics_port
        for port, path in ((s.port, "/v2/health/ready"), (s.port, "/v2/models/add/ready"),
                           (s.metrics_port, "/metrics")):
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            conn.request("GET", path)
            assert conn.getresponse().status == 200, path
            conn.close()
    finally:
        s.stop()
