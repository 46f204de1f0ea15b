// com.microsoft BiasAdd-1: Y = X + bias + skip, X and skip of shape (N, S, C), bias (C).
#include "ops/def_from_rows.h"
#include "ops/microsoft/bias_activation.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace bias_add_op {
class BiasAdd : public Kernel {
 public:
  void run(KernelIO& io) override {
    if (io.input(0).rank() != 3)
      fail(ErrorKind::BadInput, "",
           "BiasAdd's X must be 3-D (N, S, C), got " + shape_string(io.input(0).shape()));
    io.set_output(0, microsoft::bias_map(io.input(0), &io.input(1), &io.input(2), io.pool(),
                                         "BiasAdd", [](auto v) { return v; }));
  }
};
std::unique_ptr<Kernel> make(const BuildContext&) { return std::make_unique<BiasAdd>(); }
constexpr SignatureText kRows[] = {{1, "X: T, bias: T, skip: T -> Y: T; T = float float16"}};

}  // namespace bias_add_op
}  // namespace

OpDef def_MsBiasAdd() {
  using namespace bias_add_op;
  return def_from_rows("com.microsoft", "BiasAdd", make, infer_same_as_first, kRows);
}

}  // namespace bough::ops
