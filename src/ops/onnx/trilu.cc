// Trilu: the upper (upper=1, default) or lower triangle of the matrices in the last two
// dimensions, the rest zeroed. Optional input k (default 0) shifts the diagonal: upper keeps
// column - row >= k, lower keeps column - row <= k.
#include "kernels/dispatch.h"
#include "kernels/shape_args.h"
#include "ops/def_from_rows.h"
#include "ops/registry.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace trilu_op {
class Trilu : public Kernel {
 public:
  explicit Trilu(bool upper) : upper_(upper) {}

  void run(KernelIO& io) override {
    const Tensor& x = io.input(0);
    if (x.rank() < 2)
      fail(ErrorKind::BadInput, "",
           "Trilu input must have rank >= 2, got " + shape_string(x.shape()));
    const int64_t k = io.has_input(1) ? kernels::read_int(io.input(1), "k") : 0;
    if (is_sub_byte(x.type())) fail(ErrorKind::Unsupported, "", "Trilu on sub-byte types");
    const int64_t rows = x.dim(x.rank() - 2), cols = x.dim(x.rank() - 1);
    const int64_t batch = rows * cols == 0 ? 0 : x.numel() / (rows * cols);
    Tensor y(x.type(), x.shape());
    kernels::visit_storage(x.type(), "Trilu", [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T* src = kernels::elements<T>(x);
      T* dst = kernels::elements<T>(y);
      for (int64_t b = 0; b < batch; ++b) {
        for (int64_t r = 0; r < rows; ++r) {
          for (int64_t c = 0; c < cols; ++c) {
            const int64_t i = (b * rows + r) * cols + c;
            const bool keep = upper_ ? c - r >= k : c - r <= k;
            dst[i] = keep ? src[i] : T{};
          }
        }
      }
    });
    io.set_output(0, std::move(y));
  }

 private:
  bool upper_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  return std::make_unique<Trilu>(ctx.attr_int("upper", 1) != 0);
}
constexpr SignatureText kRows[] = {
    {14, "input: T, k?: tensor(int64) -> output: T; T = all_ir4; upper: int = 1"}};

}  // namespace trilu_op
}  // namespace

OpDef def_Trilu() {
  using namespace trilu_op;
  return def_from_rows("", "Trilu", make, infer_same_as_first, kRows);
}

}  // namespace bough::ops
