#include "run_once.h"

#include <cstring>

#include "bough/error.h"

namespace bough::fuzz {

namespace {

Tensor made_up_tensor(const ValueInfo& info, std::string_view bytes, int64_t max_elements) {
  Dims dims;
  int64_t n = 1;
  for (const Dim& d : info.shape) {
    const int64_t size = d.known() ? d.size : 2;
    if (size != 0 && n > max_elements / size) return {};
    n *= size;
    dims.push_back(size);
  }
  Tensor t(info.elem, std::move(dims));
  if (info.elem == ElemType::String) {
    for (int64_t i = 0; i < n; ++i)
      t.strings()[i] = bytes.empty() ? "" : std::string(bytes.substr(i % bytes.size(), 3));
    return t;
  }
  auto* out = static_cast<unsigned char*>(t.raw());
  for (size_t i = 0; i < t.nbytes(); ++i) {
    const unsigned char b = bytes.empty() ? 0 : static_cast<unsigned char>(bytes[i % bytes.size()]);
    out[i] = info.elem == ElemType::Bool ? (b & 1) : b;
  }
  return t;
}

}  // namespace

std::optional<NamedValues> generated_inputs(const Session& session, std::string_view bytes,
                                            int64_t max_elements) {
  NamedValues inputs;
  for (const ValueInfo& info : session.inputs()) {
    if (info.type.rfind("tensor(", 0) != 0 || info.elem == ElemType::Undefined || !info.rank_known)
      return std::nullopt;
    Tensor t = made_up_tensor(info, bytes, max_elements);
    if (t.type() == ElemType::Undefined) return std::nullopt;
    inputs.emplace_back(info.name, Value(std::move(t)));
  }
  return inputs;
}

bool run_once(const Model& model, std::string_view bytes, double time_limit_seconds) {
  try {
    // A model may legitimately ask for more memory or time than a server would give it
    // (a window of 2^31 samples); the session's limits turn that into an Error.
    SessionOptions options;
    options.memory_limit_bytes = size_t{256} << 20;
    options.time_limit_seconds = time_limit_seconds;
    Session session(model, options);
    std::optional<NamedValues> inputs = generated_inputs(session, bytes);
    if (!inputs) return false;
    session.run(*inputs);
    return true;
  } catch (const Error&) {
    return false;
  }
}

}  // namespace bough::fuzz
