#include "bough/tensor.h"

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <utility>
#include <vector>

#include "bough/error.h"
#include "ir/float_formats.h"

namespace bough {

// ---- Dims -------------------------------------------------------------------------------

void Dims::grow(size_t n) {
  auto* grown = new int64_t[n];
  std::memcpy(grown, data(), size_ * sizeof(int64_t));
  delete[] heap_;
  heap_ = grown;
  capacity_ = n;
}

void Dims::resize(size_t n, int64_t fill) {
  if (n > capacity_) grow(n);
  for (size_t i = size_; i < n; ++i) data()[i] = fill;
  size_ = n;
}

void Dims::insert(size_t pos, int64_t d) {
  resize(size_ + 1);
  int64_t* p = data();
  for (size_t i = size_ - 1; i > pos; --i) p[i] = p[i - 1];
  p[pos] = d;
}

void Dims::erase(size_t pos) {
  int64_t* p = data();
  for (size_t i = pos; i + 1 < size_; ++i) p[i] = p[i + 1];
  --size_;
}


// ---- Storage ----------------------------------------------------------------------------
//
// Small buffers come from per-thread free lists, one per power-of-two size class, so the
// many tiny tensors of a control-flow loop (counters, conditions, f32[4] states) cost no
// malloc. The header sits in the same block, and data starts 64-byte aligned.

namespace {

constexpr size_t kHeader = 64;
static_assert(sizeof(Storage) <= kHeader);
constexpr int kClasses = 8;  // 64 B .. 8 KiB of payload
constexpr size_t kClassBytes[kClasses] = {64, 128, 256, 512, 1024, 2048, 4096, 8192};
constexpr int kMaxCached = 64;

struct FreeList {
  void* blocks[kClasses][kMaxCached];
  int count[kClasses] = {};
  ~FreeList() {
    for (int c = 0; c < kClasses; ++c)
      for (int i = 0; i < count[c]; ++i) std::free(blocks[c][i]);
  }
};

// The list lives in a thread_local object with a destructor; a plain thread_local pointer
// to it keeps the hot path free of the TLS init-guard call.
thread_local FreeList* cached_list = nullptr;

FreeList& make_free_list() {
  thread_local FreeList list;
  cached_list = &list;
  return list;
}

inline FreeList& free_list() { return cached_list ? *cached_list : make_free_list(); }

int size_class(size_t bytes) {
  for (int c = 0; c < kClasses; ++c)
    if (bytes <= kClassBytes[c]) return c;
  return -1;
}

// Large buffers are kept after release, up to kLargeCacheBytes in all, and handed out
// again for a request of the same rounded size: a model run repeatedly then touches no
// fresh pages (a fresh 128 MiB buffer costs some 30,000 page faults per run).
constexpr size_t kLargeBytes = size_t{1} << 20;
constexpr size_t kLargeCacheBytes = size_t{1} << 30;
constexpr size_t kLargeCacheEntries = 16;

class LargeBlockCache {
 public:
  ~LargeBlockCache() {
    for (auto& [bytes, block] : blocks_) std::free(block);
  }
  void* take(size_t bytes) {
    std::lock_guard lock(mutex_);
    for (size_t i = 0; i < blocks_.size(); ++i) {
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
    if (total_ + bytes > kLargeCacheBytes || blocks_.size() >= kLargeCacheEntries) return false;
    blocks_.emplace_back(bytes, block);
    total_ += bytes;
    return true;
  }

 private:
  std::mutex mutex_;
  std::vector<std::pair<size_t, void*>> blocks_;
  size_t total_ = 0;
};

LargeBlockCache& large_cache() {
  static LargeBlockCache cache;
  return cache;
}

// Bytes to allocate for a payload of `bytes`: the size class, or 64 KiB steps when large.
size_t block_bytes(size_t bytes, int cls) {
  if (cls >= 0) return kHeader + kClassBytes[cls];
  size_t step = bytes >= kLargeBytes ? (size_t{64} << 10) : 64;
  return kHeader + (bytes + step - 1) / step * step;
}

void* allocate_block(size_t block, int cls) {
  if (cls >= 0) {
    FreeList& list = free_list();
    if (list.count[cls] > 0) return list.blocks[cls][--list.count[cls]];
  } else if (block >= kLargeBytes) {
    if (void* cached = large_cache().take(block)) return cached;
  }
  void* p = std::aligned_alloc(64, block);
  if (!p) throw std::bad_alloc();
  return p;
}

}  // namespace

Storage* Storage::allocate(size_t bytes) {
  int cls = size_class(bytes);
  size_t total = block_bytes(bytes, cls);
  void* block = allocate_block(total, cls);
  auto* s = new (block) Storage();
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

void Storage::release() {
  // A sole owner needs no atomic read-modify-write: nobody else can reach this buffer.
  if (refs_.load(std::memory_order_acquire) != 1 &&
      refs_.fetch_sub(1, std::memory_order_acq_rel) != 1)
    return;
  for (size_t i = 0; i < string_count_; ++i) strings()[i].~basic_string();
  int cls = size_class_;
  size_t total = block_bytes_;
  this->~Storage();
  void* block = this;
  if (cls >= 0) {
    FreeList& list = free_list();
    if (list.count[cls] < kMaxCached) {
      list.blocks[cls][list.count[cls]++] = block;
      return;
    }
  } else if (total >= kLargeBytes && large_cache().put(total, block)) {
    return;
  }
  std::free(block);
}

// ---- Tensor -----------------------------------------------------------------------------

namespace {

[[noreturn, gnu::cold]] void bad_shape(const Dims& shape) {
  for (int64_t d : shape)
    if (d < 0) fail(ErrorKind::BadInput, "", "negative dimension in shape " + shape_string(shape));
  fail(ErrorKind::BadInput, "", "tensor of shape " + shape_string(shape) + " is too large");
}

// Guards against negative dims and element counts that overflow or cannot be allocated.
inline void check_shape(const Dims& shape) {
  constexpr int64_t kMaxElements = int64_t{1} << 40;
  int64_t n = 1;
  for (int64_t d : shape)
    if (d < 0 || __builtin_mul_overflow(n, d, &n)) bad_shape(shape);
  if (n > kMaxElements) bad_shape(shape);
}

}  // namespace

Tensor::Tensor(ElemType type, Dims shape) : type_(type), shape_(std::move(shape)) {
  check_shape(shape_);
  auto n = static_cast<size_t>(shape_.numel());
  storage_ = type == ElemType::String ? Storage::allocate_strings(n)
                                      : Storage::allocate(elem_storage_bytes(type, n));
}

Tensor Tensor::zeros(ElemType type, Dims shape) {
  Tensor t(type, std::move(shape));
  if (type != ElemType::String) std::memset(t.raw(), 0, t.nbytes());
  return t;
}

Tensor Tensor::scalar_bool(bool v) {
  Tensor t(ElemType::Bool, {});
  *t.data<bool>() = v;
  return t;
}

Tensor Tensor::scalar_i64(int64_t v) {
  Tensor t(ElemType::Int64, {});
  *t.data<int64_t>() = v;
  return t;
}

void Tensor::swap(Tensor& other) noexcept {
  std::swap(type_, other.type_);
  std::swap(shape_, other.shape_);
  std::swap(storage_, other.storage_);
  std::swap(offset_, other.offset_);
}

Tensor Tensor::reshaped(Dims shape) const {
  if (shape.numel() != numel())
    fail(ErrorKind::BadInput, "", "cannot view " + shape_string(shape_) + " as " + shape_string(shape));
  Tensor t(*this);
  t.shape_ = std::move(shape);
  return t;
}

Tensor Tensor::view(int64_t first, Dims shape) const {
  Tensor t(*this);
  t.shape_ = std::move(shape);
  t.offset_ += type_ == ElemType::String ? static_cast<size_t>(first)
                                         : static_cast<size_t>(first) * (elem_bits(type_) / 8);
  return t;
}

Tensor Tensor::clone() const {
  Tensor t(type_, shape_);
  if (type_ == ElemType::String) {
    for (int64_t i = 0; i < numel(); ++i) t.strings()[i] = strings()[i];
  } else if (nbytes()) {
    std::memcpy(t.raw(), raw(), nbytes());
  }
  return t;
}

double Tensor::get_double(int64_t i) const {
  switch (type_) {
    case ElemType::Float: return data<float>()[i];
    case ElemType::Double: return data<double>()[i];
    case ElemType::Float16: return half_to_float(data<uint16_t>()[i]);
    case ElemType::BFloat16: return bfloat16_to_float(data<uint16_t>()[i]);
    case ElemType::Float8E4M3FN:
    case ElemType::Float8E4M3FNUZ:
    case ElemType::Float8E5M2:
    case ElemType::Float8E5M2FNUZ: return float8_to_float(type_, data<uint8_t>()[i]);
    case ElemType::Float8E8M0: return e8m0_to_float(data<uint8_t>()[i]);
    case ElemType::Float4E2M1: return float4e2m1_to_float(get_packed(data<uint8_t>(), i, 4));
    case ElemType::UInt64: return static_cast<double>(data<uint64_t>()[i]);
    default: return static_cast<double>(get_int(i));
  }
}

int64_t Tensor::get_int(int64_t i) const {
  switch (type_) {
    case ElemType::Bool: return data<bool>()[i];
    case ElemType::UInt8: return data<uint8_t>()[i];
    case ElemType::Int8: return data<int8_t>()[i];
    case ElemType::UInt16: return data<uint16_t>()[i];
    case ElemType::Int16: return data<int16_t>()[i];
    case ElemType::Int32: return data<int32_t>()[i];
    case ElemType::Int64: return data<int64_t>()[i];
    case ElemType::UInt32: return data<uint32_t>()[i];
    case ElemType::UInt64: return static_cast<int64_t>(data<uint64_t>()[i]);
    case ElemType::UInt4: return get_packed(data<uint8_t>(), i, 4);
    case ElemType::Int4: return sign_extend(get_packed(data<uint8_t>(), i, 4), 4);
    case ElemType::UInt2: return get_packed(data<uint8_t>(), i, 2);
    case ElemType::Int2: return sign_extend(get_packed(data<uint8_t>(), i, 2), 2);
    default:
      if (is_float_type(type_)) return static_cast<int64_t>(get_double(i));
      fail(ErrorKind::Unsupported, "", std::string("no integer value for type ") +
                                           std::string(elem_name(type_)));
  }
}

// ---- Value ------------------------------------------------------------------------------

Value Value::sequence(ElemType elem, std::vector<Value> items) {
  Value v;
  v.kind_ = Kind::Sequence;
  v.seq_ = std::make_shared<const SequenceValue>(SequenceValue{elem, std::move(items)});
  return v;
}

std::string shape_string(std::span<const int64_t> dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i) s += (i ? "," : "") + std::to_string(dims[i]);
  return s + "]";
}

std::string describe(const Value& v) {
  switch (v.kind()) {
    case Value::Kind::None: return "optional(none)";
    case Value::Kind::Tensor:
      return "tensor(" + std::string(elem_name(v.tensor().type())) + ")" +
             shape_string(v.tensor().shape());
    case Value::Kind::Sequence:
      return "seq(tensor(" + std::string(elem_name(v.seq().elem)) + "))[" +
             std::to_string(v.seq().items.size()) + " items]";
  }
  return "?";
}

}  // namespace bough
