"""Shared by the tests/peer generators: models written in the ONNX backend-test layout with
ONNX Runtime's outputs (through ../shared/peer's ort_run.js) as the expected ones."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import numpy_helper


def ort_output(peer, model_path, x, work):
    """ONNX Runtime's output `y` of the model at `model_path` for its one input `x`."""
    np.save(os.path.join(work, "x.npy"), x)
    spec = {"x": {"dtype": x.dtype.name, "shape": list(x.shape), "npy": "x.npy"}}
    with open(os.path.join(work, "spec.json"), "w") as f:
        json.dump(spec, f)
    dump = os.path.join(work, "dump")
    subprocess.run(["node", "ort_run.js", model_path, "--inputs", os.path.join(work, "spec.json"),
                    "--iters", "1", "--warmup", "0", "--opt", "disabled", "--dump", dump],
                   cwd=peer, check=True, stdout=subprocess.DEVNULL)
    return np.load(os.path.join(dump, "outputs", "y.npy"))


def write_cases(out, count, make_case, seed):
    """Replaces `out` with case_NN folders: make_case(i, rng) gives (model, x) for case i;
    the peer folder is argv[1], default ~/.cache/bough-peer."""
    peer = sys.argv[1] if len(sys.argv) > 1 else os.path.expanduser("~/.cache/bough-peer")
    if not os.path.exists(os.path.join(peer, "ort_run.js")):
        sys.exit(f"no ONNX Runtime harness in {peer}: run `sh ../shared/peer/setup.sh` first")
    rng = np.random.default_rng(seed)
    shutil.rmtree(out, ignore_errors=True)
    for i in range(count):
        model, x = make_case(i, rng)
        case = os.path.join(out, f"case_{i:02d}")
        os.makedirs(os.path.join(case, "test_data_set_0"))
        path = os.path.join(case, "model.onnx")
        onnx.save(model, path)
        with tempfile.TemporaryDirectory() as work:
            y = ort_output(peer, path, x, work)
        for name, value in (("input_0", numpy_helper.from_array(x, "x")),
                            ("output_0", numpy_helper.from_array(y, "y"))):
            with open(os.path.join(case, "test_data_set_0", name + ".pb"), "wb") as f:
                f.write(value.SerializeToString())
    print(f"{count} cases in {out}")
