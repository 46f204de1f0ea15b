// Pad: grows (or, with negative pads, crops) each axis by pads[i] at the front and
// pads[rank+i] at the back. Modes: constant (the value, default 0), reflect (mirror without
// repeating the edge), edge (repeat the edge), wrap (opset 19, periodic). Opset 1 and 2
// take `paddings` / `pads` and `value` as attributes; 11+ take pads and constant_value as
// inputs, and 18+ an optional `axes` input naming the padded axes.
#include <algorithm>
#include <optional>

#include "kernels/convert.h"
#include "kernels/dispatch.h"
#include "kernels/shape_args.h"
#include "kernels/shape_copy.h"
#include "kernels/sub_byte.h"
#include "ops/attr_choice.h"
#include "ops/def_from_rows.h"
#include "ops/onnx/layout_infer.h"
#include "ops/registry.h"
#include "util/thread_pool.h"

namespace bough::ops {

namespace {
namespace pad_op {

enum class Mode { Constant, Reflect, Edge, Wrap };

// For every output index along one axis, the input index it reads (Constant: -1 outside).
std::vector<int64_t> source_map(int64_t in, int64_t out, int64_t before, Mode mode) {
  if (in == 0 && out > 0 && mode != Mode::Constant)
    fail(ErrorKind::BadInput, "", "cannot pad an empty axis in this mode");
  std::vector<int64_t> map(static_cast<size_t>(out));
  for (int64_t c = 0; c < out; ++c) {
    int64_t i = c - before;
    switch (mode) {
      case Mode::Constant:
        i = i >= 0 && i < in ? i : -1;
        break;
      case Mode::Edge:
        i = std::clamp<int64_t>(i, 0, in - 1);
        break;
      case Mode::Wrap:
        i = ((i % in) + in) % in;
        break;
      case Mode::Reflect: {
        if (in == 1) {
          i = 0;
          break;
        }
        const int64_t period = 2 * (in - 1);
        i = ((i % period) + period) % period;
        if (i >= in) i = period - i;
        break;
      }
    }
    map[static_cast<size_t>(c)] = i;
  }
  return map;
}

// The output columns [lo, hi) of the last axis that read the input's interior in order
// (map[c] = c - before): what a row copies in one piece; the columns outside read through
// the map (mirrored, clamped or wrapped indices, worked out once per column).
struct Interior {
  int64_t lo = 0, hi = 0;
};

Interior interior_of(const std::vector<int64_t>& map, int64_t before) {
  Interior in;
  const auto out = static_cast<int64_t>(map.size());
  while (in.lo < out && map[static_cast<size_t>(in.lo)] != in.lo - before) ++in.lo;
  in.hi = in.lo;
  while (in.hi < out && map[static_cast<size_t>(in.hi)] == in.hi - before) ++in.hi;
  return in;
}

// Output rows [begin, end) (a row is one coordinate of all axes but the last) read through
// the per-axis maps. The source row's offset follows the row's coordinates, which are
// counted up (no division past the first row); each row copies its interior in one piece.
template <typename T>
void padded_rows(const T* src, T* dst, const Dims& out_shape, std::span<const int64_t> strides,
                 const std::vector<std::vector<int64_t>>& maps, int64_t before, int64_t begin,
                 int64_t end) {
  const size_t last = out_shape.size() - 1;
  const int64_t inner = out_shape[last];
  const std::vector<int64_t>& cols = maps[last];
  const Interior in = interior_of(cols, before);
  std::vector<int64_t> coord(last);
  for (size_t d = last, rest = static_cast<size_t>(begin); d-- > 0;) {
    coord[d] = static_cast<int64_t>(rest % static_cast<size_t>(out_shape[d]));
    rest /= static_cast<size_t>(out_shape[d]);
  }
  for (int64_t r = begin; r < end; ++r) {
    int64_t base = 0;
    for (size_t d = 0; d < last; ++d) base += maps[d][static_cast<size_t>(coord[d])] * strides[d];
    const T* from = src + base;
    T* row = dst + r * inner;
    for (int64_t i = 0; i < in.lo; ++i) row[i] = from[cols[static_cast<size_t>(i)]];
    if (in.hi > in.lo) std::copy(from + in.lo - before, from + in.hi - before, row + in.lo);
    for (int64_t i = in.hi; i < inner; ++i) row[i] = from[cols[static_cast<size_t>(i)]];
    for (size_t d = last; d-- > 0;) {  // the next row's coordinates
      if (++coord[d] < out_shape[d]) break;
      coord[d] = 0;
    }
  }
}

// Every output element read through the per-axis maps (the edge, reflect and wrap modes);
// `before` is the last axis's front pad.
void gather_padded(const Tensor& x, Tensor& out, const std::vector<std::vector<int64_t>>& maps,
                   int64_t before, util::ThreadPool& pool) {
  const std::vector<int64_t> strides = kernels::contiguous_strides(x.shape());
  const int64_t inner = out.dim(out.rank() - 1);
  kernels::visit_storage(x.type(), "Pad", [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* src = kernels::elements<T>(x);
    T* dst = kernels::elements<T>(out);
    // A row copies its elements (the padding through an index map).
    const int64_t row_work = inner * 2 * static_cast<int64_t>(sizeof(T));
    pool.parallel_for_work(out.numel() / inner, row_work, [&](int64_t b, int64_t e) {
      padded_rows<T>(src, dst, out.shape(), strides, maps, before, b, e);
    });
  });
}

// The constant mode: fill with `value`, then copy the part of the input that remains.
void fill_and_copy(const Tensor& x, Tensor& out, std::span<const int64_t> pads, const Tensor& value,
                   util::ThreadPool& pool) {
  kernels::visit_storage(x.type(), "Pad", [&](auto tag) {
    using T = typename decltype(tag)::type;
    std::fill_n(kernels::elements<T>(out), out.numel(), kernels::elements<T>(value)[0]);
  });
  const size_t rank = x.rank();
  const std::vector<int64_t> in_strides = kernels::contiguous_strides(x.shape());
  const std::vector<int64_t> out_strides = kernels::contiguous_strides(out.shape());
  std::vector<int64_t> dims(rank);
  int64_t from = 0, to = 0;
  for (size_t d = 0; d < rank; ++d) {
    const int64_t before = pads[d];
    const int64_t src0 = std::max<int64_t>(0, -before), dst0 = std::max<int64_t>(0, before);
    dims[d] = std::max<int64_t>(0, std::min(x.dim(d) - src0, out.dim(d) - dst0));
    from += src0 * in_strides[d];
    to += dst0 * out_strides[d];
  }
  kernels::strided_copy(x, {from, in_strides}, out, {to, out_strides}, dims, &pool);
}

class Pad : public Kernel {
 public:
  Pad(Mode mode, std::optional<std::vector<int64_t>> pads, std::optional<double> value)
      : mode_(mode), pads_(std::move(pads)), value_(value) {}

  void run(KernelIO& io) override {
    const Tensor& x = io.input(0);
    const size_t rank = x.rank();
    if (rank == 0) return io.set_output(0, x);  // nothing to pad
    std::vector<int64_t> given = pads_ ? *pads_ : kernels::read_ints(io.input(1), "pads");
    std::vector<int64_t> axes;
    if (io.has_input(3)) {
      axes = kernels::normalize_axes(kernels::read_ints(io.input(3), "axes"),
                                     static_cast<int64_t>(rank));
    } else {
      for (size_t d = 0; d < rank; ++d) axes.push_back(static_cast<int64_t>(d));
    }
    if (given.size() != 2 * axes.size())
      fail(ErrorKind::BadInput, "",
           "pads has " + std::to_string(given.size()) + " entries, expected " +
               std::to_string(2 * axes.size()));
    std::vector<int64_t> pads(2 * rank, 0);  // [begin..., end...] over every axis
    for (size_t i = 0; i < axes.size(); ++i) {
      pads[static_cast<size_t>(axes[i])] = given[i];
      pads[rank + static_cast<size_t>(axes[i])] = given[axes.size() + i];
    }
    Dims shape;
    for (size_t d = 0; d < rank; ++d) {
      const int64_t n = x.dim(d) + pads[d] + pads[rank + d];
      if (n < 0) fail(ErrorKind::BadInput, "", "pads crop more than the input holds");
      shape.push_back(n);
    }
    if (!is_sub_byte(x.type())) return io.set_output(0, pad(io, x, pads, shape));
    // Sub-byte elements are padded as one field per byte, then packed again.
    io.set_output(
        0, kernels::packed_fields(pad(io, kernels::unpacked_fields(x), pads, shape), x.type()));
  }

 private:
  // `x` padded to `shape`; a sub-byte input comes as its fields.
  Tensor pad(KernelIO& io, const Tensor& x, std::span<const int64_t> pads,
             const Dims& shape) const {
    Tensor out(x.type(), shape);
    if (out.numel() == 0) return out;
    if (mode_ == Mode::Constant) {
      fill_and_copy(x, out, pads, fill_value(io, x.type()), io.pool());
    } else {
      std::vector<std::vector<int64_t>> maps;
      for (size_t d = 0; d < x.rank(); ++d)
        maps.push_back(source_map(x.dim(d), shape[d], pads[d], mode_));
      gather_padded(x, out, maps, pads[x.rank() - 1], io.pool());
    }
    return out;
  }

  // The constant as a one-element tensor of `type` (UInt8: the field of a sub-byte value).
  Tensor fill_value(KernelIO& io, ElemType type) const {
    if (io.has_input(2)) {
      const Tensor& v = io.input(2);
      const bool fields =
          is_sub_byte(v.type()) && type == ElemType::UInt8 && v.type() == io.input(0).type();
      if (v.type() != type && !fields)
        fail(ErrorKind::BadInput, "", "constant_value has a different element type");
      if (v.numel() != 1) fail(ErrorKind::BadInput, "", "constant_value must hold one value");
      return fields ? kernels::unpacked_fields(v) : v;
    }
    if (type == ElemType::String) return Tensor(type, {});
    if (!value_ || *value_ == 0) return Tensor::zeros(type, {});
    return kernels::cast(Tensor::from_vector<double>(ElemType::Double, {}, {*value_}), type);
  }

  Mode mode_;
  std::optional<std::vector<int64_t>> pads_;  // opset 1/2 attribute
  std::optional<double> value_;               // opset 1/2 attribute
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  // "wrap" came with opset 19.
  constexpr Choice<Mode> kModes[] = {{"constant", Mode::Constant},
                                     {"reflect", Mode::Reflect},
                                     {"edge", Mode::Edge},
                                     {"wrap", Mode::Wrap}};
  const Mode mode =
      attr_choice<Mode>(ctx, "mode", "constant", std::span(kModes).first(ctx.since >= 19 ? 4 : 3));
  if (ctx.since >= 11) {
    if (ctx.node.inputs.size() < 2 || !ctx.node.inputs[1]) ctx.invalid("Pad needs the pads input");
    return std::make_unique<Pad>(mode, std::nullopt, std::nullopt);
  }
  const char* attr = ctx.since < 2 ? "paddings" : "pads";
  if (!ctx.has_attr(attr)) ctx.invalid(std::string("Pad needs the ") + attr + " attribute");
  if (ctx.node.inputs.size() != 1) ctx.invalid("Pad takes one input before opset 11");
  return std::make_unique<Pad>(mode, ctx.attr_ints(attr), ctx.attr_float("value", 0.0f));
}

void infer(InferContext& ctx) {
  const ir::Shape* s = ranked_first_input(ctx);
  if (!s) return;
  const ElemType elem = ctx.input_elem(0);
  const auto rank = static_cast<int64_t>(s->dims.size());
  std::optional<std::vector<int64_t>> pads =
      ctx.since >= 11 ? int_values(ctx, 1)
                      : std::optional(ctx.attr_ints(ctx.since < 2 ? "paddings" : "pads"));
  std::optional<std::vector<int64_t>> axes;
  if (ctx.since >= 18 && ctx.has_input(3)) {
    axes = int_values(ctx, 3);
  } else {
    axes.emplace();
    for (int64_t d = 0; d < rank; ++d) axes->push_back(d);
  }
  if (!pads || !axes) {
    ctx.set_output_tensor(0, elem, unknown_dims(s->dims.size()));
    return;
  }
  if (pads->size() != 2 * axes->size())
    ctx.invalid("pads has " + std::to_string(pads->size()) + " entries for " +
                std::to_string(axes->size()) + " axes");
  const std::vector<int64_t> normalized = layout_infer::normalize_axes(ctx, *axes, rank, "axis");
  std::vector<ir::Dim> out = s->dims;
  for (size_t k = 0; k < normalized.size(); ++k) {
    const int64_t added = (*pads)[k] + (*pads)[k + normalized.size()];
    ir::Dim& d = out[static_cast<size_t>(normalized[k])];
    if (d.is_known()) {
      if (d.value + added < 0)
        ctx.invalid("pads shrink axis " + std::to_string(normalized[k]) + " of size " +
                    std::to_string(d.value) + " below 0");
      d = ir::Dim::known(d.value + added);
    } else if (added != 0) {
      d = ir::Dim::unknown();
    }
  }
  ctx.set_output_tensor(0, elem, ir::Shape::of(std::move(out)));
}

constexpr SignatureText kRows[] = {
    {1,
     "data: T -> output: T; T = floats; mode: string = constant, paddings: "
     "ints, value: float = 0.0"},
    {2,
     "data: T -> output: T; T = floats; mode: string = constant, pads: ints, "
     "value: float = 0.0"},
    {11,
     "data: T, pads: tensor(int64), constant_value?: T -> output: T; T = "
     "numeric; mode: string = constant"},
    {13,
     "data: T, pads: tensor(int64), constant_value?: T -> output: T; T = "
     "all_ir4; mode: string = constant"},
    {18,
     "data: T, pads: tensor(int64), constant_value?: T, axes?: Tind -> output: T; T = all_ir4, "
     "Tind = int32 int64; mode: string = constant"},
    {19,
     "data: T, pads: tensor(int64), constant_value?: T, axes?: Tind -> output: T; T = all_ir4, "
     "Tind = int32 int64; mode: string = constant"},
    {21,
     "data: T, pads: tensor(int64), constant_value?: T, axes?: Tind -> output: T; T = all_ir10, "
     "Tind = int32 int64; mode: string = constant"},
    {23,
     "data: T, pads: tensor(int64), constant_value?: T, axes?: Tind -> output: T; T = all_ir11, "
     "Tind = int32 int64; mode: string = constant"},
    {24,
     "data: T, pads: tensor(int64), constant_value?: T, axes?: Tind -> output: T; T = all_ir12, "
     "Tind = int32 int64; mode: string = constant"},
    {25,
     "data: T, pads: tensor(int64), constant_value?: T, axes?: Tind -> output: T; T = all_ir13, "
     "Tind = int32 int64; mode: string = constant"}};

}  // namespace pad_op
}  // namespace

OpDef def_Pad() {
  using namespace pad_op;
  return def_from_rows("", "Pad", make, infer, kRows);
}

}  // namespace bough::ops
