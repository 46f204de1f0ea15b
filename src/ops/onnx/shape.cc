// Shape: the input's dimensions as a 1-D int64 tensor; from opset 15 the slice
// [start, end) of them (negative values count from the back, both clamped to [0, rank]).
#include <algorithm>
#include <optional>

#include "ir/storage.h"
#include "ops/def_from_rows.h"
#include "ops/registry.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace shape_op {
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
    ir::reinit(out, ElemType::Int64, {n});
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
void infer(InferContext& ctx) {
  const ir::Shape& s = ctx.input_shape(0);
  if (!s.rank_known) {
    ctx.set_output_tensor(0, ElemType::Int64, unknown_dims(1));
    return;
  }
  const auto rank = static_cast<int64_t>(s.dims.size());
  const auto clamp = [&](int64_t v) { return std::clamp(v < 0 ? v + rank : v, int64_t{0}, rank); };
  const int64_t start = ctx.since >= 15 ? clamp(ctx.attr_int("start", 0)) : 0;
  const int64_t end = ctx.since >= 15 ? clamp(ctx.attr_int("end", rank)) : rank;
  const int64_t n = std::max<int64_t>(end - start, 0);
  std::vector<int64_t> dims;
  for (int64_t k = start; k < start + n; ++k) {
    if (!s.dims[static_cast<size_t>(k)].is_known()) {
      ctx.set_output_tensor(0, ElemType::Int64, known_shape({n}));
      return;
    }
    dims.push_back(s.dims[static_cast<size_t>(k)].value);
  }
  ctx.set_output_value(0, Tensor::from_vector(ElemType::Int64, Dims{n}, dims));
}

constexpr SignatureText kRows[] = {
    {1, "data: T -> shape: T1; T = all, T1 = int64"},
    {13, "data: T -> shape: T1; T = all_ir4, T1 = int64"},
    {15, "data: T -> shape: T1; T = all_ir4, T1 = int64; end: int?, start: int = 0"},
    {19, "data: T -> shape: T1; T = all_ir9, T1 = int64; end: int?, start: int = 0"},
    {21, "data: T -> shape: T1; T = all_ir10, T1 = int64; end: int?, start: int = 0"},
    {23, "data: T -> shape: T1; T = all_ir11, T1 = int64; end: int?, start: int = 0"},
    {24, "data: T -> shape: T1; T = all_ir12, T1 = int64; end: int?, start: int = 0"},
    {25, "data: T -> shape: T1; T = all_ir13, T1 = int64; end: int?, start: int = 0"}};

}  // namespace shape_op
}  // namespace

OpDef def_Shape() {
  using namespace shape_op;
  return def_from_rows("", "Shape", make, infer, kRows);
}

}  // namespace bough::ops
