"""ONNX Runtime's OrtValue and IOBinding on the CPU, without copies: an OrtValue holds a numpy
array (its own buffer, or bough's for an output), a bound input is read in place by the run,
and a bound output comes back over bough's buffer. Only an output bound to a buffer of the
caller's (bind_ortvalue_output, bind_output with buffer_ptr) is copied, into that buffer,
because bough's runs make their own outputs."""
import ctypes

import numpy as np


def _cpu_only(device_type, device_id=0):
    if str(device_type).lower() != "cpu" or device_id != 0:
        raise ValueError(f"bough runs on the CPU only, not on device '{device_type}' {device_id}")


# numpy's names that ONNX spells otherwise; the integer types are spelled alike.
_TYPES = {"float32": "float", "float64": "double"}


class OrtValue:
    """A tensor on the CPU: a numpy array, shared, not copied."""

    def __init__(self, array):
        if not isinstance(array, np.ndarray):
            raise TypeError(f"an OrtValue holds a numpy array, not {type(array).__name__}")
        self._array = array

    @staticmethod
    def ortvalue_from_numpy(numpy_obj, device_type="cpu", device_id=0):
        """An OrtValue over `numpy_obj`'s buffer (no copy: writes to either show in both)."""
        _cpu_only(device_type, device_id)
        return OrtValue(np.asarray(numpy_obj))

    @staticmethod
    def ortvalue_from_shape_and_type(shape=None, element_type=None, device_type="cpu",
                                     device_id=0):
        """A new tensor of `shape` and numpy `element_type`, its contents undefined."""
        if shape is None or element_type is None:
            raise ValueError("`element_type` and `shape` are to be provided if pre-allocated "
                             "memory is provided")
        _cpu_only(device_type, device_id)
        return OrtValue(np.empty(shape, element_type))

    def numpy(self):
        """The tensor as a numpy array over the same buffer."""
        return self._array.view()

    def shape(self):
        return list(self._array.shape)

    def data_type(self):
        """ONNX Runtime's name of the type: 'tensor(float)'."""
        dtype = self._array.dtype
        name = "string" if dtype.kind in "USO" else _TYPES.get(dtype.name, dtype.name)
        return f"tensor({name})"

    def element_type(self):
        """The numpy type of the elements."""
        return self._array.dtype.type

    def data_ptr(self):
        return self._array.ctypes.data

    def device_name(self):
        return "cpu"

    def is_tensor(self):
        return True

    def has_value(self):
        return True


def _array_at(buffer_ptr, element_type, shape):
    """A numpy array over memory of the caller's at `buffer_ptr`."""
    dtype = np.dtype(element_type)
    count = int(np.prod(shape, dtype=np.int64))
    raw = (ctypes.c_char * (count * dtype.itemsize)).from_address(buffer_ptr)
    return np.frombuffer(raw, dtype, count).reshape(shape)


class IOBinding:
    """Inputs and outputs bound by name for InferenceSession.run_with_iobinding."""

    def __init__(self, session):
        self._session = session
        self._inputs = {}
        self._outputs = {}  # name: the caller's array to fill, or None
        self._results = []

    def bind_cpu_input(self, name, arr_on_cpu):
        """Binds an input to an array, read in place by each run until bound again."""
        self._inputs[name] = arr_on_cpu

    def bind_ortvalue_input(self, name, ortvalue):
        self._inputs[name] = ortvalue.numpy()

    def bind_input(self, name, device_type, device_id, element_type, shape, buffer_ptr):
        """Binds an input to memory of the caller's at `buffer_ptr` (CPU only)."""
        _cpu_only(device_type, device_id)
        self._inputs[name] = _array_at(buffer_ptr, element_type, shape)

    def bind_output(self, name, device_type="cpu", device_id=0, element_type=None, shape=None,
                    buffer_ptr=None):
        """Binds an output: to a new array per run, or with buffer_ptr (element_type and
        shape given) to memory of the caller's that each run fills."""
        _cpu_only(device_type, device_id)
        target = None
        if buffer_ptr is not None:
            if element_type is None or shape is None:
                raise ValueError("`element_type` and `shape` are to be provided if "
                                 "pre-allocated memory is provided")
            target = _array_at(buffer_ptr, element_type, shape)
        self._outputs[name] = target

    def bind_ortvalue_output(self, name, ortvalue):
        """Binds an output to an OrtValue of the caller's, which each run fills."""
        self._outputs[name] = ortvalue.numpy()

    def get_outputs(self):
        """The last run's outputs as OrtValues, in the order they were bound (all of them
        when none was)."""
        return [OrtValue(a) for a in self._results]

    def copy_outputs_to_cpu(self):
        """The last run's outputs as numpy arrays; they are on the CPU already, not copied."""
        return list(self._results)

    def clear_binding_inputs(self):
        self._inputs.clear()

    def clear_binding_outputs(self):
        self._outputs.clear()
        self._results = []

    def synchronize_inputs(self):
        """Nothing to wait for on the CPU."""

    def synchronize_outputs(self):
        """Nothing to wait for on the CPU."""

    def _run(self, run_options):
        # With no output bound, every output (run() reads [] as all of them).
        results = self._session.run(list(self._outputs), self._inputs, run_options)
        for i, (name, target) in enumerate(self._outputs.items()):
            if target is None:
                continue
            if target.shape != results[i].shape or target.dtype != results[i].dtype:
                raise ValueError(f"output '{name}' is {results[i].dtype}{list(results[i].shape)}: "
                                 f"it does not fit the {target.dtype}{list(target.shape)} bound")
            np.copyto(target, results[i])
            results[i] = target
        self._results = results
