// Shape: the input's dimensions as a 1-D int64 tensor; from opset 15 the slice
// [start, end) of them (negative values count from the back, both clamped to [0, rank]).
#include <algorithm>
#include <optional>

#include "ops/registry.h"

namespace bough::ops {

namespace {
class Shape : public Kernel {
 public:
  Shape(int64_t start, std::optional<int64_t> end) : start_(start), end_(end) {}

  void run(KernelIO& io) override {
    const Dims& dims = io.input(0).shape();
    const int64_t rank = static_cast<int64_t>(dims.size());
    auto clamp = [&](int64_t v) { return std::clamp(v < 0 ? v + rank : v, int64_t{0}, rank); };
    const int64_t begin = clamp(start_), end = clamp(end_.value_or(rank));
    const int64_t n = std::max<int64_t>(0, end - begin);
    Tensor& out = io.output_tensor(0);
    out.reinit(ElemType::Int64, {n});
    for (int64_t i = 0; i < n; ++i) out.data<int64_t>()[i] = dims[static_cast<size_t>(begin + i)];
  }

 private:
  int64_t start_;
  std::optional<int64_t> end_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  if (ctx.since < 15) return std::make_unique<Shape>(0, std::nullopt);
  std::optional<int64_t> end;
  if (ctx.has_attr("end")) end = ctx.attr_int("end", 0);
  return std::make_unique<Shape>(ctx.attr_int("start", 0), end);
}
}  // namespace

const OpDef& def_Shape() {
  static const OpDef def{
      "",
      "Shape",
      {1, 13, 15, 19, 21, 23, 24, 25},
      1,
      1,
      1,
      1,
      make,
      nullptr,
      {{1, "data: T -> shape: T1; T = all, T1 = int64"},
       {13, "data: T -> shape: T1; T = all_ir4, T1 = int64"},
       {15, "data: T -> shape: T1; T = all_ir4, T1 = int64; end: int?, start: int = 0"}}};
  return def;
}

}  // namespace bough::ops
