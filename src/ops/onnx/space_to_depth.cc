// SpaceToDepth: [N, C, H, W] -> [N, C * b * b, H / b, W / b], moving each b x b spatial
// block into channels (block offset in the channel's high part).
#include "kernels/layout.h"
#include "ops/onnx/layout_infer.h"
#include "ops/registry.h"

namespace bough::ops {

namespace {
namespace space_to_depth_op {

constexpr int64_t kMaxBlocksize = (int64_t{1} << 31) - 1;
class SpaceToDepth : public Kernel {
 public:
  explicit SpaceToDepth(int64_t block) : block_(block) {}

  void run(KernelIO& io) override {
    const Tensor& x = io.input(0);
    if (x.rank() != 4)
      fail(ErrorKind::BadInput, "",
           "SpaceToDepth input must be 4-D, got " + shape_string(x.shape()));
    const int64_t n = x.dim(0), c = x.dim(1), h = x.dim(2), w = x.dim(3), b = block_;
    if (h % b != 0 || w % b != 0)
      fail(ErrorKind::BadInput, "",
           "spatial size " + std::to_string(h) + "x" + std::to_string(w) +
               " is not a multiple of blocksize " + std::to_string(b));
    const Tensor y = kernels::transpose(x.reshaped(Dims{n, c, h / b, b, w / b, b}),
                                        std::vector<int64_t>{0, 3, 5, 1, 2, 4});
    io.set_output(0, y.reshaped(Dims{n, c * b * b, h / b, w / b}));
  }

 private:
  int64_t block_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  const int64_t block = ctx.attr_int("blocksize", 0);
  // Bounded so that blocksize^2 fits in int64 (a huge one wrapped to 0 and divided by it).
  if (block < 1 || block > kMaxBlocksize)
    ctx.invalid("SpaceToDepth needs a blocksize from 1 to 2^31 - 1");
  return std::make_unique<SpaceToDepth>(block);
}
void infer(InferContext& ctx) {
  const ElemType elem = ctx.input_elem(0);
  const ir::Shape& s = ctx.input_shape(0);
  if (!s.rank_known) {
    ctx.set_output_tensor(0, elem, unknown_dims(4));
    return;
  }
  if (s.dims.size() != 4) ctx.invalid("the input must have rank 4");
  const int64_t b = ctx.attr_int("blocksize", 0);
  if (b < 1 || b > kMaxBlocksize) ctx.invalid("blocksize must be from 1 to 2^31 - 1");
  std::vector<ir::Dim> out = s.dims;
  const auto divide = [&](const ir::Dim& d, int64_t by, const char* what) {
    if (!d.is_known()) return by == 1 ? d : ir::Dim::unknown();
    if (d.value % by != 0)
      ctx.invalid(std::string(what) + " " + std::to_string(d.value) + " is not a multiple of " +
                  std::to_string(by));
    return ir::Dim::known(d.value / by);
  };
  out[1] = layout_infer::dim_times(s.dims[1], b * b);
  out[2] = divide(s.dims[2], b, "height");
  out[3] = divide(s.dims[3], b, "width");
  ctx.set_output_tensor(0, elem, ir::Shape::of(std::move(out)));
}

}  // namespace space_to_depth_op
}  // namespace

const OpDef& def_SpaceToDepth() {
  using namespace space_to_depth_op;
  static const OpDef def{"",
                         "SpaceToDepth",
                         {1, 13},
                         1,
                         1,
                         1,
                         1,
                         make,
                         infer,
                         {{1, "input: T -> output: T; T = all; blocksize: int"},
                          {13, "input: T -> output: T; T = all_ir4; blocksize: int"}}};
  return def;
}

}  // namespace bough::ops
