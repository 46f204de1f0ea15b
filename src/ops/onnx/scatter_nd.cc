// ScatterND: a copy of data where each index tuple of indices (last dimension k) names a
// slice data[i_0, ..., i_{k-1}] that takes (or combines with, see ops/onnx/scatter_update.h)
// the matching slice of updates, whose shape is indices.shape[:-1] + data.shape[k:].
#include "ops/def_from_rows.h"
#include "ops/onnx/nd_index.h"
#include "ops/onnx/scatter_update.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace scatter_nd_op {
class ScatterND : public Kernel {
 public:
  explicit ScatterND(ScatterReduction reduction) : reduction_(reduction) {}

  void run(KernelIO& io) override {
    const Tensor& data = io.input(0);
    const Tensor& indices = io.input(1);
    const Tensor& updates = io.input(2);
    const std::vector<int64_t> dst = nd_offsets(indices, data.shape());
    const auto k = static_cast<size_t>(indices.dim(indices.rank() - 1));
    Dims expected;
    for (size_t d = 0; d + 1 < indices.rank(); ++d) expected.push_back(indices.dim(d));
    int64_t run = 1;
    for (size_t d = k; d < data.rank(); ++d) {
      expected.push_back(data.dim(d));
      run *= data.dim(d);
    }
    if (updates.shape() != expected)
      fail(ErrorKind::BadInput, "",
           "updates of shape " + shape_string(updates.shape()) + " do not match the expected " +
               shape_string(expected));
    io.set_output(0, scatter_update(data, updates, dst, run, reduction_, "ScatterND"));
  }

 private:
  ScatterReduction reduction_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  return std::make_unique<ScatterND>(scatter_reduction(ctx));
}
void infer(InferContext& ctx) { infer_same_as_first(ctx); }

constexpr SignatureText kRows[] = {
    {11, "data: T, indices: tensor(int64), updates: T -> output: T; T = all"},
    {13, "data: T, indices: tensor(int64), updates: T -> output: T; T = all_ir4"},
    {16,
     "data: T, indices: tensor(int64), updates: T -> output: T; T = all_ir4; reduction: string "
     "= none"},
    {18,
     "data: T, indices: tensor(int64), updates: T -> output: T; T = all_ir4; reduction: string "
     "= none"}};

}  // namespace scatter_nd_op
}  // namespace

OpDef def_ScatterND() {
  using namespace scatter_nd_op;
  return def_from_rows("", "ScatterND", make, infer, kRows);
}

}  // namespace bough::ops
