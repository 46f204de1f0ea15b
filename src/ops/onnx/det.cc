// Det: the determinant of each square matrix in the last two dimensions ([*, M, M] -> [*]),
// by LU decomposition with partial pivoting, in double.
#include <cmath>
#include <utility>
#include <vector>

#include "kernels/through_float.h"
#include "ops/def_from_rows.h"
#include "ops/onnx/math_map.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace det_op {
// Destroys `a` (m x m, row-major).
double determinant(std::vector<double>& a, int64_t m) {
  double det = 1;
  for (int64_t c = 0; c < m; ++c) {
    int64_t pivot = c;
    for (int64_t r = c + 1; r < m; ++r)
      if (std::abs(a[r * m + c]) > std::abs(a[pivot * m + c])) pivot = r;
    if (a[pivot * m + c] == 0) return 0;
    if (pivot != c) {
      for (int64_t j = 0; j < m; ++j) std::swap(a[c * m + j], a[pivot * m + j]);
      det = -det;
    }
    const double p = a[c * m + c];
    det *= p;
    for (int64_t r = c + 1; r < m; ++r) {
      const double f = a[r * m + c] / p;
      for (int64_t j = c + 1; j < m; ++j) a[r * m + j] -= f * a[c * m + j];
    }
  }
  return det;
}

class Det : public Kernel {
 public:
  void run(KernelIO& io) override {
    const Tensor& in = io.input(0);
    const size_t rank = in.rank();
    if (rank < 2 || in.dim(rank - 1) != in.dim(rank - 2))
      fail(ErrorKind::BadInput, "",
           "Det needs square matrices, got shape " + shape_string(in.shape()));
    const int64_t m = in.dim(rank - 1);
    Dims shape = in.shape();
    shape.resize(rank - 2);
    auto determinants = [&](const Tensor& x) {
      return kernels::visit_float(x.type(), "Det", [&](auto tag) {
        using T = typename decltype(tag)::type;
        Tensor out(x.type(), shape);
        const T* px = x.data<T>();
        T* py = out.data<T>();
        std::vector<double> a(static_cast<size_t>(m * m));
        for (int64_t b = 0; b < out.numel(); ++b) {
          for (int64_t i = 0; i < m * m; ++i) a[static_cast<size_t>(i)] = px[b * m * m + i];
          py[b] = static_cast<T>(determinant(a, m));
        }
        return out;
      });
    };
    io.set_output(0, kernels::through_float(determinants, in));
  }
};

std::unique_ptr<Kernel> make(const BuildContext&) { return std::make_unique<Det>(); }
// The batch dims of [*, M, M].
void infer(InferContext& ctx) {
  const ir::Shape& in = ctx.input_shape(0);
  if (!in.rank_known) return ctx.set_output_tensor(0, ctx.input_elem(0), in);
  const size_t rank = in.dims.size();
  if (rank < 2)
    ctx.invalid("Det needs a tensor of rank 2 or more, got rank " + std::to_string(rank));
  const ir::Dim& m = in.dims[rank - 2];
  const ir::Dim& n = in.dims[rank - 1];
  if (m.is_known() && n.is_known() && m.value != n.value)
    ctx.invalid("Det needs square matrices, got " + std::to_string(m.value) + "x" +
                std::to_string(n.value));
  ctx.set_output_tensor(0, ctx.input_elem(0),
                        ir::Shape::of(std::vector<ir::Dim>(in.dims.begin(), in.dims.end() - 2)));
}
constexpr SignatureText kRows[] = {{11, "X: T -> Y: T; T = floats"},
                                   {22, "X: T -> Y: T; T = floats bfloat16"}};

}  // namespace det_op
}  // namespace

OpDef def_Det() {
  using namespace det_op;
  return def_from_rows("", "Det", make, infer, kRows);
}

}  // namespace bough::ops
