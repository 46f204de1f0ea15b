#include "numpy_values.h"

#include <string>
#include <vector>

#include "bough/error.h"
#include "kernels/convert.h"

namespace py = pybind11;
using namespace pybind11::literals;

namespace bough::python {

namespace {

using npy = py::detail::npy_api;

// The numpy dtype name of a type numpy has, "" for the others.
const char* numpy_name(ElemType t) {
  switch (t) {
    case ElemType::Float:
      return "float32";
    case ElemType::Double:
      return "float64";
    case ElemType::Float16:
      return "float16";
    case ElemType::Int8:
      return "int8";
    case ElemType::Int16:
      return "int16";
    case ElemType::Int32:
      return "int32";
    case ElemType::Int64:
      return "int64";
    case ElemType::UInt8:
      return "uint8";
    case ElemType::UInt16:
      return "uint16";
    case ElemType::UInt32:
      return "uint32";
    case ElemType::UInt64:
      return "uint64";
    case ElemType::Bool:
      return "bool";
    case ElemType::Complex64:
      return "complex64";
    case ElemType::Complex128:
      return "complex128";
    default:
      return "";
  }
}

// What a type numpy lacks travels as: float32 for the narrow floats, int8 or uint8 for the
// sub-byte integers. Undefined for the types numpy has (and strings).
ElemType numpy_stand_in(ElemType t) {
  if (numpy_name(t)[0] != '\0' || t == ElemType::String || t == ElemType::Undefined)
    return ElemType::Undefined;
  if (is_float_type(t)) return ElemType::Float;
  return is_signed_integer(t) ? ElemType::Int8 : ElemType::UInt8;
}

// The element type of a numpy array in native byte order; Undefined when bough has none.
ElemType elem_of(const py::array& a) {
  const py::dtype dt = a.dtype();
  if (dt.kind() == 'U' || dt.kind() == 'S' || dt.kind() == 'O') return ElemType::String;
  for (int code = 1; code <= kLastElemType; ++code) {
    const char* name = numpy_name(static_cast<ElemType>(code));
    if (name[0] != '\0' && dt.equal(py::dtype(name))) return static_cast<ElemType>(code);
  }
  return ElemType::Undefined;
}

Dims dims_of(const py::array& a) {
  Dims d;
  for (py::ssize_t i = 0; i < a.ndim(); ++i) d.push_back(a.shape(i));
  return d;
}

// Drops the reference a wrapped Tensor held to its array, from whichever thread lets go.
void release_array(void* object) {
  py::gil_scoped_acquire gil;
  Py_DECREF(static_cast<PyObject*>(object));
}

// A tensor over the array's own buffer; copies into a C-contiguous aligned array first when
// the array is not one.
Tensor wrap_array(py::array a, ElemType type) {
  const int needed = npy::NPY_ARRAY_C_CONTIGUOUS_ | npy::NPY_ARRAY_ALIGNED_;
  if ((a.flags() & needed) != needed) a = py::module_::import("numpy").attr("ascontiguousarray")(a);
  Dims shape = dims_of(a);
  void* data = const_cast<void*>(a.data());
  return Tensor::wrap(type, std::move(shape), data, release_array, a.release().ptr());
}

Tensor string_tensor(const py::array& a) {
  Tensor t(ElemType::String, dims_of(a));
  py::list items = a.attr("ravel")().attr("tolist")();
  std::string* out = t.strings();
  for (size_t i = 0; i < items.size(); ++i) {
    py::handle item = items[i];
    if (PyBytes_Check(item.ptr())) {
      out[i] = item.cast<std::string>();
    } else if (PyUnicode_Check(item.ptr())) {
      // surrogateescape: a string read from an output holding bytes that are not UTF-8
      // goes back as the same bytes.
      py::object bytes = py::reinterpret_steal<py::object>(
          PyUnicode_AsEncodedString(item.ptr(), "utf-8", "surrogateescape"));
      if (!bytes) throw py::error_already_set();
      out[i] = bytes.cast<std::string>();
    } else {
      throw py::type_error("a string tensor holds str or bytes, not " +
                           std::string(Py_TYPE(item.ptr())->tp_name));
    }
  }
  return t;
}

Tensor to_tensor(py::handle object, ElemType declared) {
  py::array a = py::module_::import("numpy").attr("asarray")(object);
  const ElemType given = elem_of(a);
  if (given == ElemType::String) return string_tensor(a);
  if (given == ElemType::Undefined)
    throw py::type_error("bough has no element type for numpy dtype " +
                         std::string(py::str(a.dtype())));
  if (declared != ElemType::Undefined && numpy_stand_in(declared) == given)
    return kernels::cast(wrap_array(a, given), declared);
  return wrap_array(a, given);
}

bool is_sequence_type(const ValueInfo& info) {
  return info.type.starts_with("seq(") || info.type.starts_with("optional(seq(");
}

// An output tensor as a numpy array that owns a reference to its buffer.
py::object array_of(Tensor t) {
  if (t.type() == ElemType::String) {
    py::list items;
    const std::string* s = t.strings();
    for (int64_t i = 0; i < t.numel(); ++i)
      items.append(py::reinterpret_steal<py::object>(PyUnicode_DecodeUTF8(
          s[i].data(), static_cast<py::ssize_t>(s[i].size()), "surrogateescape")));
    py::array flat = py::module_::import("numpy").attr("array")(items, "dtype"_a = "object");
    return flat.attr("reshape")(py::tuple(py::cast(t.shape().vec())));
  }
  if (ElemType stand_in = numpy_stand_in(t.type()); stand_in != ElemType::Undefined)
    t = kernels::cast(t, stand_in);
  py::dtype dtype(numpy_name(t.type()));
  std::vector<py::ssize_t> shape(t.shape().begin(), t.shape().end());
  auto* holder = new Tensor(std::move(t));
  py::capsule owner(holder, [](void* p) { delete static_cast<Tensor*>(p); });
  return py::array(dtype, shape, holder->raw(), owner);
}

}  // namespace

Value to_value(py::handle object, const ValueInfo& info) {
  if (object.is_none()) return Value::none();
  if (!is_sequence_type(info)) return to_tensor(object, info.elem);
  if (!py::isinstance<py::list>(object) && !py::isinstance<py::tuple>(object))
    throw py::type_error("input '" + info.name + "' is a sequence: give a list of arrays");
  std::vector<Value> items;
  for (py::handle item : object) items.emplace_back(to_tensor(item, info.elem));
  ElemType elem = info.elem;
  if (elem == ElemType::Undefined && !items.empty()) elem = items[0].tensor().type();
  return Value::sequence(elem, std::move(items));
}

py::object to_python(Value value) {
  if (value.is_none()) return py::none();
  if (value.is_tensor()) return array_of(std::move(value.tensor()));
  py::list items;
  for (const Value& item : value.seq().items) items.append(to_python(item));
  return items;
}

}  // namespace bough::python
