// Size: the input's element count as an int64 scalar.
#include "ops/registry.h"

namespace bough::ops {

namespace {
class Size : public Kernel {
 public:
  void run(KernelIO& io) override { io.set_output(0, Tensor::scalar_i64(io.input(0).numel())); }
};
std::unique_ptr<Kernel> make(const BuildContext&) { return std::make_unique<Size>(); }
}  // namespace

const OpDef& def_Size() {
  static const OpDef def{"",
                         "Size",
                         {1, 13, 19, 21, 23, 24, 25},
                         1,
                         1,
                         1,
                         1,
                         make,
                         nullptr,
                         {{1, "data: T -> size: T1; T = all, T1 = int64"},
                          {13, "data: T -> size: T1; T = all_ir4, T1 = int64"}}};
  return def;
}

}  // namespace bough::ops
