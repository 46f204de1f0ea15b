// NonZero: the indices of the non-zero elements, as an int64 tensor [rank, count] in
// row-major order (numpy.nonzero). A scalar is seen as a 1-element vector; a string is
// non-zero when it is not empty.
#include <vector>

#include "ops/def_from_rows.h"
#include "ops/onnx/math_map.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace non_zero_op {
std::vector<int64_t> nonzero_positions(const Tensor& in) {
  std::vector<int64_t> pos;
  if (in.type() == ElemType::String) {
    for (int64_t i = 0; i < in.numel(); ++i)
      if (!in.strings()[i].empty()) pos.push_back(i);
    return pos;
  }
  const Tensor x =
      is_float_type(in.type()) && in.type() != ElemType::Float && in.type() != ElemType::Double
          ? kernels::to_float(in)
          : in;
  kernels::visit_numeric_bool(x.type(), "NonZero", [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* p = x.data<T>();
    for (int64_t i = 0; i < x.numel(); ++i)
      if (p[i] != T(0)) pos.push_back(i);
  });
  return pos;
}

class NonZero : public Kernel {
 public:
  void run(KernelIO& io) override {
    const Tensor& x = io.input(0);
    const std::vector<int64_t> pos = nonzero_positions(x);
    const Dims shape = x.rank() == 0 ? Dims{1} : x.shape();
    const auto rank = static_cast<int64_t>(shape.size());
    const auto count = static_cast<int64_t>(pos.size());
    Tensor y(ElemType::Int64, Dims{rank, count});
    int64_t* out = y.data<int64_t>();
    for (int64_t j = 0; j < count; ++j) {
      int64_t rest = pos[static_cast<size_t>(j)];
      for (int64_t d = rank - 1; d >= 0; --d) {
        out[d * count + j] = rest % shape[static_cast<size_t>(d)];
        rest /= shape[static_cast<size_t>(d)];
      }
    }
    io.set_output(0, std::move(y));
  }
};

std::unique_ptr<Kernel> make(const BuildContext&) { return std::make_unique<NonZero>(); }
void infer(InferContext& ctx) {
  const ir::Shape& s = ctx.input_shape(0);
  const ir::Dim rank =
      s.rank_known ? ir::Dim::known(static_cast<int64_t>(s.dims.size())) : ir::Dim::unknown();
  ctx.set_output_tensor(0, ElemType::Int64, ir::Shape::of({rank, ir::Dim::unknown()}));
}

constexpr SignatureText kRows[] = {{9, "X: T -> Y: tensor(int64); T = all"},
                                   {13, "X: T -> Y: tensor(int64); T = all_ir4"}};

}  // namespace non_zero_op
}  // namespace

OpDef def_NonZero() {
  using namespace non_zero_op;
  return def_from_rows("", "NonZero", make, infer, kRows);
}

}  // namespace bough::ops
