// Identity: the input, shared (tensors, sequences and optionals alike).
#include "ops/registry.h"

namespace bough::ops {

namespace {
class Identity : public Kernel {
 public:
  void run(KernelIO& io) override {
    if (io.has_output(0)) io.output(0) = io.value(0);
  }
};
std::unique_ptr<Kernel> make(const BuildContext&) { return std::make_unique<Identity>(); }
}  // namespace

const OpDef& def_Identity() {
  static const OpDef def{"", "Identity", {1, 13, 14, 16, 19, 21, 23, 24, 25}, 1, 1, 1, 1, make};
  return def;
}

}  // namespace bough::ops
