// SpaceToDepth: [N, C, H, W] -> [N, C * b * b, H / b, W / b], moving each b x b spatial
// block into channels (block offset in the channel's high part).
#include "kernels/layout.h"
#include "ops/def_from_rows.h"
#include "ops/onnx/layout_infer.h"
#include "ops/registry.h"

namespace bough::ops {

namespace {
namespace space_to_depth_op {

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
  const int64_t block = layout_infer::blocksize(ctx);
  return std::make_unique<SpaceToDepth>(block);
}
void infer(InferContext& ctx) { layout_infer::infer_block_move(ctx, false); }

constexpr SignatureText kRows[] = {{1, "input: T -> output: T; T = all; blocksize: int"},
                                   {13, "input: T -> output: T; T = all_ir4; blocksize: int"}};

}  // namespace space_to_depth_op
}  // namespace

OpDef def_SpaceToDepth() {
  using namespace space_to_depth_op;
  return def_from_rows("", "SpaceToDepth", make, infer, kRows);
}

}  // namespace bough::ops
