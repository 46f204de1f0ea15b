// StringNormalizer: drops the stopwords from a [C] or [1, C] string tensor (compared
// case-sensitively or not), then changes case (LOWER, UPPER or NONE). When every string is
// dropped, the output holds one empty string ([1], or [1, 1]).
// Case changes and case-insensitive matching cover ASCII letters only; `locale` is ignored.
#include <algorithm>
#include <cctype>
#include <unordered_set>

#include "ops/attr_choice.h"
#include "ops/def_from_rows.h"
#include "ops/registry.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace string_normalizer_op {

enum class CaseChange { None, Lower, Upper };

std::string with_case(std::string s, CaseChange c) {
  if (c == CaseChange::None) return s;
  for (char& ch : s) {
    const auto u = static_cast<unsigned char>(ch);
    ch = static_cast<char>(c == CaseChange::Lower ? std::tolower(u) : std::toupper(u));
  }
  return s;
}

class StringNormalizer : public Kernel {
 public:
  StringNormalizer(CaseChange change, bool case_sensitive, const std::vector<std::string>& stop)
      : change_(change), case_sensitive_(case_sensitive) {
    for (const std::string& w : stop) stop_.insert(key(w));
  }

  void run(KernelIO& io) override {
    const Tensor& x = io.input(0);
    if (x.type() != ElemType::String)
      fail(ErrorKind::BadInput, "", "StringNormalizer takes strings");
    const bool two_d = x.rank() == 2;
    if (!(x.rank() == 1 || (two_d && x.dim(0) == 1)))
      fail(ErrorKind::BadInput, "",
           "StringNormalizer takes a [C] or [1, C] tensor, got shape " + shape_string(x.shape()));
    std::vector<std::string> kept;
    for (int64_t i = 0; i < x.numel(); ++i) {
      const std::string& s = x.strings()[i];
      if (!stop_.count(key(s))) kept.push_back(with_case(s, change_));
    }
    if (kept.empty()) kept.emplace_back();
    const auto c = static_cast<int64_t>(kept.size());
    Tensor out(ElemType::String, two_d ? Dims{1, c} : Dims{c});
    std::move(kept.begin(), kept.end(), out.strings());
    io.set_output(0, std::move(out));
  }

 private:
  std::string key(const std::string& s) const {
    return case_sensitive_ ? s : with_case(s, CaseChange::Lower);
  }

  CaseChange change_;
  bool case_sensitive_;
  std::unordered_set<std::string> stop_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  const CaseChange change = attr_choice<CaseChange>(
      ctx, "case_change_action", "NONE",
      {{"NONE", CaseChange::None}, {"LOWER", CaseChange::Lower}, {"UPPER", CaseChange::Upper}});
  const ir::Attribute* stop = ctx.attr("stopwords");
  return std::make_unique<StringNormalizer>(change, ctx.attr_int("is_case_sensitive", 0) != 0,
                                            stop ? stop->strings : std::vector<std::string>{});
}

void infer(InferContext& ctx) {
  const ir::Shape& s = ctx.input_shape(0);
  if (s.rank_known && s.dims.size() != 1 && s.dims.size() != 2)
    ctx.invalid("the input must be [C] or [1, C]");
  const ir::Attribute* stop = ctx.attr("stopwords");
  if (!stop || stop->strings.empty() || !s.rank_known) {
    ctx.set_output_tensor(0, ElemType::String, s);
    return;
  }
  std::vector<ir::Dim> dims = s.dims;
  dims.back() = ir::Dim::unknown();
  ctx.set_output_tensor(0, ElemType::String, ir::Shape::of(std::move(dims)));
}

constexpr SignatureText kRows[] = {
    {10,
     "X: tensor(string) -> Y: tensor(string); case_change_action: string = NONE, "
     "is_case_sensitive: int = 0, locale: string?, stopwords: strings?"}};

}  // namespace string_normalizer_op
}  // namespace

OpDef def_StringNormalizer() {
  using namespace string_normalizer_op;
  return def_from_rows("", "StringNormalizer", make, infer, kRows);
}

}  // namespace bough::ops
