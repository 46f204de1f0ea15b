#include "exec/control/beam_caches.h"

#include <cstring>
#include <string>
#include <utility>

#include "bough/error.h"
#include "ir/storage.h"

namespace bough::ops {

// Row r (along `axis`) of `out` is row from[r] of `t`: a cache's rows reordered after their
// beams, or an entry's rows repeated for its beams.
void gather_rows(const Tensor& t, size_t axis, std::span<const int32_t> from, Tensor& out) {
  Dims shape = t.shape();
  const int64_t in_rows = shape[axis], rows = static_cast<int64_t>(from.size());
  int64_t outer = 1;
  for (size_t k = 0; k < axis; ++k) outer *= shape[k];
  shape[axis] = rows;
  ir::reinit(out, t.type(), shape);
  if (outer * in_rows == 0) return;
  const size_t row_bytes = t.nbytes() / static_cast<size_t>(outer * in_rows);
  const auto* src = static_cast<const uint8_t*>(t.raw());
  auto* dst = static_cast<uint8_t*>(out.raw());
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t r = 0; r < rows; ++r)
      std::memcpy(dst + static_cast<size_t>(o * rows + r) * row_bytes,
                  src + static_cast<size_t>(o * in_rows + from[static_cast<size_t>(r)]) * row_bytes,
                  row_bytes);
}

// The caches of a step follow their beams' source rows: one gather per cache into a second
// buffer swapped in. In place would not do, as two beams may share a source row and a row's
// old value may still be needed by another; the copy is skipped when every row keeps its own.
void follow_beams(std::vector<Value>& caches, std::vector<Value>& spare, size_t axis,
                  std::span<const int32_t> from) {
  bool moved = false;
  for (size_t r = 0; r < from.size(); ++r) moved = moved || from[r] != static_cast<int32_t>(r);
  if (!moved) return;
  for (size_t j = 0; j < caches.size(); ++j) {
    if (!caches[j].is_tensor())
      fail(ErrorKind::BadInput, "",
           "BeamSearch's decoder must yield presents as tensors, got " + describe(caches[j]));
    gather_rows(caches[j].tensor(), axis, from, spare[j].as_tensor());
    std::swap(caches[j], spare[j]);
  }
}

}  // namespace bough::ops
