// TfIdfVectorizer on pools whose skip-gram counts are worked out by hand, its three
// weighting modes, string and integer input, and the attributes it refuses.
#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <vector>

#include "bough/error.h"
#include "model_builder.h"

namespace bough {
namespace {

using test::i64;

struct Vectorizer {
  std::string mode = "TF";
  int64_t min_n = 1, max_n = 2, max_skip = 0;
  test::Dims64 counts, indexes, pool_ints;
  std::vector<std::string> pool_strings;
  std::vector<float> weights;
  bool both_pools = false;  // give pool_strings beside pool_int64s (invalid)

  test::Attrs attrs() const {
    return [c = *this](onnxpb::NodeProto& n) {
      test::set_string(n, "mode", c.mode);
      test::set_int(n, "min_gram_length", c.min_n);
      test::set_int(n, "max_gram_length", c.max_n);
      test::set_int(n, "max_skip_count", c.max_skip);
      test::set_ints(n, "ngram_counts", c.counts);
      test::set_ints(n, "ngram_indexes", c.indexes);
      if (!c.pool_ints.empty()) test::set_ints(n, "pool_int64s", c.pool_ints);
      if (!c.pool_strings.empty() || c.both_pools)
        test::set_strings(n, "pool_strings",
                          c.pool_strings.empty() ? std::vector<std::string>{"a"} : c.pool_strings);
      if (!c.weights.empty()) test::set_floats(n, "weights", c.weights);
    };
  }
  Tensor run(const Tensor& x, const std::string& dir) const {
    return test::run_node("TfIdfVectorizer", {{"x", x}}, 1, attrs(), 9, dir)[0];
  }
};

// Unigrams 1 and 2; bigrams (1 2), (1 3), (2 2); output i for pool n-gram i.
Vectorizer small_pool() {
  Vectorizer v;
  v.counts = {0, 2};
  v.indexes = {0, 1, 2, 3, 4};
  v.pool_ints = {1, 2, 1, 2, 1, 3, 2, 2};
  return v;
}

Tensor strings(const Dims& dims, std::vector<std::string> values) {
  Tensor t(ElemType::String, dims);
  for (size_t i = 0; i < values.size(); ++i) t.strings()[i] = values[i];
  return t;
}

TEST(TfIdfVectorizer, SkipGramsCountedByHand) {
  // X = 1 2 1 3 2. Unigrams, counted once whatever the skips: 1 twice, 2 twice.
  // Skip 0 pairs: (1 2) (2 1) (1 3) (3 2). Skip 1 pairs: (1 1) (2 3) (1 2).
  // Skip 2 pairs: (1 3) (2 2). Skip 3 pair: (1 2).
  const Tensor x = i64({5}, {1, 2, 1, 3, 2});
  Vectorizer v = small_pool();
  v.max_skip = 0;  // (1 2) once, (1 3) once
  EXPECT_EQ(test::floats_of(v.run(x, "tfidf_skip0")), (std::vector<float>{2, 2, 1, 1, 0}));
  v.max_skip = 1;  // (1 2) once more
  EXPECT_EQ(test::floats_of(v.run(x, "tfidf_skip1")), (std::vector<float>{2, 2, 2, 1, 0}));
  v.max_skip = 2;  // (1 3) and (2 2) once more
  EXPECT_EQ(test::floats_of(v.run(x, "tfidf_skip2")), (std::vector<float>{2, 2, 2, 2, 1}));
  v.max_skip = 1000;  // (1 2) once more at skip 3; no pair is further apart
  EXPECT_EQ(test::floats_of(v.run(x, "tfidf_skip1000")), (std::vector<float>{2, 2, 3, 2, 1}));
  // Limits far beyond the row and the pool count the same.
  v.max_skip = std::numeric_limits<int64_t>::max();
  v.max_n = std::numeric_limits<int64_t>::max();
  EXPECT_EQ(test::floats_of(v.run(x, "tfidf_skip_max")), (std::vector<float>{2, 2, 3, 2, 1}));
  v.max_n = 2;
  // Only bigrams: the unigram entries stay 0.
  v.min_n = 2;
  v.max_skip = 2;  // as at skip 2 above, without the unigrams
  EXPECT_EQ(test::floats_of(v.run(x, "tfidf_bigrams")), (std::vector<float>{0, 0, 2, 2, 1}));
  // Only n-grams longer than any in the pool: nothing.
  v.min_n = 3;
  v.max_n = 7;
  EXPECT_EQ(test::floats_of(v.run(x, "tfidf_too_long")), std::vector<float>(5, 0.0f));
}

TEST(TfIdfVectorizer, Int32InputCountsAsInt64) {
  Tensor x(ElemType::Int32, Dims{5});
  const std::vector<int32_t> values{1, 2, 1, 3, 2};
  std::copy(values.begin(), values.end(), x.data<int32_t>());
  Vectorizer v = small_pool();
  v.max_skip = 2;
  EXPECT_EQ(test::floats_of(v.run(x, "tfidf_int32")), (std::vector<float>{2, 2, 2, 2, 1}));
}

TEST(TfIdfVectorizer, ModesWeightPoolNgramsPerRow) {
  // Row 0 as above with skip 1: counts per pool n-gram (1) 2, (2) 2, (1 2) 2, (1 3) 1,
  // (2 2) 0. Row 1 holds nothing of the pool. The outputs are in reverse pool order.
  const Tensor x = i64({2, 5}, {1, 2, 1, 3, 2, 3, 3, 3, 3, 3});
  Vectorizer v = small_pool();
  v.max_skip = 1;
  v.indexes = {4, 3, 2, 1, 0};
  v.weights = {0.5f, 2, 3, 10, 100};
  const Tensor tf = v.run(x, "tfidf_mode_tf");  // weights play no part
  EXPECT_EQ(tf.shape(), (Dims{2, 5}));
  EXPECT_EQ(test::floats_of(tf), (std::vector<float>{0, 1, 2, 2, 2, 0, 0, 0, 0, 0}));
  v.mode = "IDF";  // each n-gram found: its weight
  EXPECT_EQ(test::floats_of(v.run(x, "tfidf_mode_idf")),
            (std::vector<float>{0, 10, 3, 2, 0.5f, 0, 0, 0, 0, 0}));
  v.mode = "TFIDF";  // count times weight: 2 * 0.5, 2 * 2, 2 * 3, 1 * 10
  EXPECT_EQ(test::floats_of(v.run(x, "tfidf_mode_tfidf")),
            (std::vector<float>{0, 10, 6, 4, 1, 0, 0, 0, 0, 0}));
  v.weights.clear();  // IDF without weights: 1 for each n-gram found
  v.mode = "IDF";
  EXPECT_EQ(test::floats_of(v.run(x, "tfidf_mode_idf1")),
            (std::vector<float>{0, 1, 1, 1, 1, 0, 0, 0, 0, 0}));
}

TEST(TfIdfVectorizer, StringTrigramsWithSkipsAndGaps) {
  // X = a b c a b c. Bigrams and trigrams (min 2, so the unigram a is not counted).
  // Skip 0: (a b) at 0 and 3, (b c) at 1 and 4, (a b c) at 0 and 3.
  // Skip 1: pairs (a c) (b a) (c b) (a c); triples (a c b) at 0, (b a c) at 1.
  Vectorizer v;
  v.min_n = 2;
  v.max_n = 3;
  v.max_skip = 1;
  v.counts = {0, 1, 5};
  v.pool_strings = {"a", "a", "b", "b", "c", "a", "b", "c", "a", "c", "b"};
  v.indexes = {0, 1, 2, 3, 7};  // width 8, outputs 4 to 6 unused
  const Tensor y = v.run(strings({6}, {"a", "b", "c", "a", "b", "c"}), "tfidf_strings");
  EXPECT_EQ(y.shape(), (Dims{8}));
  EXPECT_EQ(test::floats_of(y), (std::vector<float>{0, 2, 2, 2, 0, 0, 0, 1}));
  // The same pool on 2-D input, and on rows of no items.
  const Tensor rows = v.run(strings({2, 3}, {"a", "b", "c", "c", "b", "a"}), "tfidf_strings_rows");
  EXPECT_EQ(test::floats_of(rows),
            (std::vector<float>{0, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}));
  const Tensor empty = v.run(Tensor(ElemType::String, Dims{3, 0}), "tfidf_strings_empty");
  EXPECT_EQ(empty.shape(), (Dims{3, 8}));
  EXPECT_EQ(test::floats_of(empty), std::vector<float>(24, 0.0f));
}

TEST(TfIdfVectorizer, RefusesAttributesThatDisagree) {
  const Tensor x = i64({5}, {1, 2, 1, 3, 2});
  auto refused = [&](const Vectorizer& v, const std::string& dir, const std::string& says) {
    try {
      v.run(x, dir);
      ADD_FAILURE() << dir << ": no error";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::InvalidModel) << e.what();
      const std::string what = e.what();
      EXPECT_NE(what.find(says), std::string::npos) << what;
      EXPECT_NE(what.find("m.onnx"), std::string::npos) << what;  // the model's path
    }
  };
  Vectorizer v = small_pool();
  v.mode = "BM25";
  refused(v, "tfidf_bad_mode", "mode");
  v = small_pool();
  v.both_pools = true;
  refused(v, "tfidf_bad_pools", "exactly one of pool_int64s and pool_strings");
  v = small_pool();
  v.counts = {0, 3};  // 5 items left for bigrams
  v.indexes = {0, 1, 2, 3};
  refused(v, "tfidf_bad_level", "whole number of 2-grams");
  v = small_pool();
  v.counts = {1, 2};
  refused(v, "tfidf_bad_start", "ngram_counts must start with 0");
  v = small_pool();
  v.indexes = {0, 1, 2, 3};
  refused(v, "tfidf_bad_indexes", "ngram_indexes has 4 entries, but the pool holds 5");
  v = small_pool();
  v.weights = {1, 2};
  refused(v, "tfidf_bad_weights", "weights has 2 entries");
  v = small_pool();
  v.min_n = 3;
  refused(v, "tfidf_bad_lengths", "max_gram_length is below min_gram_length");
  v = small_pool();
  v.pool_ints = {1, 2, 1, 2, 1, 3, 1, 2};  // (1 2) twice
  refused(v, "tfidf_bad_duplicate", "twice");
  v = small_pool();
  v.pool_ints.clear();
  v.pool_strings = {"1", "2", "1", "2", "1", "3", "2", "2"};
  refused(v, "tfidf_bad_input_type", "pool_strings needs string input");
}

}  // namespace
}  // namespace bough
