// Dropout: the identity in inference, with an all-true mask. Training is asked for by the
// training_mode input from opset 12, never in 7..10, and in 1 and 6 by is_test = 0 (the
// default: those versions drop unless is_test is set). In training, each element is kept
// when a uniform draw in [0, 1) is >= ratio (input from opset 12, attribute before;
// default 0.5) and then scaled by 1 / (1 - ratio). The draws are the Mersenne Twister's 53-bit
// doubles, seeded with the `seed` attribute when given (as numpy's legacy generator is), so a
// seeded node repeats its mask on every run. The mask is bool from opset 10, X's type before.
#include <optional>
#include <random>

#include "ops/def_from_rows.h"
#include "ops/onnx/math_map.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace dropout_op {

[[noreturn]] void bad(const std::string& message) { fail(ErrorKind::BadInput, "", message); }

// A double in [0, 1) from two 32-bit draws, as numpy's legacy random_sample.
double uniform53(std::mt19937& gen) {
  const uint32_t a = gen() >> 5, b = gen() >> 6;
  return (a * 67108864.0 + b) / 9007199254740992.0;
}

class Dropout : public Kernel {
 public:
  Dropout(bool bool_mask, std::optional<int64_t> seed, bool is_test_off, double ratio)
      : bool_mask_(bool_mask), seed_(seed), is_test_off_(is_test_off), ratio_(ratio) {}

  void run(KernelIO& io) override {
    const Tensor& x = io.input(0);
    const bool training =
        is_test_off_ || (io.has_input(2) && io.input(2).numel() == 1 && io.input(2).get_int(0));
    double ratio = ratio_;
    if (io.has_input(1)) {
      if (io.input(1).numel() != 1) bad("Dropout's ratio must hold one value");
      ratio = io.input(1).get_double(0);
    }
    if (!training || ratio == 0) {
      io.set_output(0, x);
      if (io.has_output(1)) io.set_output(1, full_mask(x));
      return;
    }
    if (!(ratio > 0 && ratio < 1)) bad("Dropout's ratio must be in [0, 1)");
    if (!is_float_type(x.type()) || is_sub_byte(x.type())) bad("Dropout needs a float input");
    std::mt19937 gen(seed_ ? static_cast<uint32_t>(*seed_) : std::random_device{}());
    Tensor mask(ElemType::Bool, x.shape());
    bool* keep = mask.data<bool>();
    for (int64_t i = 0; i < x.numel(); ++i) keep[i] = uniform53(gen) >= ratio;
    const ElemType ct = x.type() == ElemType::Double ? ElemType::Double : ElemType::Float;
    const Tensor xc = kernels::cast(x, ct);
    Tensor y(ct, x.shape());
    kernels::visit_float(ct, "Dropout", [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T scale = static_cast<T>(1.0 / (1.0 - ratio));
      for (int64_t i = 0; i < x.numel(); ++i)
        y.data<T>()[i] = keep[i] ? xc.data<T>()[i] * scale : T(0);
    });
    io.set_output(0, kernels::cast(y, x.type()));
    if (io.has_output(1))
      io.set_output(1, bool_mask_ ? std::move(mask) : kernels::cast(mask, x.type()));
  }

 private:
  Tensor full_mask(const Tensor& x) const {
    if (bool_mask_) {
      Tensor m(ElemType::Bool, x.shape());
      std::fill_n(m.data<bool>(), m.numel(), true);
      return m;
    }
    Tensor one = Tensor::from_vector<double>(ElemType::Double, Dims(x.shape()),
                                             std::vector<double>(x.numel(), 1.0));
    return kernels::cast(one, x.type());
  }

  bool bool_mask_;
  std::optional<int64_t> seed_;
  bool is_test_off_;  // Dropout-1/6 with is_test = 0: always training
  double ratio_;      // the ratio attribute (before opset 12), else the default
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  std::optional<int64_t> seed;
  if (ctx.has_attr("seed")) seed = ctx.attr_int("seed", 0);
  if (ctx.since < 12 && ctx.node.inputs.size() > 1)
    ctx.invalid("Dropout takes one input before opset 12");
  const bool is_test_off = ctx.since < 7 && ctx.attr_int("is_test", 0) == 0;
  const double ratio = ctx.since < 12 ? ctx.attr_float("ratio", 0.5f) : 0.5;
  return std::make_unique<Dropout>(ctx.since >= 10, seed, is_test_off, ratio);
}

// output has data's type; mask its shape, in data's type before opset 10 and bool after.
void infer(InferContext& ctx) {
  ctx.set_output(0, ctx.input_type(0));
  if (ctx.num_outputs() > 1)
    ctx.set_output_tensor(1, ctx.since < 10 ? ctx.input_elem(0) : ElemType::Bool,
                          ctx.input_shape(0));
}

constexpr SignatureText kRows[] = {
    {1,
     "data: T -> output: T, mask?: T; T = floats; consumed_inputs: ints?, is_test: int = 0, "
     "ratio: float = 0.5"},
    {6, "data: T -> output: T, mask?: T; T = floats; is_test: int = 0, ratio: float = 0.5"},
    {7, "data: T -> output: T, mask?: T; T = floats; ratio: float = 0.5"},
    {10, "data: T -> output: T, mask?: T1; T = floats, T1 = bool; ratio: float = 0.5"},
    {12,
     "data: T, ratio?: T1, training_mode?: T2 -> output: T, mask?: T2; T = floats, T1 = floats, "
     "T2 = bool; seed: int?"},
    {13,
     "data: T, ratio?: T1, training_mode?: T2 -> output: T, mask?: T2; T = floats bfloat16, T1 "
     "= floats, T2 = bool; seed: int?"},
    {22,
     "data: T, ratio?: T1, training_mode?: T2 -> output: T, mask?: T2; T = floats bfloat16 "
     "float8s, T1 = floats bfloat16 float8s, T2 = bool; seed: int?"}};

}  // namespace dropout_op
}  // namespace

OpDef def_Dropout() {
  using namespace dropout_op;
  return def_from_rows("", "Dropout", make, infer, kRows);
}

}  // namespace bough::ops
