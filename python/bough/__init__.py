"""bough: run ONNX and OpenVINO IR models with control flow. Its Python API is ONNX Runtime's:
a script written for onnxruntime runs after changing `import onnxruntime as ort` to
`import bough as ort`. Beyond it: bough.check, infer, optimize and convert, and bough.Error."""
from ._core import Diagnostic, Error, NodeArg, __version__, check, convert, infer, optimize
from .binding import IOBinding, OrtValue
from .options import ExecutionMode, GraphOptimizationLevel, RunOptions, SessionOptions
from .providers import get_all_providers, get_available_providers, get_device
from .session import InferenceSession, ModelMetadata

# Shown as bough.Error and so on rather than as names of the extension.
for _class in (Diagnostic, Error, NodeArg):
    _class.__module__ = __name__


def set_default_logger_severity(level):
    """Accepted as ONNX Runtime's (0 verbose to 4 fatal); bough writes no log."""
    if not 0 <= level <= 4:
        raise ValueError(f"a log severity is 0 to 4, not {level}")


def set_default_logger_verbosity(level):
    """Accepted as ONNX Runtime's; bough writes no log."""


__all__ = ["Diagnostic", "Error", "ExecutionMode", "GraphOptimizationLevel", "IOBinding",
           "InferenceSession", "ModelMetadata", "NodeArg", "OrtValue", "RunOptions",
           "SessionOptions", "__version__", "check", "convert", "get_all_providers",
           "get_available_providers", "get_device", "infer", "optimize",
           "set_default_logger_severity", "set_default_logger_verbosity"]
