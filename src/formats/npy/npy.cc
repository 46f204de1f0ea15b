#include "formats/npy/npy.h"

#include <algorithm>
#include <cstring>
#include <string_view>
#include <utility>

#include "bough/error.h"
#include "formats/npy/npy_object.h"
#include "util/bool_bytes.h"
#include "util/files.h"
#include "util/printable.h"

namespace bough::npy {

namespace {

// numpy dtype kinds and sizes for the element types numpy can hold (strings apart: <U, S).
struct Descr {
  char kind;
  size_t size;
  ElemType type;
};
constexpr Descr kDescrs[] = {
    {'f', 4, ElemType::Float},     {'f', 8, ElemType::Double},      {'f', 2, ElemType::Float16},
    {'i', 1, ElemType::Int8},      {'i', 2, ElemType::Int16},       {'i', 4, ElemType::Int32},
    {'i', 8, ElemType::Int64},     {'u', 1, ElemType::UInt8},       {'u', 2, ElemType::UInt16},
    {'u', 4, ElemType::UInt32},    {'u', 8, ElemType::UInt64},      {'b', 1, ElemType::Bool},
    {'c', 8, ElemType::Complex64}, {'c', 16, ElemType::Complex128},
};

// The header is a Python dict literal, {'descr': '<f4', 'fortran_order': False,
// 'shape': (2, 3), }, parsed strictly: the three keys once each and nothing else, each dim
// digits only. A loose reading turned "(2x, -0)" into [2, 0].
struct Header {
  std::string descr;
  bool fortran = false;
  Dims shape;
};

class HeaderParser {
 public:
  HeaderParser(std::string_view text, const std::string& path) : text_(text), path_(path) {}

  Header parse() {
    Header h;
    bool has_descr = false, has_order = false, has_shape = false;
    expect('{');
    while (!eat('}')) {
      const std::string key = quoted();
      expect(':');
      skip_space();
      if (key == "descr" && !has_descr) {
        h.descr = quoted();
        has_descr = true;
      } else if (key == "fortran_order" && !has_order) {
        h.fortran = boolean();
        has_order = true;
      } else if (key == "shape" && !has_shape) {
        h.shape = tuple();
        has_shape = true;
      } else {
        bad("the key '" + key + "' is unknown or repeated");
      }
      if (!eat(',')) {
        expect('}');
        break;
      }
    }
    skip_space();
    if (at_ != text_.size()) bad("text after the dict");
    if (!has_descr || !has_order || !has_shape)
      bad("it needs 'descr', 'fortran_order' and 'shape'");
    return h;
  }

 private:
  [[noreturn]] void bad(const std::string& why) {
    fail(ErrorKind::BadInput, path_, "npy header is not valid: " + why);
  }
  void skip_space() {
    while (at_ < text_.size() && (text_[at_] == ' ' || text_[at_] == '\n')) ++at_;
  }
  bool eat(char c) {
    skip_space();
    if (at_ < text_.size() && text_[at_] == c) {
      ++at_;
      return true;
    }
    return false;
  }
  void expect(char c) {
    if (!eat(c)) bad(std::string("'") + c + "' expected at byte " + std::to_string(at_));
  }
  std::string quoted() {
    skip_space();
    const char q = at_ < text_.size() ? text_[at_] : 0;
    if (q != '\'' && q != '"') bad("a quoted string expected at byte " + std::to_string(at_));
    const size_t end = text_.find(q, at_ + 1);
    if (end == std::string_view::npos) bad("a string is not closed");
    std::string out(text_.substr(at_ + 1, end - at_ - 1));
    at_ = end + 1;
    return out;
  }
  bool boolean() {
    for (const auto& [word, value] : {std::pair{"True", true}, std::pair{"False", false}})
      if (text_.substr(at_, std::strlen(word)) == word) {
        at_ += std::strlen(word);
        return value;
      }
    bad("'fortran_order' is neither True nor False");
  }
  Dims tuple() {
    Dims dims;
    expect('(');
    while (!eat(')')) {
      skip_space();
      int64_t d = 0;
      const size_t start = at_;
      for (; at_ < text_.size() && text_[at_] >= '0' && text_[at_] <= '9'; ++at_)
        if (__builtin_mul_overflow(d, 10, &d) || __builtin_add_overflow(d, text_[at_] - '0', &d))
          bad("a dimension of the shape is too large");
      if (at_ == start)
        bad("a dimension of the shape is not a count, at byte " + std::to_string(at_));
      if (at_ < text_.size() && text_[at_] == 'L') ++at_;  // Python 2's long
      dims.push_back(d);
      if (!eat(',')) {
        expect(')');
        break;
      }
    }
    return dims;
  }

  std::string_view text_;
  const std::string& path_;
  size_t at_ = 0;
};

// A parsed dtype string such as "<f4", ">i8", "|b1", "<U5", "|S3".
struct Dtype {
  bool big_endian = false;
  char kind = 0;
  size_t size = 0;       // bytes per element
  size_t swap_unit = 0;  // bytes swapped together on a big-endian file (0: none)
  ElemType type = ElemType::Undefined;
};

Dtype parse_dtype(const std::string& descr, const std::string& path) {
  auto unsupported = [&] { fail(ErrorKind::Unsupported, path, "npy dtype '" + descr + "'"); };
  if (descr.size() < 2) unsupported();
  Dtype d;
  size_t at = 0;
  if (std::strchr("<>|=", descr[0])) {
    d.big_endian = descr[0] == '>';
    at = 1;
  }
  d.kind = descr[at];
  const std::string count = descr.substr(at + 1);
  if (count.empty() || count.find_first_not_of("0123456789") != std::string::npos) unsupported();
  // A string of more than 2^30 characters is refused before it is read as a number.
  constexpr size_t kMaxCount = size_t{1} << 30;
  const size_t n = count.size() > 10 ? kMaxCount + 1 : std::stoull(count);
  if (d.kind == 'U' || d.kind == 'S') {
    if (n == 0 || n > kMaxCount)
      fail(ErrorKind::BadInput, path,
           "npy dtype '" + descr + "': strings of " + (n ? "over 2^30" : "no") + " characters");
    d.type = ElemType::String;
  }
  if (d.kind == 'U') {  // n UTF-32 code units per string, zero-padded
    d.size = 4 * n;
    d.swap_unit = 4;
    return d;
  }
  if (d.kind == 'S') {  // n bytes per string, zero-padded
    d.size = n;
    return d;
  }
  for (const Descr& known : kDescrs)
    if (known.kind == d.kind && known.size == n) d.type = known.type;
  if (d.type == ElemType::Undefined) unsupported();
  d.size = n;
  d.swap_unit = d.kind == 'c' ? n / 2 : n;
  return d;
}

// The element count of `shape` when the `available` bytes hold that many elements of
// `size` bytes (size > 0); throws otherwise, before anything is allocated.
size_t checked_count(const Dims& shape, size_t size, size_t available, const std::string& path) {
  const size_t most = available / size;
  if (std::find(shape.begin(), shape.end(), 0) != shape.end()) return 0;
  size_t count = 1;  // a scalar's shape is empty, and its one element must be there too
  for (int64_t d : shape)
    if (__builtin_mul_overflow(count, static_cast<size_t>(d), &count))
      fail(ErrorKind::BadInput, path, "npy data is shorter than its shape needs");
  if (count > most) fail(ErrorKind::BadInput, path, "npy data is shorter than its shape needs");
  return count;
}

void append_utf8(uint32_t c, std::string* out) {
  if (c < 0x80) {
    *out += static_cast<char>(c);
  } else if (c < 0x800) {
    *out += static_cast<char>(0xC0 | (c >> 6));
    *out += static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    *out += static_cast<char>(0xE0 | (c >> 12));
    *out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    *out += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    *out += static_cast<char>(0xF0 | (c >> 18));
    *out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    *out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    *out += static_cast<char>(0x80 | (c & 0x3F));
  }
}

// The code points of UTF-8 text; a byte that is not part of valid UTF-8 stands for itself
// (U+0080-U+00FF), so that every code point written is a character numpy reads.
std::vector<uint32_t> decode_utf8(const std::string& s) {
  std::vector<uint32_t> out;
  for (size_t i = 0; i < s.size();) {
    const auto b = static_cast<unsigned char>(s[i]);
    const size_t len = util::utf8_sequence_length(s, i);
    if (len <= 1) {
      out.push_back(b);
      ++i;
      continue;
    }
    uint32_t c = b & (0xFF >> (len + 1));
    for (size_t k = 1; k < len; ++k) c = (c << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
    out.push_back(c);
    i += len;
  }
  return out;
}

// The C-order index of each element stored in Fortran order.
std::vector<int64_t> fortran_to_c(const Dims& shape) {
  const int64_t n = shape.numel();
  std::vector<int64_t> out(static_cast<size_t>(n));
  std::vector<int64_t> index(shape.size(), 0);
  for (int64_t f = 0; f < n; ++f) {
    int64_t c = 0;
    for (size_t a = 0; a < shape.size(); ++a) c = c * shape[a] + index[a];
    out[static_cast<size_t>(f)] = c;
    for (size_t a = 0; a < shape.size(); ++a) {  // the first axis varies fastest
      if (++index[a] < shape[a]) break;
      index[a] = 0;
    }
  }
  return out;
}

}  // namespace

Tensor read_npy(const std::string& path) { return decode_npy(read_file(path), path); }

Tensor decode_npy(std::string bytes, const std::string& path) {
  if (bytes.size() < 10 || bytes.compare(0, 6, "\x93NUMPY") != 0)
    fail(ErrorKind::BadInput, path, "not a .npy file");
  const int major = static_cast<uint8_t>(bytes[6]);
  if (major < 1 || major > 3)
    fail(ErrorKind::Unsupported, path, "npy format version " + std::to_string(major));
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
  const Header header =
      HeaderParser(std::string_view(bytes).substr(offset, header_len), path).parse();
  const size_t data = offset + header_len;
  if (header.descr == "|O")
    return decode_object_array(std::string_view(bytes).substr(data), header.shape, path);
  const Dtype dtype = parse_dtype(header.descr, path);
  const bool fortran = header.fortran;
  const Dims& shape = header.shape;
  const size_t count = checked_count(shape, dtype.size, bytes.size() - data, path);
  char* raw = bytes.data() + data;
  if (dtype.big_endian && dtype.swap_unit > 1)
    for (size_t at = 0; at < count * dtype.size; at += dtype.swap_unit)
      std::reverse(raw + at, raw + at + dtype.swap_unit);
  Tensor t(dtype.type, shape);
  const std::vector<int64_t> order = fortran ? fortran_to_c(shape) : std::vector<int64_t>{};
  auto place = [&](size_t i) { return fortran ? static_cast<size_t>(order[i]) : i; };
  for (size_t i = 0; i < count; ++i) {
    const char* item = raw + i * dtype.size;
    // numpy drops a string's trailing NULs only: one inside the string is kept.
    size_t used = dtype.size;
    if (dtype.kind == 'U' || dtype.kind == 'S')
      while (used > 0 && item[used - 1] == 0) --used;
    if (dtype.kind == 'U') {
      std::string s;
      for (size_t k = 0; k < used; k += 4) {  // whole code units: size is a multiple of 4
        uint32_t c;
        std::memcpy(&c, item + k, 4);
        if (c > 0x10FFFF)
          fail(ErrorKind::BadInput, path,
               "npy string holds the code unit " + std::to_string(c) + ", which is no character");
        append_utf8(c, &s);
      }
      t.strings()[place(i)] = std::move(s);
    } else if (dtype.kind == 'S') {
      t.strings()[place(i)] = std::string(item, used);
    } else {
      std::memcpy(static_cast<char*>(t.raw()) + place(i) * dtype.size, item, dtype.size);
    }
  }
  if (t.type() == ElemType::Bool) util::normalize_bools(t.raw(), t.nbytes());
  return t;
}

bool has_dtype(ElemType type) {
  if (type == ElemType::String) return true;
  for (const Descr& d : kDescrs)
    if (d.type == type) return true;
  return false;
}

std::string encode_npy(const Tensor& t) {
  std::string code, body;
  if (t.type() == ElemType::String) {
    // UTF-32 code units, each string padded to the longest (numpy's '<U' dtype).
    std::vector<std::vector<uint32_t>> texts;
    size_t longest = 1;
    for (int64_t i = 0; i < t.numel(); ++i) {
      texts.push_back(decode_utf8(t.strings()[i]));
      longest = std::max(longest, texts.back().size());
    }
    code = "<U" + std::to_string(longest);
    body.assign(texts.size() * longest * 4, '\0');
    for (size_t i = 0; i < texts.size(); ++i)
      if (!texts[i].empty())
        std::memcpy(&body[i * longest * 4], texts[i].data(), texts[i].size() * 4);
  } else {
    for (const Descr& d : kDescrs)
      if (d.type == t.type())
        code = std::string(d.size == 1 ? "|" : "<") + d.kind + std::to_string(d.size);
    if (code.empty())
      fail(ErrorKind::Unsupported, "",
           "numpy has no dtype for " + std::string(elem_name(t.type())));
    body.assign(static_cast<const char*>(t.raw()), t.nbytes());
  }
  std::string shape = "(";
  for (size_t i = 0; i < t.rank(); ++i)
    shape += std::to_string(t.dim(i)) + (t.rank() == 1 || i + 1 < t.rank() ? "," : "");
  shape += ")";
  std::string header =
      "{'descr': '" + code + "', 'fortran_order': False, 'shape': " + shape + ", }";
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::string out = "\x93NUMPY";
  out += '\x01';
  out += '\x00';
  out += static_cast<char>(header.size() & 0xff);
  out += static_cast<char>(header.size() >> 8);
  out += header;
  return out + body;
}

void write_npy(const Tensor& t, const std::string& path) { write_file_atomic(path, encode_npy(t)); }

}  // namespace bough::npy
