#include "formats/openvino/map_helpers.h"

#include <cstdlib>

#include "bough/error.h"

namespace bough::openvino {

bool flag(const XmlLayer& l, const char* key, bool fallback) {
  const std::string* v = l.attr(key);
  if (!v) return fallback;
  return *v == "true" || *v == "1" || *v == "True";
}

int64_t int_data(GraphLowering& g, const XmlLayer& l, const char* key, int64_t fallback) {
  const std::string* v = l.attr(key);
  if (!v) return fallback;
  char* end = nullptr;
  long long x = std::strtoll(v->c_str(), &end, 10);
  if (v->empty() || *end != '\0')
    fail(ErrorKind::InvalidModel, g.where(l),
         std::string(key) + "=\"" + *v + "\" is not an integer");
  return x;
}

double float_data(GraphLowering& g, const XmlLayer& l, const char* key, double fallback) {
  const std::string* v = l.attr(key);
  if (!v) return fallback;
  char* end = nullptr;
  double x = std::strtod(v->c_str(), &end);
  if (v->empty() || *end != '\0')
    fail(ErrorKind::InvalidModel, g.where(l), std::string(key) + "=\"" + *v + "\" is not a number");
  return x;
}

std::vector<int64_t> int_list(GraphLowering& g, const XmlLayer& l, const char* key) {
  std::vector<int64_t> out;
  const std::string* v = l.attr(key);
  if (!v) return out;
  size_t pos = 0;
  while (pos < v->size()) {
    size_t comma = v->find(',', pos);
    std::string item = v->substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    char* end = nullptr;
    long long x = std::strtoll(item.c_str(), &end, 10);
    if (item.empty() || *end != '\0')
      fail(ErrorKind::InvalidModel, g.where(l),
           std::string(key) + "=\"" + *v + "\" is not a list of integers");
    out.push_back(x);
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  return out;
}

std::vector<int64_t> const_ints(GraphLowering& g, const LayerIO& io, size_t input,
                                const char* what) {
  const Tensor* t = GraphLowering::constant_value(io.in.at(input));
  if (!t || (t->type() != ElemType::Int64 && t->type() != ElemType::Int32))
    fail(ErrorKind::Unsupported, g.where(io.layer),
         std::string(what) + " must be an int32/int64 constant to map to ONNX");
  std::vector<int64_t> v;
  for (int64_t i = 0; i < t->numel(); ++i)
    v.push_back(t->type() == ElemType::Int64 ? t->data<int64_t>()[i] : t->data<int32_t>()[i]);
  return v;
}

Tensor i64_tensor(const std::vector<int64_t>& v) {
  return Tensor::from_vector(ElemType::Int64, {static_cast<int64_t>(v.size())}, v);
}

void check_inputs(GraphLowering& g, const LayerIO& io, size_t lo, size_t hi) {
  if (io.in.size() < lo || io.in.size() > hi || io.out.size() != 1)
    fail(ErrorKind::InvalidModel, g.where(io.layer),
         "expected " + std::to_string(lo) + (lo == hi ? "" : " to " + std::to_string(hi)) +
             " inputs and one output, got " + std::to_string(io.in.size()) + " and " +
             std::to_string(io.out.size()));
}

}  // namespace bough::openvino
