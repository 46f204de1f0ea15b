// Conv: N-D convolution (cross-correlation) of X (N x C x D1..Dn) with W (M x C/group x
// k1..kn), plus an optional bias B (M). Each image becomes an im2col matrix (float: in
// cache-sized tiles, one per thread at a time, kernels/conv_tiles.h), and each group one
// matrix product with its slice of W; groups of a single output channel (depthwise) are
// summed directly instead. Float convolutions with few output positions (an STFT), 2-D
// stride 1 ones with up to a few hundred taps per output, 2-D depthwise ones and 3x3 ones
// with many channels have their own paths (pick_path: kernels/conv_few_positions.h,
// conv_direct.h, conv_depthwise.h, conv_winograd.h). float16/bfloat16 are computed in
// float. Kernel taps that read only the padding on a map smaller than the window's reach (a
// 3x3 kernel over one row) are dropped first when their weights are finite
// (kernels/conv_crop.h): with a prepared W, cropped once per crop and kept. The kernel also
// runs com.microsoft FusedConv (ops/microsoft/fused_conv.cc), with an activation.
#include "ops/onnx/conv.h"

#include <algorithm>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>

#include "kernels/conv_columns.h"
#include "kernels/conv_crop.h"
#include "kernels/conv_depthwise.h"
#include "kernels/conv_direct.h"
#include "kernels/conv_few_positions.h"
#include "kernels/conv_im2col.h"
#include "kernels/conv_tiles.h"
#include "kernels/conv_winograd.h"
#include "kernels/finite.h"
#include "kernels/matmul.h"
#include "kernels/through_float.h"
#include "ops/def_from_rows.h"
#include "ops/onnx/math_map.h"
#include "ops/onnx/nn_infer.h"
#include "ops/onnx/prepared_filter.h"
#include "ops/onnx/window_attrs.h"

namespace bough::ops {

namespace {
namespace conv_op {

[[noreturn]] void bad(const std::string& message) { fail(ErrorKind::BadInput, "", message); }

// Groups of one output channel each (depthwise convolutions), computed directly: for each
// output row (every coordinate but the last fixed), each input channel of the group and each
// kernel tap, a weighted image row is added to the output row. Work items are (group, output
// row) pairs.
template <typename T>
void conv_single_output_groups(const T* x, const T* w, T* y, const kernels::Window& win, int64_t C,
                               int64_t groups, util::ThreadPool& pool) {
  const size_t r = win.rank();
  const int64_t K = win.kernel_numel(), P = win.out_numel(), in = win.in_numel();
  const int64_t cg = C / groups, len = win.out[r - 1], rows = P / len;
  const int64_t k_last = win.kernel[r - 1], k_outer = K / k_last;
  const int64_t in_last = win.in[r - 1], s = win.stride[r - 1], dil = win.dilation[r - 1];
  const int64_t grain = util::grain_for(len * K * cg * kernels::kElementWork);
  pool.parallel_for(groups * rows, grain, [&](int64_t b, int64_t e) {
    std::vector<int64_t> oc(r);
    for (int64_t item = b; item < e; ++item) {
      const int64_t g = item / rows;
      T* out = y + g * P + (item % rows) * len;
      std::fill(out, out + len, T(0));
      for (size_t d = r - 1, q = static_cast<size_t>(item % rows); d-- > 0;) {
        oc[d] = static_cast<int64_t>(q) % win.out[d];
        q /= static_cast<size_t>(win.out[d]);
      }
      for (int64_t ko = 0; ko < k_outer; ++ko) {
        const int64_t row = win.image_row(oc, ko);
        if (row < 0) continue;
        for (int64_t c = 0; c < cg; ++c) {
          const T* line = x + (g * cg + c) * in + row * in_last;
          const T* wk = w + (g * cg + c) * K + ko * k_last;
          for (int64_t k = 0; k < k_last; ++k) {
            const int64_t base = k * dil - win.pad_begin[r - 1];
            // The outputs j with 0 <= j*s + base < in_last.
            const int64_t lo = base >= 0 ? 0 : (-base + s - 1) / s;
            const int64_t hi = std::min(len, in_last - base > 0 ? (in_last - base + s - 1) / s : 0);
            const T wv = wk[k];
            if (s == 1) {
              for (int64_t j = lo; j < hi; ++j) out[j] += wv * line[j + base];
            } else {
              for (int64_t j = lo; j < hi; ++j) out[j] += wv * line[j * s + base];
            }
          }
        }
      }
    }
  });
}

// y (M x P) = convolution of one image x (C x in...) with w, by groups. Groups of one output
// channel are summed directly, skipping the taps in the padding, only when w is `finite`: the
// padding's zeros times an infinite or NaN weight are NaN.
template <typename T>
void conv_image(const T* x, const T* w, T* y, const kernels::Window& win, int64_t C, int64_t M,
                int64_t groups, kernels::Scratch<T>& col, kernels::Scratch<T>& tile_out,
                util::ThreadPool& pool, bool finite) {
  const int64_t K = win.kernel_numel(), P = win.out_numel();
  const int64_t cg = C / groups, mg = M / groups;
  if (mg == 1 && !win.is_pointwise() && finite)
    return conv_single_output_groups(x, w, y, win, C, groups, pool);
  std::vector<int64_t> a_off(static_cast<size_t>(groups)), b_off(static_cast<size_t>(groups));
  if (win.is_pointwise()) {  // the image is its own column matrix
    for (int64_t g = 0; g < groups; ++g) {
      a_off[static_cast<size_t>(g)] = g * mg * cg;
      b_off[static_cast<size_t>(g)] = g * cg * P;
    }
    kernels::batched_matmul<T>(w, x, y, a_off, b_off, mg, cg, P, pool);
    return;
  }
  kernels::convolve_columns<T>(
      w, y, C, M, K, P, groups,
      [&](int64_t p0, int64_t p1, T* col) { kernels::im2col(x, C, win, p0, p1, col, pool); }, col,
      tile_out, pool);
}

// How the Winograd path (`winograd`) or the direct path reads W on `win`: Winograd's form,
// or the direct path's block of output channels with tile 0.
kernels::WinogradForm filter_form(const kernels::Window& win, bool winograd) {
  return winograd ? kernels::winograd_form(win.out)
                  : kernels::WinogradForm{0, kernels::conv_direct_block(win.out[1])};
}

// W (M x C x k...) in `form` (filter_form's).
std::vector<float> direct_filter_for(const float* w, int64_t M, int64_t C,
                                     const kernels::Window& win,
                                     const kernels::WinogradForm& form) {
  if (form.tile != 0) return kernels::winograd_filter(w, M, C, form);
  return kernels::block_filter(w, M, C * win.kernel_numel(), form.block);
}

// The ways to compute a convolution, from the most specialized.
enum class Path {
  FewPositions,  // transposed, with Wᵀ packed once (kernels/conv_few_positions.h)
  Winograd,      // F(2x2 or 4x4, 3x3) (kernels/conv_winograd.h)
  Direct,        // from a padded copy, blocks of output channels (kernels/conv_direct.h)
  Depthwise,     // a plane per channel, all taps in registers (kernels/conv_depthwise.h)
  Pointwise,     // 1x1 stride 1: the image is the GEMM's operand as it is (conv_image)
  Tiles,         // im2col into cache-sized packed tiles and a GEMM each (kernels/conv_tiles.h)
  Generic,       // conv_image: any type; the paths above fall back to it
};

// The path of a convolution of element type T on `win`; `transposed` says whether the
// filter was packed for the few-positions path (done only when that path pays).
// - Few positions (an STFT's frames): one product by Wᵀ beats a product per position.
// - Winograd: 3x3 stride 1 with many channels, where its 2.25-4x fewer multiplies pay for
//   the transforms (measured, docs/bench/conv.md).
// - Direct: one group of up to kDirectMaxTaps taps per output, stride 1 or 2 (measured there:
//   20-35 % less time than the tiles). It comes before Depthwise for a one-channel image
//   (groups == C == 1), whose blocks of output channels share each image load.
// - Depthwise: one input channel per group, 2-D: any kernel, stride, dilation and padding.
//   The per-group loop below summed a scalar row per tap (issue 34: 3.4 GMAC/s against
//   ONNX Runtime's 28 on PP-LCNet's 3x3 and 5x5 layers).
// - Pointwise: the image is already the C x P operand of one GEMM per group, packed once as
//   MatMul's is; the tiles copied each tile of it first (issue 34: 87 GFLOP/s against
//   MatMul's 178-199). Up to kPointwiseGemmFloats floats of a group's image: measured
//   (bench/conv-paths, docs/bench/cnn.md) 0.87-0.94x the tiles' time at 0.6 and 1.2 MiB
//   (256 x 600, 128 x 2400), 1.12x at 4.7 MiB (32 x 38400), where the image packed whole
//   leaves the cache and the tiles' do not.
// - Tiles: groups of several output channels, or one group.
constexpr int64_t kPointwiseGemmFloats = int64_t{1} << 19;  // 2 MiB

template <typename T>
Path pick_path(const kernels::Window& win, int64_t C, int64_t M, int64_t groups, bool transposed) {
  if (!std::is_same_v<T, float>) return Path::Generic;
  if (transposed) return Path::FewPositions;
  if (kernels::conv_winograd_pays(win, C, groups)) return Path::Winograd;
  if (kernels::conv_direct_pays(win, C, groups)) return Path::Direct;
  if (kernels::conv_depthwise_pays(win, C, groups)) return Path::Depthwise;
  if (win.is_pointwise() && C / groups * win.out_numel() <= kPointwiseGemmFloats)
    return Path::Pointwise;
  if (M / groups > 1) return Path::Tiles;
  return Path::Generic;
}

// Whether `path` may run on this image. The depthwise path sums every tap of its padded
// plane, as the definition does, and a pointwise one has no padding, so they take any
// values. The others assume finite values:
// Winograd's transforms mix the values of a tile (one NaN or infinity in the image would
// reach every output of it), and the direct paths skip the taps in the padding (which the
// definition multiplies by zeros: 0 times an infinite or NaN weight is NaN). So an image
// holding a NaN or an infinity on the Winograd path, or a W holding one on the others,
// takes the generic path, which sums every tap of the zero-padded window. `w_ok` says
// whether W is finite; `image_ok` checks the image (one read of it, about 2 % of a
// Winograd convolution: docs/conv-nonfinite.md).
template <typename F>
bool path_runs(Path path, bool w_ok, F image_ok) {
  if (path == Path::Depthwise || path == Path::Pointwise || path == Path::Generic) return true;
  return w_ok && (path != Path::Winograd || image_ok());
}

// Y = the convolution plus B, activated as `epilogue` says (a fused activation), on the
// path pick_path picks (`filter_t`: W packed transposed, else null; `direct_w`: W
// transformed or blocked for the Winograd or direct path, else made here). The paths but
// the generic one add the bias and activate as each block of output is done; the generic
// one in a pass of its own. `w_finite` says whether W is finite when known (a prepared W,
// checked once); else W is checked here, once per run.
template <typename T>
Tensor conv(const Tensor& x, const Tensor& w, const Tensor* b, const kernels::Window& win,
            int64_t groups, const kernels::ConvEpilogue& epilogue, util::ThreadPool& pool,
            const kernels::PackedB* filter_t = nullptr, const float* direct_w = nullptr,
            std::optional<bool> w_finite = std::nullopt) {
  const int64_t N = x.dim(0), C = x.dim(1), M = w.dim(0);
  Dims shape{N, M};
  for (int64_t o : win.out) shape.push_back(o);
  Tensor y(x.type(), shape);
  const int64_t in_numel = win.in_numel(), P = win.out_numel();
  const T* bias = b ? b->data<T>() : nullptr;
  const Path path = pick_path<T>(win, C, M, groups, filter_t != nullptr);
  std::vector<float> blocked;  // W for the Winograd or direct path, when not prepared
  kernels::WinogradForm form{};
  if constexpr (std::is_same_v<T, float>) {
    if (path == Path::Winograd || path == Path::Direct) {
      form = filter_form(win, path == Path::Winograd);
      if (!direct_w) {
        blocked = direct_filter_for(w.data<T>(), M, C, win, form);
        direct_w = blocked.data();
      }
    }
  }
  const bool w_ok = w_finite ? *w_finite : kernels::all_finite(w.data<T>(), w.numel());
  // Image n of the batch, with the scratch of the thread that runs it.
  const auto image = [&](int64_t n, kernels::Scratch<T>& col, kernels::Scratch<T>& tile_out) {
    const T* xn = x.data<T>() + n * C * in_numel;
    T* yn = y.data<T>() + n * M * P;
    const bool runs = path_runs(path, w_ok, [&] { return kernels::all_finite(xn, C * in_numel); });
    if constexpr (std::is_same_v<T, float>) {
      if (runs) {
        switch (path) {
          case Path::FewPositions:
            return kernels::conv_few_positions_f32(xn, *filter_t, yn, win, C, bias, epilogue, pool);
          case Path::Winograd:
            return kernels::conv_winograd_f32(xn, direct_w, form, yn, win, C, M, bias, epilogue,
                                              pool);
          case Path::Direct:
            return kernels::conv_direct_f32(xn, direct_w, yn, win, C, M, bias, epilogue, pool);
          case Path::Depthwise:
            return kernels::conv_depthwise_f32(xn, w.data<T>(), yn, win, C, M, bias, epilogue,
                                               pool);
          case Path::Tiles:
            return kernels::conv_tiles_f32(xn, w.data<T>(), yn, win, C, M, groups, bias, epilogue,
                                           pool);
          case Path::Pointwise:  // conv_image's GEMMs, then the epilogue below
          case Path::Generic:
            break;
        }
      }
    }
    conv_image<T>(xn, w.data<T>(), yn, win, C, M, groups, col, tile_out, pool, w_ok);
    if (bias || epilogue.activation != kernels::Activation::None)
      pool.parallel_for(M, util::grain_for(P * kernels::kElementWork), [&](int64_t s, int64_t e) {
        for (int64_t m = s; m < e; ++m) epilogue.apply(yn + m * P, P, bias ? bias[m] : T(0));
      });
  };
  // A batch is split by image when every thread gets as many images, or when an image is too
  // small for each thread to have its share of the work inside it; the kernels then run on
  // the thread of their image. (The 6 images of cls_batch6 on 48 x 192 took as long at 2
  // threads as at 1: each of its convolutions was too small to split within an image.)
  // Otherwise the grain is the whole batch: one chunk on this thread, whose kernels split.
  const int threads = pool.threads();
  const int64_t image_work = M * P * (C / groups) * win.kernel_numel();
  const bool by_image =
      N > 1 && threads > 1 && (N % threads == 0 || image_work < threads * util::kMinWorkPerThread);
  pool.parallel_for(N, by_image ? util::grain_for(image_work) : N, [&](int64_t n0, int64_t n1) {
    kernels::Scratch<T> col, tile_out;
    for (int64_t n = n0; n < n1; ++n) image(n, col, tile_out);
  });
  return y;
}

// Whether a float or double tensor holds no NaN and no infinity.
bool is_finite(const Tensor& t) {
  if (t.type() == ElemType::Float) return kernels::all_finite(t.data<float>(), t.numel());
  if (t.type() == ElemType::Double) return kernels::all_finite(t.data<double>(), t.numel());
  return true;
}

// W with only the taps of `crop` (kernels/conv_crop.h), or nothing when a dropped weight is
// not finite (the dropped taps then change the outputs: 0 times inf or NaN is NaN).
std::optional<Tensor> cropped_filter(const Tensor& w, const kernels::Window& win,
                                     const kernels::TapCrop& crop) {
  Dims shape{w.dim(0), w.dim(1)};
  for (size_t d = 0; d < win.rank(); ++d) shape.push_back(crop.end[d] - crop.begin[d]);
  Tensor cropped(w.type(), shape);
  const bool exact = kernels::visit_float(w.type(), "Conv", [&](auto tag) {
    using T = typename decltype(tag)::type;
    return kernels::crop_filter(w.data<T>(), w.dim(0) * w.dim(1), win, crop, cropped.data<T>());
  });
  if (!exact) return std::nullopt;
  return cropped;
}

class Conv : public Kernel {
 public:
  Conv(const BuildContext& ctx, const kernels::ConvEpilogue& activation)
      : attrs_(read_window_attrs(ctx)),
        groups_(ctx.attr_int("group", 1)),
        epilogue_(activation),
        // W [M, C/group, k...] is already the row-major (M/group x C/group*K) left operand
        // of each group's product: preparing only widens it (and B) to the compute type.
        prepared_(prepare_filter(ctx, [](const Tensor& w) { return w; })) {
    if (groups_ < 1) ctx.invalid("group must be positive");
    if (prepared_) filters_.emplace_back(kernels::TapCrop{}, prepared_->w);
  }

  void run(KernelIO& io) override {
    const Tensor& x = io.input(0);
    if (prepared_) {
      const std::shared_ptr<const Resolved> r = resolved(x);
      Filter& f = r->filter;
      const kernels::Window& win = r->win;
      const kernels::PackedB* filter_t = f.transposed(win, x.dim(1), groups_);
      const float* direct_w = filter_t ? nullptr : f.direct(win, x.dim(1), groups_);
      io.set_output(0,
                    prepared_->apply(
                        x, "Conv", [&](auto tag, const Tensor& xc, const Tensor&, const Tensor* b) {
                          return conv<typename decltype(tag)::type>(xc, f.w, b, win, groups_,
                                                                    epilogue_, io.pool(), filter_t,
                                                                    direct_w, f.finite);
                        }));
      return;
    }
    const Tensor& w = io.input(1);
    const Tensor* b = io.has_input(2) ? &io.input(2) : nullptr;
    const kernels::Window win = check(x, filter_info(w, b));
    io.set_output(0, compute(x, w, b, win, io.pool()));
  }

 private:
  kernels::Window check(const Tensor& x, const FilterInfo& f) const {
    const Dims& ws = f.w_shape;
    check_filter_types(x, f, "Conv");
    if (x.rank() < 3)
      bad("Conv's X must have at least 3 dimensions, got " + shape_string(x.shape()));
    if (ws.size() != x.rank())
      bad("Conv's W " + shape_string(ws) + " does not match X " + shape_string(x.shape()));
    if (x.dim(1) != ws[1] * groups_)
      bad("Conv's X has " + std::to_string(x.dim(1)) + " channels, W expects " +
          std::to_string(ws[1] * groups_));
    if (ws[0] % groups_ != 0) bad("Conv's output channels are not divisible by group");
    if (f.b_shape && (f.b_shape->size() != 1 || (*f.b_shape)[0] != ws[0]))
      bad("Conv's B must have shape [" + std::to_string(ws[0]) + "]");
    const std::span<const int64_t> xs = x.shape(), wsp = ws;
    return kernels::resolve_window(attrs_, xs.subspan(2), wsp.subspan(2));
  }

  // The prepared W, whole or with the taps of a crop, and the forms made from it on demand.
  struct Filter {
    Filter(kernels::TapCrop t, Tensor filter)
        : taps(std::move(t)), w(std::move(filter)), finite(w.defined() && is_finite(w)) {}

    // W packed transposed (Wᵀ) when this run's few output positions pay for computing the
    // convolution transposed, else null. Packed on the first such run, once per session:
    // the output positions are not known before a run.
    const kernels::PackedB* transposed(const kernels::Window& win, int64_t C, int64_t groups) {
      if (w.type() != ElemType::Float ||
          !kernels::conv_few_positions_pays(win, C, w.dim(0), groups))
        return nullptr;
      std::call_once(transposed_once, [&] {
        transposed_w =
            kernels::pack_filter_transposed(w.data<float>(), w.dim(0), w.numel() / w.dim(0));
      });
      return &transposed_w;
    }

    // W transformed for the Winograd path or blocked for the direct path when this run
    // takes one, else null. Made on the first such run for each form (the block depends on
    // the output's size), once per session.
    const float* direct(const kernels::Window& win, int64_t C, int64_t groups) {
      if (w.type() != ElemType::Float) return nullptr;
      const bool winograd = kernels::conv_winograd_pays(win, C, groups);
      if (!winograd && !kernels::conv_direct_pays(win, C, groups)) return nullptr;
      const kernels::WinogradForm form = filter_form(win, winograd);
      std::lock_guard lock(direct_mutex);
      for (const auto& f : direct_forms)
        if (f.form == form) return f.data.data();
      direct_forms.push_back({form, direct_filter_for(w.data<float>(), w.dim(0), C, win, form)});
      return direct_forms.back().data.data();
    }

    kernels::TapCrop taps;  // the taps kept; empty: all of them
    Tensor w;               // undefined: a dropped weight is not finite (use the whole W)
    bool finite;            // whether w is finite
    std::once_flag transposed_once;
    kernels::PackedB transposed_w;
    std::mutex direct_mutex;
    // W for the Winograd or the direct path, by tile and block size (a deque: they never
    // move).
    struct DirectForm {
      kernels::WinogradForm form;
      std::vector<float> data;
    };
    std::deque<DirectForm> direct_forms;
  };

  // The filter for a run on `win`: the prepared W with the taps that read only padding
  // dropped (kernels/conv_crop.h), made on the first run with that crop, when the dropped
  // weights are finite; else the whole W.
  Filter& filter_for(const kernels::Window& win) {
    const kernels::TapCrop crop = kernels::dead_tap_crop(win);
    if (!crop.crops(win)) return filters_.front();
    std::lock_guard lock(filters_mutex_);
    auto found = std::find_if(filters_.begin(), filters_.end(), [&](const Filter& f) {
      return f.taps.begin == crop.begin && f.taps.end == crop.end;
    });
    Filter* f = found == filters_.end() ? nullptr : &*found;
    if (!f) {
      std::optional<Tensor> w = cropped_filter(prepared_->w, win, crop);
      f = &filters_.emplace_back(crop, w ? std::move(*w) : Tensor());
    }
    return f->w.defined() ? *f : filters_.front();
  }

  // With a prepared W: X's shape and type, checked, their window (with the crop's taps) and
  // its filter. The last one is kept: a session's runs mostly repeat a shape, and resolving
  // the window and the crop allocates a dozen small vectors per run (3 % of det_32x128's run
  // time, whose 36 convolutions take a few microseconds each).
  struct Resolved {
    Dims shape;
    ElemType type;
    kernels::Window win;
    Filter& filter;
  };

  std::shared_ptr<const Resolved> resolved(const Tensor& x) {
    {
      std::lock_guard lock(last_mutex_);
      if (last_ && last_->type == x.type() && last_->shape == x.shape()) return last_;
    }
    const kernels::Window full = check(x, filter_info(*prepared_));
    Filter& f = filter_for(full);
    auto r = std::make_shared<const Resolved>(
        Resolved{x.shape(), x.type(),
                 f.taps.begin.empty() ? full : kernels::cropped_window(full, f.taps), f});
    std::lock_guard lock(last_mutex_);
    last_ = r;
    return r;
  }

  Tensor compute(const Tensor& x, const Tensor& w, const Tensor* b, const kernels::Window& win,
                 util::ThreadPool& pool) const {
    auto convolve = [&](const Tensor& x, const Tensor& w, const Tensor* b) {
      const kernels::TapCrop crop = kernels::dead_tap_crop(win);
      std::optional<Tensor> cropped;
      if (crop.crops(win)) cropped = cropped_filter(w, win, crop);
      const kernels::Window used = cropped ? kernels::cropped_window(win, crop) : win;
      return kernels::visit_float(x.type(), "Conv", [&](auto tag) {
        using T = typename decltype(tag)::type;
        return conv<T>(x, cropped ? *cropped : w, b, used, groups_, epilogue_, pool);
      });
    };
    return kernels::through_float(convolve, x, w, b);
  }

  kernels::WindowAttrs attrs_;
  int64_t groups_;
  kernels::ConvEpilogue epilogue_;                  // FusedConv's activation; none for Conv
  std::unique_ptr<const PreparedFilter> prepared_;  // null: W and B read on every run
  std::mutex filters_mutex_;
  // With a prepared W: the whole W first, then the crops runs needed (a deque: they never
  // move).
  std::deque<Filter> filters_;
  std::mutex last_mutex_;
  std::shared_ptr<const Resolved> last_;  // the last run's (see resolved)
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) { return make_conv(ctx, {}); }

constexpr SignatureText kRows[] = {
    {1,
     "X: T, W: T, B?: T -> Y: T; T = floats; auto_pad: string = NOTSET, dilations: ints?, "
     "group: int = 1, kernel_shape: ints?, pads: ints?, strides: ints?"},
    {11,
     "X: T, W: T, B?: T -> Y: T; T = floats; auto_pad: string = NOTSET, dilations: ints?, "
     "group: int = 1, kernel_shape: ints?, pads: ints?, strides: ints?"},
    {22,
     "X: T, W: T, B?: T -> Y: T; T = floats bfloat16; auto_pad: string = NOTSET, dilations: "
     "ints?, group: int = 1, kernel_shape: ints?, pads: ints?, strides: ints?"}};

}  // namespace conv_op
}  // namespace

std::unique_ptr<Kernel> make_conv(const BuildContext& ctx,
                                  const kernels::ConvEpilogue& activation) {
  using namespace conv_op;
  return std::make_unique<Conv>(ctx, activation);
}

void infer_conv(InferContext& ctx) {
  ctx.set_output_tensor(0, ctx.input_elem(0), conv_output_shape(ctx));
}

OpDef def_Conv() {
  using namespace conv_op;
  return def_from_rows("", "Conv", make, infer_conv, kRows);
}

}  // namespace bough::ops
