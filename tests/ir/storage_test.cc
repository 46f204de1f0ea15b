// The buffers behind tensors (Storage in src/ir/storage.h, Tensor in include/bough/tensor.h,
// src/ir/storage.cc): reference counts, the per-thread pool of small size classes, the
// cache of large blocks, ir::reinit reusing a buffer only when nobody else holds it,
// views keeping their buffer alive, and string buffers. Buffer identity is observed by
// address: a pooled block comes back for the next request of its size class.
#include "ir/storage.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "bough/tensor.h"
#include "ir/memory_limit.h"
#include "reference.h"

namespace bough {
namespace {

// Releases a raw Storage made by allocate (the owner of a count of one).
void drop(Storage* s) { s->release(); }

// Runs fn() with this thread's free list for the size class of `bytes` empty, so that what
// fn releases is what that class hands out next whatever earlier tests left in the pool. A
// list keeps at most 64 blocks; holding 100 buffers of the class takes them all.
template <typename F>
void with_empty_class(size_t bytes, F fn) {
  std::vector<Storage*> held;
  for (int i = 0; i < 100; ++i) held.push_back(Storage::allocate(bytes));
  fn();
  for (Storage* s : held) drop(s);
}

// Data starts 64-byte aligned, for sizes in each class and beyond.
TEST(Storage, DataIsAligned) {
  for (size_t bytes : {size_t{0}, size_t{1}, size_t{63}, size_t{64}, size_t{65}, size_t{1000},
                       size_t{8192}, size_t{8193}, size_t{3} << 20}) {
    Storage* s = Storage::allocate(bytes);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(s->bytes()) % 64, 0u) << bytes;
    EXPECT_EQ(s->size(), bytes);
    std::memset(s->bytes(), 0xAB, bytes);  // the whole size is writable (ASan checks)
    drop(s);
  }
}

// A released small buffer is handed out again for the next request of the same
// power-of-two class (65..128 bytes here), and not for a request of another class.
TEST(Storage, SmallBuffersComeBackFromTheirSizeClass) {
  with_empty_class(100, [] {
    Storage* a = Storage::allocate(100);
    uint8_t* block = a->bytes();
    drop(a);
    Storage* b = Storage::allocate(120);  // same class
    EXPECT_EQ(b->bytes(), block);
    EXPECT_EQ(b->size(), 120u);
    EXPECT_TRUE(b->unique());  // the count starts again at one
    drop(b);
    Storage* c = Storage::allocate(200);  // the next class up: a different block
    EXPECT_NE(c->bytes(), block);
    Storage* d = Storage::allocate(65);  // the first block is still there for this one
    EXPECT_EQ(d->bytes(), block);
    drop(c);
    drop(d);
  });
}

// Each class boundary: the largest size of a class and the smallest of the next do not
// share a block, and a block is big enough for the largest request of its class.
TEST(Storage, SizeClassBoundaries) {
  for (size_t top : {size_t{64}, size_t{128}, size_t{256}, size_t{512}, size_t{1024}, size_t{2048},
                     size_t{4096}}) {
    with_empty_class(top, [top] {
      Storage* low = Storage::allocate(top);
      std::memset(low->bytes(), 1, top);
      uint8_t* block = low->bytes();
      drop(low);
      Storage* high = Storage::allocate(top + 1);
      EXPECT_NE(high->bytes(), block) << top + 1 << " bytes came from the class of " << top;
      std::memset(high->bytes(), 2, top + 1);
      drop(high);
      Storage* again = Storage::allocate(top / 2 + 1);
      EXPECT_EQ(again->bytes(), block) << top / 2 + 1 << " bytes should use the class of " << top;
      drop(again);
    });
  }
}

// Failures of a check run in a child process, reported on its stderr.
int child_failures = 0;
void child_expect(bool ok, const char* what) {
  if (ok) return;
  std::fprintf(stderr, "failed: %s\n", what);
  ++child_failures;
}

// A block (over 8 KiB) is kept after release and handed out again for a request of the
// same rounded size (64 KiB steps), but not for a different one.
void check_large_block_cache() {
  const size_t big = (size_t{5} << 20) + 12345;
  Storage* a = Storage::allocate(big);
  uint8_t* block = a->bytes();
  drop(a);
  Storage* other = Storage::allocate(big + (size_t{128} << 10));  // another rounded size
  child_expect(other->bytes() != block, "a block of another size came from the cache");
  Storage* b = Storage::allocate(big + 1000);  // same 64 KiB step
  child_expect(b->bytes() == block, "the released block of the same size was not reused");
  child_expect(b->unique(), "a cached block starts with one reference");
  drop(b);
  drop(other);
  // Taken out of the cache once: a second request of that size gets another block.
  Storage* c = Storage::allocate(big);
  Storage* d = Storage::allocate(big);
  child_expect(c->bytes() != d->bytes(), "one cached block was handed out twice");
  drop(c);
  drop(d);
  std::exit(child_failures);
}

// A run that frees a buffer before it makes a larger one holds one buffer at a time but
// cycles through both sizes, and the next run asks for both again: the cache must keep
// both. (Bounded also by the most memory held at once, it pushed the first out, and every
// run of small_cnn mapped its buffers anew.)
void check_cache_keeps_every_size_a_run_cycles_through() {
  const size_t small = size_t{2} << 20, large = size_t{3} << 20;
  drop(Storage::allocate(small));
  drop(Storage::allocate(large));
  child_expect(ir::buffer_cache_bytes() >= small + large,
               "the cache does not hold both sizes the run went through");
  std::exit(child_failures);
}

TEST(Storage, CacheKeepsEverySizeARunCyclesThrough) {
  const std::string style = GTEST_FLAG_GET(death_test_style);
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(check_cache_keeps_every_size_a_run_cycles_through(), ::testing::ExitedWithCode(0),
              "");
  GTEST_FLAG_SET(death_test_style, style);
}

// The cache is the process's, bounded by its limit and filled by earlier
// tests, so the check runs in a fresh process: the "threadsafe" death-test style starts this
// binary again for this test alone.
TEST(Storage, LargeBlocksAreCachedBySize) {
  const std::string style = GTEST_FLAG_GET(death_test_style);
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(check_large_block_cache(), ::testing::ExitedWithCode(0), "");
  GTEST_FLAG_SET(death_test_style, style);
}

// Copies share the buffer and count it; the last one to go frees it.
TEST(Storage, CopiesShareAndCount) {
  Tensor a(ElemType::Float, Dims{4});
  EXPECT_TRUE(a.unique());
  {
    Tensor b = a;
    EXPECT_FALSE(a.unique());
    EXPECT_EQ(b.raw(), a.raw());
    Tensor c;
    c = b;
    Tensor d = std::move(c);
    EXPECT_FALSE(c.defined());
    EXPECT_FALSE(d.unique());
  }
  EXPECT_TRUE(a.unique());
  Tensor self = a;
  const Tensor& same = self;  // through a reference, which compilers do not warn about
  self = same;                // self-assignment keeps the count
  self = Tensor();
  EXPECT_TRUE(a.unique());
}

// reinit keeps the buffer when the type and shape match and nothing else holds it, and
// otherwise makes a new one, leaving the other holder's data alone. A Loop body overwrites
// its outputs this way: writing into a shared buffer would change a value still in use.
TEST(Storage, ReinitReusesOnlyAnUnsharedBuffer) {
  Tensor t(ElemType::Int32, Dims{3});
  for (int i = 0; i < 3; ++i) t.data<int32_t>()[i] = i;
  const void* mine = t.raw();
  ir::reinit(t, ElemType::Int32, Dims{3});
  EXPECT_EQ(t.raw(), mine);  // unique, same type and shape: kept

  const Tensor held = t;
  ir::reinit(t, ElemType::Int32, Dims{3});
  EXPECT_NE(t.raw(), held.raw());  // shared: a new buffer
  t.data<int32_t>()[0] = 99;
  EXPECT_EQ(held.data<int32_t>()[0], 0);
  EXPECT_TRUE(held.unique());

  ir::reinit(t, ElemType::Int32, Dims{1, 3});  // another shape
  EXPECT_EQ(t.shape(), (Dims{1, 3}));
  ir::reinit(t, ElemType::Float, Dims{1, 3});  // another type
  EXPECT_EQ(t.type(), ElemType::Float);

  Tensor empty;
  ir::reinit(empty, ElemType::Int64, Dims{2});  // no buffer yet
  ASSERT_TRUE(empty.defined());
  EXPECT_EQ(empty.shape(), (Dims{2}));
}

// A view (a Scan slice, select along axis 0) keeps its whole buffer alive after the tensor
// it came from is gone, and reinit of a view never writes into the parent buffer.
TEST(Storage, ViewsKeepTheBufferAlive) {
  Tensor view;
  with_empty_class(128, [&] {
    const void* parent_block;
    {
      Tensor parent =
          test::tensor_of<int32_t>(ElemType::Int32, Dims{4, 8}, [](int64_t i) { return i; });
      parent_block = parent.raw();
      view = parent.view(8, Dims{2, 8});  // rows 1 and 2
      EXPECT_FALSE(parent.unique());
    }
    EXPECT_TRUE(view.unique());
    // Were the buffer freed, this allocation of the same class would get it and overwrite it.
    Tensor other(ElemType::Int32, Dims{4, 8});
    std::memset(other.raw(), 0xFF, other.nbytes());
    EXPECT_NE(other.raw(), parent_block);
    for (int64_t i = 0; i < 16; ++i) ASSERT_EQ(view.data<int32_t>()[i], 8 + i);
  });

  // reinit of a view at an offset makes a fresh buffer even though the view is unique.
  const void* at = view.raw();
  ir::reinit(view, ElemType::Int32, Dims{2, 8});
  EXPECT_NE(view.raw(), at);
  // reshaped() shares the buffer like a view.
  Tensor flat = view.reshaped(Dims{16});
  EXPECT_EQ(flat.raw(), view.raw());
  EXPECT_FALSE(view.unique());
}

// String buffers hold constructed std::strings: new ones are empty even when the block was
// a number buffer full of garbage before, copies share them, clone copies them, and their
// destructors run when the buffer goes (ASan's leak check sees heap strings that leak).
TEST(Storage, StringBuffers) {
  Tensor s;
  with_empty_class(32 * sizeof(std::string), [&] {
    {
      Tensor junk(ElemType::UInt8, Dims{32 * static_cast<int64_t>(sizeof(std::string))});
      std::memset(junk.raw(), 0xFF, junk.nbytes());
    }                                        // its block is back in the pool, garbage and all
    s = Tensor(ElemType::String, Dims{32});  // in that block
  });
  for (int64_t i = 0; i < 32; ++i) ASSERT_TRUE(s.strings()[i].empty()) << i;
  for (int64_t i = 0; i < 32; ++i)
    s.strings()[i] = std::string(50, static_cast<char>('a' + i % 26));
  const Tensor copy = s;
  EXPECT_EQ(copy.strings(), s.strings());
  const Tensor deep = s.clone();
  EXPECT_NE(deep.strings(), s.strings());
  s.strings()[0] = "changed";
  EXPECT_EQ(deep.strings()[0], std::string(50, 'a'));
  EXPECT_EQ(copy.strings()[0], "changed");
  const Tensor tail = deep.view(30, Dims{2});  // string views count in strings
  EXPECT_EQ(tail.strings()[0], std::string(50, static_cast<char>('a' + 30 % 26)));
  // reinit of a unique string tensor of the same shape keeps the old values (documented).
  Tensor r(ElemType::String, Dims{2});
  r.strings()[0] = "kept";
  ir::reinit(r, ElemType::String, Dims{2});
  EXPECT_EQ(r.strings()[0], "kept");
  // A string block reused for numbers, and numbers for strings, in a loop.
  for (int round = 0; round < 100; ++round) {
    Tensor a(ElemType::String, Dims{3});
    a.strings()[1] = std::string(100, 'x');
    Tensor b(ElemType::Int64, Dims{12});
    std::memset(b.raw(), 0xEE, b.nbytes());
  }
}

// Buffers move between threads: made on one, released on another (into that thread's
// pool), and released after the thread that made them has exited (its pool is gone).
TEST(Storage, BuffersCrossThreads) {
  std::vector<Tensor> made;
  std::thread maker([&] {
    for (int i = 0; i < 200; ++i)
      made.push_back(test::tensor_of<int32_t>(ElemType::Int32, Dims{i % 50 + 1},
                                              [&](int64_t k) { return i + k; }));
    Tensor s(ElemType::String, Dims{2});
    s.strings()[0] = std::string(64, 's');
    made.push_back(s);
  });
  maker.join();  // the maker's pool is gone; its buffers live on here
  for (int i = 0; i < 200; ++i) ASSERT_EQ(made[static_cast<size_t>(i)].data<int32_t>()[0], i);
  std::vector<Tensor> mine;
  for (int i = 0; i < 100; ++i) mine.push_back(Tensor(ElemType::Float, Dims{i + 1}));
  std::thread releaser([&] {
    made.clear();
    mine.clear();
    Tensor after(ElemType::Float, Dims{10});  // the releaser's own pool serves it
    EXPECT_TRUE(after.unique());
  });
  releaser.join();
  Tensor fresh(ElemType::Float, Dims{10});
  EXPECT_TRUE(fresh.unique());
}

}  // namespace
}  // namespace bough
