#include "formats/npy/npy.h"

#include <cstring>

#include "bough/error.h"
#include "util/files.h"

namespace bough::npy {

namespace {

struct Descr {
  const char* code;
  ElemType type;
};
// numpy dtype strings for the element types numpy can hold.
constexpr Descr kDescrs[] = {
    {"<f4", ElemType::Float},     {"<f8", ElemType::Double},      {"<f2", ElemType::Float16},
    {"|i1", ElemType::Int8},      {"<i2", ElemType::Int16},       {"<i4", ElemType::Int32},
    {"<i8", ElemType::Int64},     {"|u1", ElemType::UInt8},       {"<u2", ElemType::UInt16},
    {"<u4", ElemType::UInt32},    {"<u8", ElemType::UInt64},      {"|b1", ElemType::Bool},
    {"<c8", ElemType::Complex64}, {"<c16", ElemType::Complex128},
};

std::string header_value(const std::string& header, const std::string& key,
                         const std::string& path) {
  size_t k = header.find("'" + key + "'");
  if (k == std::string::npos) fail(ErrorKind::BadInput, path, "npy header has no '" + key + "'");
  size_t colon = header.find(':', k);
  size_t start = header.find_first_not_of(' ', colon + 1);
  if (header[start] == '(') return header.substr(start + 1, header.find(')', start) - start - 1);
  size_t end = header.find_first_of(",}", start);
  std::string v = header.substr(start, end - start);
  while (!v.empty() && (v.back() == ' ')) v.pop_back();
  if (v.size() >= 2 && v.front() == '\'') v = v.substr(1, v.size() - 2);
  return v;
}

}  // namespace

Tensor read_npy(const std::string& path) {
  std::string bytes = read_file(path);
  if (bytes.size() < 10 || bytes.compare(0, 6, "\x93NUMPY") != 0)
    fail(ErrorKind::BadInput, path, "not a .npy file");
  int major = static_cast<uint8_t>(bytes[6]);
  size_t header_len, offset;
  if (major == 1) {
    header_len =
        static_cast<uint8_t>(bytes[8]) | (static_cast<size_t>(static_cast<uint8_t>(bytes[9])) << 8);
    offset = 10;
  } else {
    if (bytes.size() < 12) fail(ErrorKind::BadInput, path, "truncated .npy header");
    header_len = 0;
    for (int i = 0; i < 4; ++i)
      header_len |= static_cast<size_t>(static_cast<uint8_t>(bytes[8 + static_cast<size_t>(i)]))
                    << (8 * i);
    offset = 12;
  }
  if (offset + header_len > bytes.size()) fail(ErrorKind::BadInput, path, "truncated .npy header");
  std::string header = bytes.substr(offset, header_len);
  std::string descr = header_value(header, "descr", path);
  if (header_value(header, "fortran_order", path) != "False")
    fail(ErrorKind::Unsupported, path, "Fortran-order .npy files");
  ElemType type = ElemType::Undefined;
  for (const auto& d : kDescrs)
    if (descr == d.code ||
        (descr.size() == 3 && descr[0] == '=' && descr.substr(1) == std::string(d.code).substr(1)))
      type = d.type;
  if (type == ElemType::Undefined) fail(ErrorKind::Unsupported, path, "npy dtype '" + descr + "'");
  Dims shape;
  std::string dims = header_value(header, "shape", path);
  size_t pos = 0;
  while (pos < dims.size()) {
    size_t next = dims.find(',', pos);
    std::string item = dims.substr(pos, next == std::string::npos ? std::string::npos : next - pos);
    if (item.find_first_not_of(' ') != std::string::npos) shape.push_back(std::stoll(item));
    if (next == std::string::npos) break;
    pos = next + 1;
  }
  Tensor t(type, shape);
  size_t data = offset + header_len;
  if (bytes.size() - data < t.nbytes())
    fail(ErrorKind::BadInput, path, "npy data is shorter than its shape needs");
  if (t.nbytes()) std::memcpy(t.raw(), bytes.data() + data, t.nbytes());
  return t;
}

std::string encode_npy(const Tensor& t) {
  const char* code = nullptr;
  for (const auto& d : kDescrs)
    if (d.type == t.type()) code = d.code;
  if (!code)
    fail(ErrorKind::Unsupported, "", "numpy has no dtype for " + std::string(elem_name(t.type())));
  std::string shape = "(";
  for (size_t i = 0; i < t.rank(); ++i)
    shape += std::to_string(t.dim(i)) + (t.rank() == 1 || i + 1 < t.rank() ? "," : "");
  shape += ")";
  std::string header =
      "{'descr': '" + std::string(code) + "', 'fortran_order': False, 'shape': " + shape + ", }";
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::string out = "\x93NUMPY";
  out += '\x01';
  out += '\x00';
  out += static_cast<char>(header.size() & 0xff);
  out += static_cast<char>(header.size() >> 8);
  out += header;
  out.append(static_cast<const char*>(t.raw()), t.nbytes());
  return out;
}

void write_npy(const Tensor& t, const std::string& path) { write_file_atomic(path, encode_npy(t)); }

}  // namespace bough::npy
