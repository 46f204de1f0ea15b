// Tile: the input repeated repeats[i] times along each axis i. Opset 1 instead takes two
// scalars, `tiles` (the count) and `axis`.
#include "kernels/layout.h"
#include "kernels/shape_args.h"
#include "kernels/shape_copy.h"
#include "ops/def_from_rows.h"
#include "ops/onnx/layout_infer.h"
#include "ops/registry.h"

namespace bough::ops {

namespace {
namespace tile_op {

constexpr int64_t kMaxElements = int64_t{1} << 40;

class Tile : public Kernel {
 public:
  explicit Tile(bool legacy) : legacy_(legacy) {}

  void run(KernelIO& io) override {
    const Tensor& x = io.input(0);
    const auto rank = static_cast<int64_t>(x.rank());
    std::vector<int64_t> repeats;
    if (legacy_) {
      repeats.assign(x.rank(), 1);
      // Tile-1's tiles and axis are one-element tensors of the input's type.
      const std::vector<int64_t> tiles = kernels::read_whole_numbers(io.input(1), "tiles");
      const std::vector<int64_t> axis = kernels::read_whole_numbers(io.input(2), "axis");
      if (tiles.size() != 1 || axis.size() != 1)
        fail(ErrorKind::BadInput, "", "Tile-1's tiles and axis must hold one value each");
      repeats[static_cast<size_t>(kernels::normalize_axis(axis[0], rank))] = tiles[0];
    } else {
      repeats = kernels::read_shape_arg(io.input(1), "repeats");
    }
    if (repeats.size() != x.rank())
      fail(ErrorKind::BadInput, "",
           "repeats has " + std::to_string(repeats.size()) + " entries for an input of shape " +
               shape_string(x.shape()));
    // Walk [r0, d0, r1, d1, ...]: the repeat axes read with stride 0.
    const std::vector<int64_t> in_strides = kernels::contiguous_strides(x.shape());
    std::vector<int64_t> walk, strides;
    Dims shape;
    for (size_t d = 0; d < x.rank(); ++d) {
      if (repeats[d] < 0) fail(ErrorKind::BadInput, "", "repeats cannot be negative");
      if (x.dim(d) != 0 && repeats[d] > kMaxElements / x.dim(d))
        fail(ErrorKind::BadInput, "", "Tile output is too large");
      walk.insert(walk.end(), {repeats[d], x.dim(d)});
      strides.insert(strides.end(), {0, in_strides[d]});
      shape.push_back(repeats[d] * x.dim(d));
    }
    Tensor out(x.type(), shape);
    kernels::strided_copy(x, {0, strides}, out, {0, kernels::contiguous_strides(walk)}, walk,
                          &io.pool());
    io.set_output(0, std::move(out));
  }

 private:
  bool legacy_;
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  const bool legacy = ctx.since < 6;
  if (ctx.node.inputs.size() != (legacy ? 3u : 2u))
    ctx.invalid(legacy ? "Tile-1 takes input, tiles and axis" : "Tile takes input and repeats");
  return std::make_unique<Tile>(legacy);
}
void infer(InferContext& ctx) {
  const ir::Shape* s = ranked_first_input(ctx);
  if (!s) return;
  const ElemType elem = ctx.input_elem(0);
  const auto repeats = ctx.since >= 6 ? int_values(ctx, 1) : std::nullopt;
  if (!repeats) {
    ctx.set_output_tensor(0, elem, unknown_dims(s->dims.size()));
    return;
  }
  if (repeats->size() != s->dims.size())
    ctx.invalid("repeats has " + std::to_string(repeats->size()) +
                " entries for an input of rank " + std::to_string(s->dims.size()));
  std::vector<ir::Dim> out;
  for (size_t k = 0; k < s->dims.size(); ++k) {
    if ((*repeats)[k] < 0) ctx.invalid("repeats holds a negative count");
    out.push_back(layout_infer::dim_times(s->dims[k], (*repeats)[k]));
  }
  ctx.set_output_tensor(0, elem, ir::Shape::of(std::move(out)));
}

constexpr SignatureText kRows[] = {
    {1, "input: T, tiles: T, axis: T -> output: T; T = floats, T1 = int64"},
    {6, "input: T, repeats: T1 -> output: T; T = all, T1 = int64"},
    {13, "input: T, repeats: T1 -> output: T; T = all_ir4, T1 = int64"}};

}  // namespace tile_op
}  // namespace

OpDef def_Tile() {
  using namespace tile_op;
  return def_from_rows("", "Tile", make, infer, kRows);
}

}  // namespace bough::ops
