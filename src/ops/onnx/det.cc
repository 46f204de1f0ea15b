// Det: the determinant of each square matrix in the last two dimensions ([*, M, M] -> [*]),
// by LU decomposition with partial pivoting, in double.
#include <cmath>
#include <utility>
#include <vector>

#include "ops/onnx/math_map.h"

namespace bough::ops {

namespace {
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
    const ElemType t = in.type();
    const Tensor x = is_narrow_float(t) ? kernels::to_float(in) : in;
    const size_t rank = x.rank();
    if (rank < 2 || x.dim(rank - 1) != x.dim(rank - 2))
      fail(ErrorKind::BadInput, "",
           "Det needs square matrices, got shape " + shape_string(x.shape()));
    const int64_t m = x.dim(rank - 1);
    Dims shape = x.shape();
    shape.resize(rank - 2);
    Tensor y = kernels::visit_float(x.type(), "Det", [&](auto tag) {
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
    io.set_output(0, is_narrow_float(t) ? kernels::cast(y, t) : y);
  }
};

std::unique_ptr<Kernel> make(const BuildContext&) { return std::make_unique<Det>(); }
}  // namespace

const OpDef& def_Det() {
  static const OpDef def{"", "Det", {11, 22}, 1, 1, 1, 1, make};
  return def;
}

}  // namespace bough::ops
