#include "numpy_values.h"

#include <bit>
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

// numpy's functions, looked up once (init_numpy) rather than on every call.
py::handle np_asarray, np_ascontiguousarray, np_array;

// The element type of a numpy array in native byte order; Undefined when bough has none.
ElemType elem_of(const py::array& a) {
  const py::dtype dt = a.dtype();
  const char kind = dt.kind();
  if (kind == 'U' || kind == 'S' || kind == 'O') return ElemType::String;
  const char order = dt.byteorder();
  const bool native = order == '=' || order == '|' ||
                      order == (std::endian::native == std::endian::little ? '<' : '>');
  if (!native) return ElemType::Undefined;
  switch (kind * 100 + dt.itemsize()) {
    case 'f' * 100 + 2:
      return ElemType::Float16;
    case 'f' * 100 + 4:
      return ElemType::Float;
    case 'f' * 100 + 8:
      return ElemType::Double;
    case 'i' * 100 + 1:
      return ElemType::Int8;
    case 'i' * 100 + 2:
      return ElemType::Int16;
    case 'i' * 100 + 4:
      return ElemType::Int32;
    case 'i' * 100 + 8:
      return ElemType::Int64;
    case 'u' * 100 + 1:
      return ElemType::UInt8;
    case 'u' * 100 + 2:
      return ElemType::UInt16;
    case 'u' * 100 + 4:
      return ElemType::UInt32;
    case 'u' * 100 + 8:
      return ElemType::UInt64;
    case 'b' * 100 + 1:
      return ElemType::Bool;
    case 'c' * 100 + 8:
      return ElemType::Complex64;
    case 'c' * 100 + 16:
      return ElemType::Complex128;
    default:
      return ElemType::Undefined;
  }
}

// The numpy dtype of a type numpy has, made once per type.
const py::dtype& dtype_of(ElemType t) {
  static py::dtype* made[kLastElemType + 1] = {};
  py::dtype*& d = made[static_cast<int>(t)];
  if (!d) d = new py::dtype(numpy_name(t));  // kept for the life of the process
  return *d;
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
  py::array a = py::isinstance<py::array>(object) ? py::reinterpret_borrow<py::array>(object)
                                                  : py::array(np_asarray(object));
  ElemType given = elem_of(a);
  if (given == ElemType::String) return string_tensor(a);
  if (given == ElemType::Undefined && a.dtype().byteorder() != '|') {  // swapped byte order
    a = a.attr("astype")(a.dtype().attr("newbyteorder")("="));
    given = elem_of(a);
  }
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
    py::array flat = np_array(items, "dtype"_a = "object");
    py::tuple shape(t.rank());
    for (size_t i = 0; i < t.rank(); ++i) shape[i] = py::int_(t.dim(i));
    return flat.attr("reshape")(shape);
  }
  if (ElemType stand_in = numpy_stand_in(t.type()); stand_in != ElemType::Undefined)
    t = kernels::cast(t, stand_in);
  const py::dtype& dtype = dtype_of(t.type());
  std::vector<py::ssize_t> shape(t.shape().begin(), t.shape().end());
  auto* holder = new Tensor(std::move(t));
  py::capsule owner(holder, [](void* p) { delete static_cast<Tensor*>(p); });
  return py::array(dtype, shape, holder->raw(), owner);
}

}  // namespace

void init_numpy() {
  py::module_ numpy = py::module_::import("numpy");
  np_asarray = py::object(numpy.attr("asarray")).release();
  np_ascontiguousarray = py::object(numpy.attr("ascontiguousarray")).release();
  np_array = py::object(numpy.attr("array")).release();
}

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
