// StringSplit: splits each string as Python's str.split does. With a delimiter, at each
// occurrence (consecutive delimiters give empty pieces); without one (absent or empty), at
// runs of whitespace, ignoring leading and trailing whitespace. maxsplit caps the number of
// splits. Outputs: the pieces, X's shape plus one dimension as long as the most pieces
// (padded with empty strings), and the number of pieces of each string (int64).
#include <algorithm>

#include "ops/def_from_rows.h"
#include "ops/registry.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace string_split_op {

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

class StringSplit : public Kernel {
 public:
  StringSplit(std::string delimiter, int64_t maxsplit)
      : delimiter_(std::move(delimiter)), maxsplit_(maxsplit) {}

  void run(KernelIO& io) override {
    const Tensor& x = io.input(0);
    if (x.type() != ElemType::String) fail(ErrorKind::BadInput, "", "StringSplit takes strings");
    const int64_t n = x.numel();
    std::vector<std::vector<std::string>> pieces(static_cast<size_t>(n));
    size_t widest = 0;
    for (int64_t i = 0; i < n; ++i) {
      auto& p = pieces[static_cast<size_t>(i)];
      p = delimiter_.empty() ? split_space(x.strings()[i]) : split(x.strings()[i]);
      widest = std::max(widest, p.size());
    }
    Dims shape = x.shape();
    shape.push_back(static_cast<int64_t>(widest));
    Tensor out(ElemType::String, shape);
    Tensor counts(ElemType::Int64, x.shape());
    for (int64_t i = 0; i < n; ++i) {
      auto& p = pieces[static_cast<size_t>(i)];
      std::move(p.begin(), p.end(), out.strings() + i * static_cast<int64_t>(widest));
      counts.data<int64_t>()[i] = static_cast<int64_t>(p.size());
    }
    io.set_output(0, std::move(out));
    io.set_output(1, std::move(counts));
  }

 private:
  bool may_split(size_t done) const {
    return maxsplit_ < 0 || static_cast<int64_t>(done) < maxsplit_;
  }

  std::vector<std::string> split(const std::string& s) const {
    std::vector<std::string> out;
    size_t start = 0;
    while (may_split(out.size())) {
      const size_t at = s.find(delimiter_, start);
      if (at == std::string::npos) break;
      out.push_back(s.substr(start, at - start));
      start = at + delimiter_.size();
    }
    out.push_back(s.substr(start));
    return out;
  }

  std::vector<std::string> split_space(const std::string& s) const {
    std::vector<std::string> out;
    size_t i = 0;
    while (true) {
      while (i < s.size() && is_space(s[i])) ++i;
      if (i == s.size()) break;
      if (!may_split(out.size())) {  // the rest, whitespace and all (as Python does)
        out.push_back(s.substr(i));
        break;
      }
      const size_t start = i;
      while (i < s.size() && !is_space(s[i])) ++i;
      out.push_back(s.substr(start, i - start));
    }
    return out;
  }

  std::string delimiter_;
  int64_t maxsplit_;  // -1: no limit
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  const int64_t maxsplit = ctx.has_attr("maxsplit") ? ctx.attr_int("maxsplit", -1) : -1;
  return std::make_unique<StringSplit>(ctx.attr_string("delimiter", ""), maxsplit);
}

void infer(InferContext& ctx) {
  const ir::Shape& s = ctx.input_shape(0);
  ir::Shape parts = s;
  if (parts.rank_known) parts.dims.push_back(ir::Dim::unknown());
  ctx.set_output_tensor(0, ElemType::String, std::move(parts));
  if (ctx.num_outputs() > 1) ctx.set_output_tensor(1, ElemType::Int64, s);
}

constexpr SignatureText kRows[] = {{20,
                                    "X: T1 -> Y: T2, Z: T3; T1 = string, T2 = string, T3 = int64; "
                                    "delimiter: string?, maxsplit: int?"}};

}  // namespace string_split_op
}  // namespace

OpDef def_StringSplit() {
  using namespace string_split_op;
  return def_from_rows("", "StringSplit", make, infer, kRows);
}

}  // namespace bough::ops
