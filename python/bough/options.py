"""ONNX Runtime's SessionOptions, RunOptions and their enums. A field is converted to its
type when set, as ONNX Runtime's are, and a name neither has raises AttributeError, so that
a misspelled option is not silently ignored. Which fields bough acts on is in session.py."""
import enum
import operator
import os

from ._core import _RunOptions


class GraphOptimizationLevel(enum.IntEnum):
    """ONNX Runtime's levels; a session runs ORT_DISABLE_ALL as bough's optimization 'none',
    ORT_ENABLE_BASIC as 'basic' and the other two as 'all' (which fuses into com.microsoft
    operators, as ONNX Runtime's extended level does)."""
    ORT_DISABLE_ALL = 0
    ORT_ENABLE_BASIC = 1
    ORT_ENABLE_EXTENDED = 2
    ORT_ENABLE_ALL = 99


class ExecutionMode(enum.IntEnum):
    """ONNX Runtime's execution modes; bough runs one node at a time (ORT_SEQUENTIAL)."""
    ORT_SEQUENTIAL = 0
    ORT_PARALLEL = 1


def _converted(owner, name, value, default):
    """`value` for the field `name` whose default is `default`, in the default's type."""
    kind = type(default)
    try:
        if isinstance(default, enum.Enum):
            return kind(value)
        if kind is bool:
            if isinstance(value, (str, bytes)):
                raise TypeError
            return bool(value)
        if kind is int:
            return operator.index(value)
        value = os.fspath(value)
        if isinstance(value, str):
            return value
        raise TypeError
    except (TypeError, ValueError):
        raise TypeError(f"{owner}.{name} must be {kind.__name__}, not {value!r}") from None


class _Fields:
    """The fields in FIELDS (name: default), checked when set."""
    FIELDS = {}

    def __init__(self):
        super().__init__()
        for name, default in self.FIELDS.items():
            object.__setattr__(self, name, default)
        object.__setattr__(self, "_config", {})

    def __setattr__(self, name, value):
        if name in self.FIELDS:
            value = _converted(type(self).__name__, name, value, self.FIELDS[name])
        elif not hasattr(type(self), name):  # e.g. RunOptions.terminate, a property
            raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")
        object.__setattr__(self, name, value)

    def _set_entry(self, key, value):
        if not isinstance(key, str) or not isinstance(value, str):
            raise TypeError("a configuration entry is a pair of str")
        self._config[key] = value

    def _entry(self, key):
        if key not in self._config:
            raise RuntimeError(f"{type(self).__name__} does not have configuration with key: {key}")
        return self._config[key]

    def __repr__(self):
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.FIELDS)
        return f"{type(self).__name__}({fields})"


class SessionOptions(_Fields):
    """How an InferenceSession is made, with ONNX Runtime's fields and defaults."""
    FIELDS = {
        "intra_op_num_threads": 0,  # 0: one thread per physical core, as in ONNX Runtime
        "inter_op_num_threads": 0,
        "execution_mode": ExecutionMode.ORT_SEQUENTIAL,
        "graph_optimization_level": GraphOptimizationLevel.ORT_ENABLE_ALL,
        "enable_profiling": False,
        "profile_file_prefix": "onnxruntime_profile_",
        "optimized_model_filepath": "",
        "enable_cpu_mem_arena": True,
        "enable_mem_pattern": True,
        "enable_mem_reuse": True,
        "log_severity_level": 2,
        "log_verbosity_level": 0,
        "logid": "",
    }

    def add_session_config_entry(self, config_key, config_value):
        """Records a configuration entry; bough acts on none of them (a session warns)."""
        self._set_entry(config_key, config_value)

    def get_session_config_entry(self, config_key):
        """The entry's value; RuntimeError when there is none."""
        return self._entry(config_key)


class RunOptions(_Fields, _RunOptions):
    """How one run goes. `terminate`, set from any thread, stops the runs using these options
    (bough.Error, kind 'stopped'), and a run started while it is set stops at once; set it back
    to False to run again. The log fields and configuration entries are kept, for bough
    writes no log and has no per-run setting."""
    FIELDS = {
        "log_severity_level": 2,
        "log_verbosity_level": 0,
        "logid": "",
        "only_execute_path_to_fetches": False,
    }

    def add_run_config_entry(self, config_key, config_value):
        """Records a configuration entry."""
        self._set_entry(config_key, config_value)

    def get_run_config_entry(self, config_key):
        """The entry's value; RuntimeError when there is none."""
        return self._entry(config_key)
