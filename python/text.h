// Names and messages between bough and Python. A model's names may hold any byte; a str
// made strictly from them would raise UnicodeDecodeError for bytes that are not UTF-8.
#pragma once

#include <pybind11/pybind11.h>

#include <string>
#include <string_view>

namespace bough::python {

// `bytes` as str, with `errors` for what is not UTF-8 ("surrogateescape", "backslashreplace").
inline pybind11::str decoded(std::string_view bytes, const char* errors) {
  PyObject* s = PyUnicode_DecodeUTF8(bytes.data(), static_cast<Py_ssize_t>(bytes.size()), errors);
  if (!s) throw pybind11::error_already_set();
  return pybind11::reinterpret_steal<pybind11::str>(s);
}

// A name from a model: bytes that are not UTF-8 become surrogates (Python's surrogateescape,
// as os.fsdecode does), so every name reads, and the same str given back finds it.
inline pybind11::str name_to_python(std::string_view name) {
  return decoded(name, "surrogateescape");
}

// A name given from Python: a str encoded back with surrogateescape, or bytes as they are.
inline std::string name_from_python(pybind11::handle name) {
  if (PyBytes_Check(name.ptr())) return name.cast<std::string>();
  pybind11::str text(name);
  PyObject* bytes = PyUnicode_AsEncodedString(text.ptr(), "utf-8", "surrogateescape");
  if (!bytes) throw pybind11::error_already_set();
  return pybind11::reinterpret_steal<pybind11::bytes>(bytes).cast<std::string>();
}

// A message for people: bytes that are not UTF-8 shown as \xNN.
inline pybind11::str message_to_python(std::string_view text) {
  return decoded(text, "backslashreplace");
}

}  // namespace bough::python
