#include "ir/storage.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdlib>
#include <mutex>
#include <new>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "bough/error.h"
#include "ir/memory_limit.h"

// The buffers behind tensors: reference counted, and pooled so that running a model again
// and again allocates little.
namespace bough {

// Small buffers come from per-thread free lists, one per power-of-two size class, so the
// many tiny tensors of a control-flow loop (counters, conditions, f32[4] states) cost no
// malloc. The header sits in the same block, and data starts 64-byte aligned.

namespace {

constexpr size_t kHeader = 64;
static_assert(sizeof(Storage) <= kHeader);
static_assert(std::is_trivially_destructible_v<Storage>);  // blocks are freed without it
constexpr int kClasses = 8;                                // 64 B .. 8 KiB of payload
constexpr size_t kClassBytes[kClasses] = {64, 128, 256, 512, 1024, 2048, 4096, 8192};
static_assert(kClassBytes[kClasses - 1] == kClassBytes[0] << (kClasses - 1));  // powers of two
constexpr int kMaxCached = 64;

// The list lives in a thread_local object with a destructor; a plain thread_local pointer
// to it keeps the hot path free of the TLS init-guard call. Once the thread's list is gone
// (thread exit), buffers released later go straight back to malloc.
struct FreeList;
thread_local FreeList* cached_list = nullptr;
thread_local bool list_gone = false;

struct FreeList {
  void* blocks[kClasses][kMaxCached];
  int count[kClasses] = {};
  ~FreeList() {
    for (int c = 0; c < kClasses; ++c)
      for (int i = 0; i < count[c]; ++i) std::free(blocks[c][i]);
    cached_list = nullptr;
    list_gone = true;
  }
};

// This thread's list, made on first use; null after thread exit.
FreeList* free_list() {
  if (!cached_list && !list_gone) {
    thread_local FreeList list;
    cached_list = &list;
  }
  return cached_list;
}

int size_class(size_t bytes) {
  if (bytes <= kClassBytes[0]) return 0;
  int c = std::bit_width(bytes - 1) - 6;  // 65..128 -> 1, 129..256 -> 2, ...
  return c < kClasses ? c : -1;
}

// Buffers outside the size classes are kept after release and handed out again for a
// request of the same block size: a model run repeatedly then touches no fresh pages (a
// fresh 128 MiB buffer costs some 30,000 page faults per run) and calls no allocator. The
// cache holds at most the bytes of the limit (ir::set_buffer_cache_limit) in at most
// kCacheEntries blocks; a block that would not fit pushes out the oldest ones (sizes a run
// no longer asks for, as a growing KV cache leaves behind). It must hold every size a run
// cycles through, which is more than the run holds at once: bounded by the most held at
// once (tried), small_cnn's blocks were pushed out and mapped anew on every run (240 page
// faults and twice the time per run).
constexpr size_t kCacheEntries = 64;

// Bytes in blocks outside the size classes that are handed out, and this thread's limit on
// them (0: none); see ir/memory_limit.h.
std::atomic<size_t> held_bytes{0};
thread_local size_t held_limit = 0;

class BlockCache {
 public:
  ~BlockCache() {
    for (auto& [bytes, block] : blocks_) std::free(block);
  }
  void* take(size_t bytes) {
    std::lock_guard lock(mutex_);
    for (size_t i = blocks_.size(); i-- > 0;) {
      if (blocks_[i].first != bytes) continue;
      void* block = blocks_[i].second;
      total_ -= bytes;
      blocks_.erase(blocks_.begin() + static_cast<std::ptrdiff_t>(i));
      return block;
    }
    return nullptr;
  }
  bool put(size_t bytes, void* block) {
    std::lock_guard lock(mutex_);
    if (bytes > limit_) return false;
    while (!blocks_.empty() && (total_ + bytes > limit_ || blocks_.size() >= kCacheEntries))
      evict_oldest();
    blocks_.emplace_back(bytes, block);
    total_ += bytes;
    return true;
  }
  void set_limit(size_t limit) {
    std::lock_guard lock(mutex_);
    limit_ = limit;
    while (total_ > limit_) evict_oldest();
  }
  size_t bytes() {
    std::lock_guard lock(mutex_);
    return total_;
  }
  void free_all() {
    std::lock_guard lock(mutex_);
    while (!blocks_.empty()) evict_oldest();
  }

 private:
  void evict_oldest() {
    total_ -= blocks_.front().first;
    std::free(blocks_.front().second);
    blocks_.erase(blocks_.begin());
  }
  std::mutex mutex_;
  std::vector<std::pair<size_t, void*>> blocks_;  // oldest first
  size_t total_ = 0;
  size_t limit_ = size_t{1} << 30;
};

BlockCache& block_cache() {
  static BlockCache cache;
  return cache;
}

// Bytes to allocate for a payload of `bytes`: the size class, or 64 KiB steps from 1 MiB up
// (so that a slightly different size still finds a cached block).
constexpr size_t kLargeBytes = size_t{1} << 20;
size_t block_bytes(size_t bytes, int cls) {
  if (cls >= 0) return kHeader + kClassBytes[cls];
  size_t step = bytes >= kLargeBytes ? (size_t{64} << 10) : 64;
  return kHeader + (bytes + step - 1) / step * step;
}

void charge(size_t block) {
  const size_t now = held_bytes.fetch_add(block, std::memory_order_relaxed) + block;
  if (held_limit && now > held_limit) {
    held_bytes.fetch_sub(block, std::memory_order_relaxed);
    fail(ErrorKind::Stopped, "",
         "allocating " + std::to_string(block) + " bytes would take the tensor memory held past " +
             "the session's limit of " + std::to_string(held_limit) + " bytes");
  }
}

// The machine's memory: no tensor larger than it can ever be used.
size_t physical_memory_bytes() {
  static const size_t bytes =
      static_cast<size_t>(sysconf(_SC_PHYS_PAGES)) * static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return bytes;
}

void* allocate_block(size_t block, int cls) {
  if (cls < 0) {
    if (void* cached = block_cache().take(block)) return cached;
  }
  // bough's own message, not std::bad_alloc's: a shape from a file or a command line may ask
  // for more than the machine has. A block past the machine's memory is refused before
  // asking (ASan's allocator ends the process on such a request instead of failing it).
  void* p = block <= physical_memory_bytes() ? std::aligned_alloc(64, block) : nullptr;
  if (!p)
    fail(ErrorKind::BadInput, "",
         "out of memory: a tensor of " + std::to_string(block) + " bytes cannot be allocated");
  return p;
}

}  // namespace

// The hot paths (a small buffer from or back to this thread's free list) stay free of calls
// so that they need no stack frame. A block in a free list keeps its live Storage header:
// the size class, block size and data pointer stay valid and are not written again.
Storage* Storage::allocate(size_t bytes) {
  if (bytes <= kClassBytes[kClasses - 1] && cached_list) {
    FreeList& list = *cached_list;
    const int cls = size_class(bytes);
    if (list.count[cls] > 0) {
      auto* s = static_cast<Storage*>(list.blocks[cls][--list.count[cls]]);
      s->refs_.store(1, std::memory_order_relaxed);
      s->run_local_ = plain_counts;
      s->size_ = bytes;
      return s;
    }
  }
  return allocate_new(bytes);
}

Storage* Storage::allocate_new(size_t bytes) {
  int cls = size_class(bytes);
  size_t total = block_bytes(bytes, cls);
  if (cls < 0) charge(total);
  void* block;
  try {
    block = allocate_block(total, cls);
  } catch (...) {
    if (cls < 0) held_bytes.fetch_sub(total, std::memory_order_relaxed);
    throw;
  }
  auto* s = new (block) Storage();
  s->run_local_ = plain_counts;
  s->size_class_ = cls;
  s->block_bytes_ = total;
  s->size_ = bytes;
  s->data_ = static_cast<uint8_t*>(block) + kHeader;
  return s;
}

Storage* Storage::allocate_strings(size_t count) {
  Storage* s = allocate(count * sizeof(std::string));
  for (size_t i = 0; i < count; ++i) new (s->strings() + i) std::string();
  s->string_count_ = count;
  s->size_ = count;
  return s;
}

Storage* Storage::wrap(void* data, size_t bytes, void (*on_release)(void*), void* context) {
  auto* s = new Storage();
  s->run_local_ = plain_counts;
  s->wrapped_ = true;
  s->size_ = bytes;
  s->data_ = static_cast<uint8_t*>(data);
  s->on_release_ = on_release;
  s->release_context_ = context;
  return s;
}

void Storage::destroy() {
  if (string_count_ == 0 && size_class_ >= 0 && cached_list) {
    FreeList& list = *cached_list;
    if (list.count[size_class_] < kMaxCached) {
      list.blocks[size_class_][list.count[size_class_]++] = this;
      return;
    }
  }
  destroy_slow();
}

void Storage::destroy_slow() {
  if (wrapped_) {
    void (*on_release)(void*) = on_release_;
    void* context = release_context_;
    delete this;
    if (on_release) on_release(context);
    return;
  }
  for (size_t i = 0; i < string_count_; ++i) strings()[i].~basic_string();
  string_count_ = 0;
  const int cls = size_class_;
  if (FreeList* list = cls >= 0 ? free_list() : nullptr; list && list->count[cls] < kMaxCached) {
    list->blocks[cls][list->count[cls]++] = this;
    return;
  }
  const size_t total = block_bytes_;
  if (cls < 0) held_bytes.fetch_sub(total, std::memory_order_relaxed);
  this->~Storage();
  void* block = this;
  if (cls < 0 && block_cache().put(total, block)) return;
  std::free(block);
}

namespace ir {

MemoryLimitScope::MemoryLimitScope(size_t limit) : previous_(held_limit) { held_limit = limit; }
MemoryLimitScope::~MemoryLimitScope() { held_limit = previous_; }
size_t held_tensor_bytes() { return held_bytes.load(std::memory_order_relaxed); }
void set_buffer_cache_limit(size_t bytes) { block_cache().set_limit(bytes); }
size_t buffer_cache_bytes() { return block_cache().bytes(); }
void free_cached_buffers() { block_cache().free_all(); }

}  // namespace ir

// Out of line, so that the public header need not show Storage: one call per copy and per
// release of a tensor that holds a buffer.
void Tensor::retain(Storage* storage) { storage->retain(); }
void Tensor::release(Storage* storage) { storage->release(); }
bool Tensor::unique() const { return storage_ && storage_->unique(); }

void ir::share(const Value& v) {
  share(v.tensor());
  if (v.is_sequence())
    for (const Value& item : v.seq().items) share(item);
}

}  // namespace bough
