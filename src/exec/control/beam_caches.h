// The decoder caches of a beam search, whose rows follow the beams.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "bough/value.h"

namespace bough::ops {

// Row r (along `axis`) of `out` is row from[r] of `t`: a cache's rows reordered after their
// beams, or an entry's rows repeated for its beams.
void gather_rows(const Tensor& t, size_t axis, std::span<const int32_t> from, Tensor& out);

// The caches of a step follow their beams' source rows: one gather per cache into a second
// buffer swapped in. In place would not do, as two beams may share a source row and a row's
// old value may still be needed by another; the copy is skipped when every row keeps its own.
void follow_beams(std::vector<Value>& caches, std::vector<Value>& spare, size_t axis,
                  std::span<const int32_t> from);

}  // namespace bough::ops
