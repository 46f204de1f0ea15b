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

}  // namespace bough::ir
