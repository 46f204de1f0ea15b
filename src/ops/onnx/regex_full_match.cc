// RegexFullMatch: whether each string matches `pattern` (RE2 syntax) as a whole. The
// pattern is compiled once with std::regex (ECMAScript grammar), \A and \z read as ^ and $.
// RE2 syntax that ECMAScript lacks (named groups (?P<name>...), inline flags (?i), Unicode
// classes \p{...}, \Q...\E, \C) is rejected when the model is compiled; classes such as \w
// are ASCII-only, as in RE2. libstdc++'s matcher recurses per character, so very
// long inputs against patterns with repetition can exhaust the stack.
#include <atomic>
#include <regex>

#include "ops/registry.h"
#include "ops/shape_infer.h"
#include "util/thread_pool.h"

namespace bough::ops {

namespace {

class RegexFullMatch : public Kernel {
 public:
  explicit RegexFullMatch(std::regex re) : re_(std::move(re)) {}

  void run(KernelIO& io) override {
    const Tensor& x = io.input(0);
    if (x.type() != ElemType::String) fail(ErrorKind::BadInput, "", "RegexFullMatch takes strings");
    Tensor y(ElemType::Bool, x.shape());
    const std::string* s = x.strings();
    bool* out = y.data<bool>();
    std::atomic<bool> too_complex{false};
    io.pool().parallel_for(x.numel(), 256, [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) {
        try {
          out[i] = std::regex_match(s[i], re_);
        } catch (const std::regex_error&) {  // libstdc++ gives up on some inputs
          out[i] = false;
          too_complex = true;
        }
      }
    });
    if (too_complex)
      fail(ErrorKind::BadInput, "", "the pattern is too complex for an input string");
    io.set_output(0, std::move(y));
  }

 private:
  std::regex re_;
};

// The pattern in ECMAScript spelling; throws for escapes it has no counterpart for.
std::string ecmascript(const BuildContext& ctx, const std::string& re2) {
  std::string out;
  for (size_t i = 0; i < re2.size(); ++i) {
    if (re2[i] != '\\' || i + 1 == re2.size()) {
      out += re2[i];
      continue;
    }
    const char c = re2[++i];
    if (c == 'A')
      out += '^';
    else if (c == 'z')
      out += '$';
    else if (c == 'p' || c == 'P' || c == 'Q' || c == 'E' || c == 'C')
      ctx.unsupported(std::string("RegexFullMatch does not support \\") + c + " in patterns");
    else
      out += {'\\', c};
  }
  return out;
}

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  const ir::Attribute* p = ctx.attr("pattern");
  if (!p) ctx.invalid("RegexFullMatch needs a pattern");
  try {
    return std::make_unique<RegexFullMatch>(
        std::regex(ecmascript(ctx, p->s), std::regex::ECMAScript));
  } catch (const std::regex_error& e) {
    ctx.unsupported("pattern \"" + p->s + "\" is not supported: " + e.what());
  }
}

void infer(InferContext& ctx) { ctx.set_output_tensor(0, ElemType::Bool, ctx.input_shape(0)); }

}  // namespace

const OpDef& def_RegexFullMatch() {
  static const OpDef def{"",    "RegexFullMatch",
                         {20},  1,
                         1,     1,
                         1,     make,
                         infer, {{20, "X: T1 -> Y: T2; T1 = string, T2 = bool; pattern: string?"}}};
  return def;
}

}  // namespace bough::ops
