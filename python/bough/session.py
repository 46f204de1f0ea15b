"""bough.InferenceSession: ONNX Runtime's InferenceSession. Its C++ half (_core._Session) loads,
compiles and runs the model (run() is the C++ call itself); this half reads ONNX Runtime's
options, keeps the metadata and writes the profile."""
import threading
import time
import warnings

from . import _core
from .binding import IOBinding, OrtValue
from .options import GraphOptimizationLevel, SessionOptions
from .profile import events, write_profile
from .providers import CPU, checked_providers

_OPTIMIZATION = {
    GraphOptimizationLevel.ORT_DISABLE_ALL: "none",
    GraphOptimizationLevel.ORT_ENABLE_BASIC: "basic",
    GraphOptimizationLevel.ORT_ENABLE_EXTENDED: "all",
    GraphOptimizationLevel.ORT_ENABLE_ALL: "all",
}

# The SessionOptions fields a session acts on; the others, set away from their defaults, are
# named in one warning. Logging fields count as honoured: bough writes no log.
_HONOURED = {"intra_op_num_threads", "graph_optimization_level", "enable_profiling",
             "profile_file_prefix", "optimized_model_filepath", "log_severity_level",
             "log_verbosity_level", "logid"}


def _warn_of_ignored(options):
    ignored = [f"{name}={getattr(options, name)!r}" for name, default in options.FIELDS.items()
               if name not in _HONOURED and getattr(options, name) != default]
    # inter_op_num_threads=1 is what bough does: one node at a time.
    ignored = [i for i in ignored if i != "inter_op_num_threads=1"]
    ignored += [f"session config entry {k!r}={v!r}" for k, v in options._config.items()]
    if ignored:
        warnings.warn("bough has no equivalent of these SessionOptions settings and ignores "
                      "them: " + ", ".join(ignored), stacklevel=3)


class ModelMetadata:
    """The model's metadata as ONNX Runtime reports it: producer_name, graph_name, domain,
    description (the model's doc_string), graph_description, version and
    custom_metadata_map (its metadata_props)."""

    def __init__(self, fields):
        self.__dict__.update(fields)

    def __repr__(self):
        return "ModelMetadata(" + ", ".join(f"{k}={v!r}" for k, v in self.__dict__.items()) + ")"


class InferenceSession(_core._Session):
    """A model compiled once and run many times, as ONNX Runtime's: `path_or_bytes` is a path,
    the model's bytes or an onnx.ModelProto. bough's own keywords: `threads` (else
    sess_options.intra_op_num_threads; 0, the default of both, is one thread per physical core
    as in ONNX Runtime, and 1 runs on the calling thread alone), `optimization` ('none',
    'basic', 'all'; else from sess_options.graph_optimization_level) and `allow_newer_opset`.
    The `threads` attribute tells how many threads the session uses."""

    def __init__(self, path_or_bytes, sess_options=None, providers=None, provider_options=None,
                 *, threads=None, allow_newer_opset=False, optimization=None):
        options = SessionOptions() if sess_options is None else sess_options
        if not isinstance(options, SessionOptions):
            raise TypeError("sess_options must be a bough.SessionOptions, not "
                            + type(options).__name__)
        checked_providers(providers, provider_options, stacklevel=2)
        if options.intra_op_num_threads < 0:
            raise ValueError("intra_op_num_threads must be 0 (one thread per physical core) "
                             "or more")
        if threads is None:
            threads = options.intra_op_num_threads
        if optimization is None:
            optimization = _OPTIMIZATION[options.graph_optimization_level]
        _warn_of_ignored(options)
        started = time.monotonic_ns()
        super().__init__(path_or_bytes, threads=threads, allow_newer_opset=allow_newer_opset,
                         optimization=optimization, profile=options.enable_profiling)
        self._profile_start = (started, time.monotonic_ns(), threading.get_native_id())
        self._profiling = options.enable_profiling
        self._sess_options = options
        self._model_meta = ModelMetadata(self._metadata())
        if options.optimized_model_filepath:
            _core.optimize(path_or_bytes, options.optimized_model_filepath, level=optimization)

    def get_session_options(self):
        return self._sess_options

    def get_modelmeta(self):
        return self._model_meta

    def get_providers(self):
        return [CPU]

    def get_provider_options(self):
        return {CPU: {}}

    def set_providers(self, providers=None, provider_options=None):
        """Checks the providers as the constructor does; the session stays on the CPU."""
        checked_providers(providers, provider_options, stacklevel=2)

    def disable_fallback(self):
        """Nothing to fall back from on the CPU."""

    def enable_fallback(self):
        """Nothing to fall back from on the CPU."""

    def run_with_ort_values(self, output_names, input_dict_ort_values, run_options=None):
        """run() with OrtValues in and out."""
        feed = {name: value.numpy() for name, value in input_dict_ort_values.items()}
        return [OrtValue(a) for a in self.run(output_names, feed, run_options)]

    def io_binding(self):
        return IOBinding(self)

    def run_with_iobinding(self, iobinding, run_options=None):
        """Runs with the binding's inputs; its outputs are then in iobinding.get_outputs()."""
        iobinding._run(run_options)

    def get_profiling_start_time_ns(self):
        """When profiling started (the session's creation), as time.monotonic_ns()."""
        return self._profile_start[0] if self._profiling else 0

    def end_profiling(self):
        """Stops profiling and writes ONNX Runtime's JSON profile of the session's creation and
        runs; returns its file name ('' when the session was not profiling)."""
        if not self._profiling:
            return ""
        self._profiling = False
        runs, trimmed, summary = self._end_profiling()
        if trimmed:
            warnings.warn(f"the profile holds a million node events: the nodes of the last "
                          f"{trimmed} runs are left out", stacklevel=2)
        started, created, thread = self._profile_start
        return write_profile(self._sess_options.profile_file_prefix,
                             events(started, created, runs, thread, summary))
