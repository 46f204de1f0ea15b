// DepthToSpace: [N, C, H, W] -> [N, C / (b*b), H * b, W * b], moving blocks of channels into
// b x b spatial blocks. mode "DCR" (default) takes the block offset from the channel's high
// part, "CRD" (opset 11+) from its low part.
#include "kernels/layout.h"
#include "ops/def_from_rows.h"
#include "ops/onnx/layout_infer.h"
#include "ops/registry.h"

namespace bough::ops {

namespace {
namespace depth_to_space_op {

class DepthToSpace : public Kernel {
 public:
  DepthToSpace(int64_t block, bool crd) : block_(block), crd_(crd) {}

  void run(KernelIO& io) override {
    const Tensor& x = io.input(0);
    if (x.rank() != 4)
      fail(ErrorKind::BadInput, "",
           "DepthToSpace input must be 4-D, got " + shape_string(x.shape()));
    const int64_t n = x.dim(0), c = x.dim(1), h = x.dim(2), w = x.dim(3), b = block_;
    if (c % (b * b) != 0)
      fail(ErrorKind::BadInput, "",
           "channels " + std::to_string(c) +
               " are not a multiple of blocksize^2 = " + std::to_string(b * b));
    const int64_t oc = c / (b * b);
    Tensor y;
    if (crd_) {
      y = kernels::transpose(x.reshaped(Dims{n, oc, b, b, h, w}),
                             std::vector<int64_t>{0, 1, 4, 2, 5, 3});
    } else {
      y = kernels::transpose(x.reshaped(Dims{n, b, b, oc, h, w}),
                             std::vector<int64_t>{0, 3, 4, 1, 5, 2});
    }
    io.set_output(0, y.reshaped(Dims{n, oc, h * b, w * b}));
  }

 private:
  int64_t block_;
  bool crd_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  const int64_t block = layout_infer::blocksize(ctx);
  const std::string mode = ctx.since >= 11 ? ctx.attr_string("mode", "DCR") : "DCR";
  if (mode != "DCR" && mode != "CRD") ctx.invalid("DepthToSpace mode must be DCR or CRD");
  return std::make_unique<DepthToSpace>(block, mode == "CRD");
}
void infer(InferContext& ctx) { layout_infer::infer_block_move(ctx, true); }

constexpr SignatureText kRows[] = {
    {1, "input: T -> output: T; T = all; blocksize: int"},
    {11, "input: T -> output: T; T = all; blocksize: int, mode: string = DCR"},
    {13, "input: T -> output: T; T = all_ir4; blocksize: int, mode: string = DCR"}};

}  // namespace depth_to_space_op
}  // namespace

OpDef def_DepthToSpace() {
  using namespace depth_to_space_op;
  return def_from_rows("", "DepthToSpace", make, infer, kRows);
}

}  // namespace bough::ops
