// RegexFullMatch: whether each string matches `pattern` as a whole. The pattern is RE2
// syntax, as the spec says, and RE2 runs it: matching takes time linear in the input and
// bounded stack, so no pattern or input can overflow the stack (libstdc++'s std::regex
// recursed per nesting level and per character).
#include <re2/re2.h>

#include "ops/def_from_rows.h"
#include "ops/registry.h"
#include "ops/shape_infer.h"
#include "util/thread_pool.h"

namespace bough::ops {

namespace {
namespace regex_full_match_op {

class RegexFullMatch : public Kernel {
 public:
  explicit RegexFullMatch(std::unique_ptr<re2::RE2> re) : re_(std::move(re)) {}

  void run(KernelIO& io) override {
    const Tensor& x = io.input(0);
    if (x.type() != ElemType::String) fail(ErrorKind::BadInput, "", "RegexFullMatch takes strings");
    Tensor y(ElemType::Bool, x.shape());
    const std::string* s = x.strings();
    bool* out = y.data<bool>();
    // RE2 objects are safe to match from several threads at once.
    io.pool().parallel_for(x.numel(), 256, [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) out[i] = re2::RE2::FullMatch(s[i], *re_);
    });
    io.set_output(0, std::move(y));
  }

 private:
  std::unique_ptr<re2::RE2> re_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  const ir::Attribute* p = ctx.attr("pattern");
  if (!p) ctx.invalid("RegexFullMatch needs a pattern");
  re2::RE2::Options options;
  options.set_log_errors(false);
  auto re = std::make_unique<re2::RE2>(p->s, options);
  if (re->error_code() == re2::RE2::ErrorPatternTooLarge)
    ctx.unsupported("pattern is too large (RE2 compiles it to more than its memory budget)");
  if (!re->ok()) ctx.invalid("pattern \"" + p->s + "\" is not valid RE2: " + re->error());
  return std::make_unique<RegexFullMatch>(std::move(re));
}

void infer(InferContext& ctx) { ctx.set_output_tensor(0, ElemType::Bool, ctx.input_shape(0)); }

constexpr SignatureText kRows[] = {
    {20, "X: T1 -> Y: T2; T1 = string, T2 = bool; pattern: string?"}};

}  // namespace regex_full_match_op
}  // namespace

OpDef def_RegexFullMatch() {
  using namespace regex_full_match_op;
  return def_from_rows("", "RegexFullMatch", make, infer, kRows);
}

}  // namespace bough::ops
