// The tensor memory the process holds: a cap on it per run, and the cache of released buffers.
//
// A cap on the tensor memory a run may make the process hold (SessionOptions::
// memory_limit_bytes). Buffers over 8 KiB are counted while they are held (the small ones
// come from per-thread free lists and are not); an allocation on a thread inside a
// MemoryLimitScope that would take the count past the scope's limit fails instead.
#pragma once

#include <cstddef>

namespace bough::ir {

class MemoryLimitScope {
 public:
  // `limit` bytes, 0 for none; the limit of an enclosing scope on this thread comes back at
  // the end of this one.
  explicit MemoryLimitScope(size_t limit);
  ~MemoryLimitScope();
  MemoryLimitScope(const MemoryLimitScope&) = delete;
  MemoryLimitScope& operator=(const MemoryLimitScope&) = delete;

 private:
  size_t previous_;
};

// Bytes held now in counted buffers, across the process.
size_t held_tensor_bytes();

// Released buffers over 8 KiB are cached for reuse by later allocations of the same size,
// up to this many bytes in all (1 GiB unless set) in at most 64 buffers. Setting a lower
// limit frees what is over it now.
void set_buffer_cache_limit(size_t bytes);
// Bytes in cached buffers now.
size_t buffer_cache_bytes();
// Frees every cached buffer now; the limit stays. For after a one-off burst of releases
// that no run will ask for again, such as the weights a session dropped (Session's
// constructor calls it).
void free_cached_buffers();

}  // namespace bough::ir
