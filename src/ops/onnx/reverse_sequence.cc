// ReverseSequence: for each batch entry b, the first sequence_lens[b] steps along the time
// axis reversed and the rest kept. time_axis and batch_axis are 0 and 1, in either order.
#include <algorithm>
#include <vector>

#include "kernels/dispatch.h"
#include "kernels/shape_args.h"
#include "ops/def_from_rows.h"
#include "ops/registry.h"
#include "ops/shape_infer.h"

namespace bough::ops {

namespace {
namespace reverse_sequence_op {
class ReverseSequence : public Kernel {
 public:
  ReverseSequence(int64_t time_axis, int64_t batch_axis)
      : time_axis_(time_axis), batch_axis_(batch_axis) {}

  void run(KernelIO& io) override {
    const Tensor& x = io.input(0);
    if (x.rank() < 2) fail(ErrorKind::BadInput, "", "ReverseSequence input must have rank >= 2");
    const int64_t batch = x.dim(static_cast<size_t>(batch_axis_));
    const int64_t steps = x.dim(static_cast<size_t>(time_axis_));
    const std::vector<int64_t> lens = kernels::read_ints(io.input(1), "sequence_lens");
    if (io.input(1).rank() != 1 || static_cast<int64_t>(lens.size()) != batch)
      fail(ErrorKind::BadInput, "", "sequence_lens must be 1-D with one entry per batch entry");
    for (int64_t l : lens)
      if (l < 0 || l > steps)
        fail(ErrorKind::BadInput, "",
             "sequence length " + std::to_string(l) + " is out of range for " +
                 std::to_string(steps) + " steps");
    int64_t inner = 1;
    for (size_t d = 2; d < x.rank(); ++d) inner *= x.dim(d);
    // Element offsets of (t, b) rows of `inner` elements.
    const int64_t t_stride = time_axis_ == 0 ? batch * inner : inner;
    const int64_t b_stride = batch_axis_ == 0 ? steps * inner : inner;
    if (is_sub_byte(x.type()))
      fail(ErrorKind::Unsupported, "", "ReverseSequence on sub-byte types");
    Tensor y(x.type(), x.shape());
    kernels::visit_storage(x.type(), "ReverseSequence", [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T* src = kernels::elements<T>(x);
      T* dst = kernels::elements<T>(y);
      for (int64_t b = 0; b < batch; ++b) {
        const int64_t len = lens[static_cast<size_t>(b)];
        for (int64_t t = 0; t < steps; ++t) {
          const int64_t from = t < len ? len - 1 - t : t;
          std::copy_n(src + b * b_stride + from * t_stride, inner,
                      dst + b * b_stride + t * t_stride);
        }
      }
    });
    io.set_output(0, std::move(y));
  }

 private:
  int64_t time_axis_, batch_axis_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  const int64_t time_axis = ctx.attr_int("time_axis", 0);
  const int64_t batch_axis = ctx.attr_int("batch_axis", 1);
  if ((time_axis != 0 && time_axis != 1) || batch_axis != 1 - time_axis)
    ctx.invalid("time_axis and batch_axis must be 0 and 1, in either order");
  return std::make_unique<ReverseSequence>(time_axis, batch_axis);
}
constexpr SignatureText kRows[] = {
    {10,
     "input: T, sequence_lens: tensor(int64) -> Y: T; T = all; batch_axis: "
     "int = 1, time_axis: int = 0"}};

}  // namespace reverse_sequence_op
}  // namespace

OpDef def_ReverseSequence() {
  using namespace reverse_sequence_op;
  return def_from_rows("", "ReverseSequence", make, infer_same_as_first, kRows);
}

}  // namespace bough::ops
