// PRelu: y = x for x >= 0, slope * x otherwise. The slope broadcasts unidirectionally to X
// (from opset 7); before that a 1-D slope of X's channel count applies per channel (axis 1).
#include "kernels/broadcast.h"
#include "ops/def_from_rows.h"
#include "ops/elementwise.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace prelu_op {
struct PReluFn {
  template <typename T>
  T operator()(T x, T slope) const {
    return x < 0 ? static_cast<T>(x * slope) : x;
  }
};

class PRelu : public Kernel {
 public:
  explicit PRelu(bool per_channel) : per_channel_(per_channel) {}

  void run(KernelIO& io) override {
    const Tensor& x = io.input(0);
    Tensor slope = io.input(1);
    if (per_channel_ && x.rank() >= 2 && slope.rank() == 1 && slope.dim(0) == x.dim(1) &&
        !kernels::broadcasts_to(slope.shape(), x.shape())) {
      Dims shape{slope.dim(0)};
      shape.resize(x.rank() - 1, 1);
      slope = slope.reshaped(shape);
    }
    if (!kernels::broadcasts_to(slope.shape(), x.shape()))
      fail(ErrorKind::BadInput, "",
           "slope of shape " + shape_string(slope.shape()) + " does not broadcast to X of shape " +
               shape_string(x.shape()));
    io.set_output(0, arith<PReluFn>(x, slope, io.pool(), "PRelu"));
  }

 private:
  bool per_channel_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  return std::make_unique<PRelu>(ctx.since < 7);
}
constexpr SignatureText kRows[] = {
    {1, "X: T, slope: T -> Y: T; T = floats; consumed_inputs: ints?"},
    {6, "X: T, slope: T -> Y: T; T = floats"},
    {7, "X: T, slope: T -> Y: T; T = floats"},
    {9, "X: T, slope: T -> Y: T; T = floats int32 int64 uint32 uint64"},
    {16, "X: T, slope: T -> Y: T; T = floats bfloat16 int32 int64 uint32 uint64"}};

}  // namespace prelu_op
}  // namespace

OpDef def_PRelu() {
  using namespace prelu_op;
  return def_from_rows("", "PRelu", make, infer_same_as_first, kRows);
}

}  // namespace bough::ops
