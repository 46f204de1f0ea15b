// ScatterElements: a copy of data where, for each position c of indices, the element at c
// with c[axis] replaced by indices[c] takes updates[c] (or combines with it, see
// ops/onnx/scatter_update.h). indices and updates share a shape of data's rank that fits
// inside data off the axis.
#include "kernels/gather_indices.h"
#include "kernels/layout.h"
#include "ops/def_from_rows.h"
#include "ops/onnx/scatter_update.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace scatter_elements_op {
class ScatterElements : public Kernel {
 public:
  ScatterElements(int64_t axis, ScatterReduction reduction) : axis_(axis), reduction_(reduction) {}

  void run(KernelIO& io) override {
    const Tensor& data = io.input(0);
    const Tensor& indices = io.input(1);
    const Tensor& updates = io.input(2);
    const size_t rank = data.rank();
    const auto axis =
        static_cast<size_t>(kernels::normalize_axis(axis_, static_cast<int64_t>(rank)));
    if (updates.shape() != indices.shape())
      fail(ErrorKind::BadInput, "",
           "updates of shape " + shape_string(updates.shape()) + " do not match indices of shape " +
               shape_string(indices.shape()));
    std::vector<int64_t> dst = kernels::element_indices(indices, data, axis);
    const std::vector<int64_t> strides = kernels::contiguous_strides(data.shape());
    std::vector<int64_t> coord(rank, 0);
    int64_t base = 0;  // offset of coord with the axis coordinate at 0
    for (int64_t& d : dst) {
      d = base + d * strides[axis];
      for (size_t k = rank; k-- > 0;) {
        if (k != axis) base += strides[k];
        if (++coord[k] < indices.dim(k)) break;
        if (k != axis) base -= coord[k] * strides[k];
        coord[k] = 0;
      }
    }
    io.set_output(0, scatter_update(data, updates, dst, 1, reduction_, "ScatterElements"));
  }

 private:
  int64_t axis_;
  ScatterReduction reduction_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  return std::make_unique<ScatterElements>(ctx.attr_int("axis", 0), scatter_reduction(ctx));
}
void infer(InferContext& ctx) { infer_same_as_first(ctx); }

constexpr SignatureText kRows[] = {
    {11,
     "data: T, indices: Tind, updates: T -> output: T; T = all, Tind = int32 "
     "int64; axis: int = 0"},
    {13,
     "data: T, indices: Tind, updates: T -> output: T; T = all_ir4, Tind = "
     "int32 int64; axis: int = 0"},
    {16,
     "data: T, indices: Tind, updates: T -> output: T; T = all_ir4, Tind = "
     "int32 int64; axis: int = 0, reduction: string = none"},
    {18,
     "data: T, indices: Tind, updates: T -> output: T; T = all_ir4, Tind = "
     "int32 int64; axis: int = 0, reduction: string = none"}};

}  // namespace scatter_elements_op
}  // namespace

OpDef def_ScatterElements() {
  using namespace scatter_elements_op;
  return def_from_rows("", "ScatterElements", make, infer, kRows);
}

}  // namespace bough::ops
