// The buffer pool behind tensors, internal to bough: Storage and its reference counting, and
// what the runtime does with tensors' buffers that users of include/bough/ never need: reuse
// a buffer in place (reinit), keep a small one for the next run of a step
// (release_after_use), hand a run's buffers to other threads (share). They reach the
// Tensor's buffer through ir::TensorAccess, a friend of Tensor; everything here is inline,
// as it was when it sat in the public header.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

#include "bough/tensor.h"
#include "bough/value.h"

namespace bough {

/// The buffer behind tensors: a block of bytes, or an array of std::string for the string
/// element type. Reference counted; allocated through a small-size pool.
///
/// Counting is atomic unless the buffer is run-local: made by a Session::run on its own
/// thread and not yet handed out (ir::share). While that run's thread is outside a
/// parallel region, nobody else can reach such a buffer, so its count is kept with plain
/// loads and stores: If, Loop and Scan pass many tiny tensors around, and a locked
/// read-modify-write per copy was a tenth of their cost.
class Storage {
 public:
  /// A new buffer of `bytes` bytes (64-byte aligned), one reference.
  static Storage* allocate(size_t bytes);
  /// A new buffer of `count` empty strings, one reference.
  static Storage* allocate_strings(size_t count);
  /// A buffer the caller owns, used in place: bough never frees `data`; when the last
  /// reference goes it calls `on_release(context)` (if given) so the caller may.
  static Storage* wrap(void* data, size_t bytes, void (*on_release)(void*), void* context);
  /// Adds a reference.
  void retain() {
    if (counts_plainly())
      refs_.store(refs_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    else
      refs_.fetch_add(1, std::memory_order_relaxed);
  }
  /// Drops a reference; the last one frees the buffer (or returns it to its owner).
  void release() {
    // A sole owner needs no atomic read-modify-write: nobody else can reach this buffer.
    const int32_t refs = refs_.load(std::memory_order_acquire);
    if (refs == 1) return destroy();
    if (counts_plainly()) return refs_.store(refs - 1, std::memory_order_relaxed);
    if (refs_.fetch_sub(1, std::memory_order_acq_rel) == 1) destroy();
  }
  /// True when this is the only reference.
  bool unique() const { return refs_.load(std::memory_order_acquire) == 1; }
  /// A buffer this small, once its value is dead, stays with the slot for reuse (see
  /// ir::release_after_use).
  bool worth_keeping() const { return size_ <= 1024 && unique(); }
  /// The bytes.
  uint8_t* bytes() { return data_; }
  /// The strings of a string buffer.
  std::string* strings() { return reinterpret_cast<std::string*>(data_); }
  /// Bytes, or the string count of a string buffer.
  size_t size() const { return size_; }
  /// From now on other threads may reach this buffer.
  void share() { run_local_ = false; }

  /// Set by Session::run on its thread, and cleared while that thread runs a parallel chunk.
  static inline thread_local bool plain_counts = false;

 private:
  Storage() = default;
  bool counts_plainly() const { return run_local_ && plain_counts; }
  static Storage* allocate_new(size_t bytes);
  void destroy();
  void destroy_slow();
  std::atomic<int32_t> refs_{1};
  bool run_local_ = false;
  bool wrapped_ = false;     ///< a caller's buffer (Storage::wrap), not a pool block
  int32_t size_class_ = -1;  ///< pool bucket, -1 for a plain allocation
  size_t block_bytes_ = 0;   ///< the whole allocation, header included
  size_t size_ = 0;          ///< bytes, or string count
  size_t string_count_ = 0;
  uint8_t* data_ = nullptr;
  void (*on_release_)(void*) = nullptr;  ///< for a wrapped buffer
  void* release_context_ = nullptr;
};

namespace ir {

/// What of a Tensor the buffer pool sees.
struct TensorAccess {
  static Storage* storage(const Tensor& t) { return t.storage_; }
  /// Whether t's own buffer (not a view into one) holds `type` and `shape` now.
  static bool holds(const Tensor& t, ElemType type, const Dims& shape) {
    return t.storage_ && type == t.type_ && t.data_ == t.storage_->bytes() && shape == t.shape_;
  }
};

/// Makes t an uninitialized tensor of `type` and `shape`, as Tensor(type, shape) would, but
/// keeps its buffer when nothing else refers to it and the type and shape are the same: a
/// kernel that runs again and again (in a Loop body, say) then allocates nothing. Strings
/// keep their old values.
inline void reinit(Tensor& t, ElemType type, const Dims& shape) {
  if (!TensorAccess::holds(t, type, shape) || !TensorAccess::storage(t)->unique()) [[unlikely]]
    t = Tensor(type, shape);
}

/// See Storage::worth_keeping.
inline bool worth_keeping(const Tensor& t) {
  const Storage* s = TensorAccess::storage(t);
  return s && s->worth_keeping();
}

/// After the value's last use in a run: drops what it holds, except a small tensor buffer
/// nobody else refers to. That one stays for the next run of the same step to overwrite
/// (reinit), which saves an allocation per step in Loop and Scan bodies.
inline void release_after_use(Value& v) {
  if (!v.is_tensor() || !worth_keeping(v.tensor())) v.reset();
}

/// Lets other threads reach t's buffer (see Storage).
inline void share(const Tensor& t) {
  if (Storage* s = TensorAccess::storage(t)) s->share();
}

/// Lets other threads reach the buffers of v, its items included (see Storage).
void share(const Value& v);

}  // namespace ir
}  // namespace bough
