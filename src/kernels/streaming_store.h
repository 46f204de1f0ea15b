// Writing outputs far larger than the last-level cache with non-temporal stores.
//
// An ordinary store to a line that is not in the cache first reads the line from memory
// (write-allocate), so filling a 128 MiB output moves 256 MiB. Non-temporal stores write
// whole lines without reading them. They bypass the cache, so they only pay for outputs too
// big to stay there anyway.
#pragma once

#include <cstddef>
#include <cstdint>

namespace bough::kernels {

// Outputs at least this big are written with non-temporal stores: twice the 32 MiB L3 of
// the machines measured, so that an output the next kernel could still find in the cache
// is not sent past it.
inline constexpr int64_t kStreamingOutputBytes = int64_t{64} << 20;

// Copies `bytes` from `src` to `dst`, with non-temporal stores for the part of dst aligned
// to 32 bytes (ordinary stores for the rest, and everywhere on CPUs without them). Call
// streaming_fence() before anything else may read dst.
void stream_copy(void* dst, const void* src, size_t bytes);

// Orders this thread's earlier non-temporal stores before its later stores (an sfence): at
// the end of each chunk of work that used stream_copy.
void streaming_fence();

}  // namespace bough::kernels
