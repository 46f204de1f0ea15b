#include "ops/def_from_rows.h"

#include <algorithm>
#include <stdexcept>
#include <utility>
#include <vector>

namespace bough::ops {

namespace {

// The fewest and most values a list of formals takes, as ONNX's OpSchema counts them: an
// optional formal may be left out only after the last required one (before it, an empty
// name stands in its place), and a variadic one, last, takes one or more.
std::pair<int, int> count_formals(const std::vector<Formal>& formals) {
  int min = 0, max = 0;
  for (const Formal& f : formals) {
    switch (f.arity) {
      case Arity::Single:
        min = ++max;
        break;
      case Arity::Optional:
        ++max;
        break;
      case Arity::Variadic:
      case Arity::Heterogeneous:
        min = max + 1;
        max = kVariadic;
        break;
    }
  }
  return {min, max};
}

}  // namespace

ValueCounts counts_from_rows(std::span<const SignatureText> rows) {
  if (rows.empty()) throw std::invalid_argument("an operator without schema rows");
  ValueCounts c{kVariadic, 0, kVariadic, 0};
  for (const SignatureText& row : rows) {
    const Signature sig = parse_signature(row.since, row.text);
    const auto [min_in, max_in] = count_formals(sig.inputs);
    const auto [min_out, max_out] = count_formals(sig.outputs);
    c.min_inputs = std::min(c.min_inputs, min_in);
    c.max_inputs = std::max(c.max_inputs, max_in);
    c.min_outputs = std::min(c.min_outputs, min_out);
    c.max_outputs = std::max(c.max_outputs, max_out);
  }
  return c;
}

OpDef def_from_rows(std::string_view domain, std::string_view name, KernelFactory make,
                    InferFn infer, std::span<const SignatureText> rows, OpOptions options) {
  const ValueCounts c = options.counts ? *options.counts : counts_from_rows(rows);
  std::vector<int> versions;
  for (const SignatureText& row : rows) versions.push_back(row.since);
  return OpDef{domain,
               name,
               std::move(versions),
               c.min_inputs,
               c.max_inputs,
               c.min_outputs,
               c.max_outputs,
               make,
               infer,
               std::vector<SignatureText>(rows.begin(), rows.end()),
               options.nondeterministic};
}

}  // namespace bough::ops
