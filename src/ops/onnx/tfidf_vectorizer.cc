// TfIdfVectorizer: for each row of X ([C] or [N, C] of int32, int64 or strings), how often
// each n-gram of a fixed pool occurs, with skips: an n-gram with skip s takes every (s+1)-th
// item. Every skip from 0 to max_skip_count is counted, except that unigrams, which skips do
// not change, are counted once. Y[ngram_indexes[i]] receives the i-th pool n-gram's count
// (TF), 1 when it occurs (IDF), or its count (TFIDF), times weights[i] in IDF and TFIDF
// (the spec ties weights to the pool's n-grams; several n-grams may share an output index,
// and then add up).
#include <algorithm>
#include <string>
#include <unordered_map>
#include <vector>

#include "ir/storage.h"
#include "ops/attr_choice.h"
#include "ops/def_from_rows.h"
#include "ops/registry.h"
#include "util/thread_pool.h"

namespace bough::ops {

namespace {
namespace tfidf_vectorizer_op {

enum class Weighting { TF, IDF, TFIDF };

// The attributes, checked against each other (the pool's tokens are read separately).
struct VectorizerAttrs {
  Weighting mode = Weighting::TF;
  int64_t min_n = 1, max_n = 1, max_skip = 0;
  bool string_pool = false;
  std::vector<int64_t> level_starts;  // ngram_counts: where the n-grams of size n + 1 start
  std::vector<int64_t> output_index;  // ngram_indexes: per pool n-gram
  std::vector<float> weights;         // per pool n-gram; empty means all 1
  int64_t width = 0;                  // max(ngram_indexes) + 1
};

const ir::Attribute* required(const NodeView& ctx, const char* name) {
  const ir::Attribute* a = ctx.attr(name);
  if (!a) ctx.invalid(std::string("TfIdfVectorizer needs the attribute ") + name);
  return a;
}

VectorizerAttrs read_attrs(const NodeView& ctx) {
  VectorizerAttrs a;
  constexpr Choice<Weighting> kModes[] = {
      {"TF", Weighting::TF}, {"IDF", Weighting::IDF}, {"TFIDF", Weighting::TFIDF}};
  a.mode = choice_of<Weighting>(ctx, "mode", required(ctx, "mode")->s, kModes);
  a.min_n = required(ctx, "min_gram_length")->i;
  a.max_n = required(ctx, "max_gram_length")->i;
  a.max_skip = required(ctx, "max_skip_count")->i;
  if (a.min_n < 1) ctx.invalid("min_gram_length must be at least 1");
  if (a.max_n < a.min_n) ctx.invalid("max_gram_length is below min_gram_length");
  if (a.max_skip < 0) ctx.invalid("max_skip_count must not be negative");

  const ir::Attribute* ints = ctx.attr("pool_int64s");
  const ir::Attribute* strings = ctx.attr("pool_strings");
  if (!ints == !strings) ctx.invalid("exactly one of pool_int64s and pool_strings must be given");
  a.string_pool = strings != nullptr;
  const auto pool_size =
      static_cast<int64_t>(strings ? strings->strings.size() : ints->ints.size());

  a.level_starts = required(ctx, "ngram_counts")->ints;
  if (a.level_starts.empty() || a.level_starts[0] != 0)
    ctx.invalid("ngram_counts must start with 0 (where the 1-grams start)");
  size_t ngrams = 0;
  for (size_t i = 0; i < a.level_starts.size(); ++i) {
    const int64_t begin = a.level_starts[i];
    const int64_t end = i + 1 < a.level_starts.size() ? a.level_starts[i + 1] : pool_size;
    const auto n = static_cast<int64_t>(i + 1);
    if (end < begin || end > pool_size)
      ctx.invalid("ngram_counts must rise and stay within the pool's " + std::to_string(pool_size) +
                  " items");
    if ((end - begin) % n != 0)
      ctx.invalid("the " + std::to_string(end - begin) + " pool items of " + std::to_string(n) +
                  "-grams are not a whole number of " + std::to_string(n) + "-grams");
    ngrams += static_cast<size_t>((end - begin) / n);
  }
  a.output_index = required(ctx, "ngram_indexes")->ints;
  if (a.output_index.size() != ngrams)
    ctx.invalid("ngram_indexes has " + std::to_string(a.output_index.size()) +
                " entries, but the pool holds " + std::to_string(ngrams) + " n-grams");
  for (int64_t i : a.output_index) {
    if (i < 0) ctx.invalid("ngram_indexes must not be negative");
    a.width = std::max(a.width, i + 1);
  }
  if (const ir::Attribute* w = ctx.attr("weights")) {
    a.weights = w->floats;
    if (a.weights.size() != ngrams)
      ctx.invalid("weights has " + std::to_string(a.weights.size()) + " entries, expected " +
                  std::to_string(ngrams) + " (one per n-gram of the pool)");
  }
  return a;
}

// The pool as a trie over token ids: the tokens the pool holds get dense ids, and each trie
// node (0 the root) is the prefix of one or more pool n-grams.
class NgramTrie {
 public:
  static constexpr int32_t kNone = -1;

  // Reads the pool of `a`'s kind from ctx; a repeated n-gram is invalid.
  NgramTrie(const NodeView& ctx, const VectorizerAttrs& a) {
    const ir::Attribute* pool = ctx.attr(a.string_pool ? "pool_strings" : "pool_int64s");
    const size_t pool_size = a.string_pool ? pool->strings.size() : pool->ints.size();
    auto token_at = [&](size_t i) {
      return a.string_pool ? intern(string_ids_, pool->strings[i])
                           : intern(int_ids_, pool->ints[i]);
    };
    int64_t ngram = 0;
    for (size_t level = 0; level < a.level_starts.size(); ++level) {
      const auto begin = static_cast<size_t>(a.level_starts[level]);
      const size_t end = level + 1 < a.level_starts.size()
                             ? static_cast<size_t>(a.level_starts[level + 1])
                             : pool_size;
      for (size_t i = begin; i < end; i += level + 1, ++ngram) {
        int32_t node = 0;
        for (size_t k = 0; k <= level; ++k) node = child_or_add(node, token_at(i + k));
        if (ngram_of_[static_cast<size_t>(node)] != -1)
          ctx.invalid("the pool holds the " + std::to_string(level + 1) + "-gram at item " +
                      std::to_string(i) + " twice");
        ngram_of_[static_cast<size_t>(node)] = ngram;
      }
    }
  }

  // The token id of an input item; kNone for items the pool does not hold.
  int32_t token(int64_t v) const { return find(int_ids_, v); }
  int32_t token(const std::string& v) const { return find(string_ids_, v); }

  // The node below `node` along `token`, or kNone.
  int32_t child(int32_t node, int32_t token) const {
    const auto it = edges_.find(edge_key(node, token));
    return it == edges_.end() ? kNone : it->second;
  }
  // The pool n-gram that ends at `node`, or -1 for a node that is only a prefix.
  int64_t ngram_at(int32_t node) const { return ngram_of_[static_cast<size_t>(node)]; }

 private:
  static uint64_t edge_key(int32_t node, int32_t token) {
    return (static_cast<uint64_t>(node) << 32) | static_cast<uint32_t>(token);
  }
  template <typename K>
  static int32_t intern(std::unordered_map<K, int32_t>& ids, const K& v) {
    return ids.try_emplace(v, static_cast<int32_t>(ids.size())).first->second;
  }
  template <typename K>
  static int32_t find(const std::unordered_map<K, int32_t>& ids, const K& v) {
    const auto it = ids.find(v);
    return it == ids.end() ? kNone : it->second;
  }
  int32_t child_or_add(int32_t node, int32_t token) {
    const auto [it, added] =
        edges_.try_emplace(edge_key(node, token), static_cast<int32_t>(ngram_of_.size()));
    if (added) ngram_of_.push_back(-1);
    return it->second;
  }

  std::unordered_map<int64_t, int32_t> int_ids_;
  std::unordered_map<std::string, int32_t> string_ids_;
  std::unordered_map<uint64_t, int32_t> edges_;
  std::vector<int64_t> ngram_of_{-1};  // per node; the root ends no n-gram
};

class TfIdfVectorizer : public Kernel {
 public:
  TfIdfVectorizer(VectorizerAttrs attrs, NgramTrie trie)
      : a_(std::move(attrs)),
        trie_(std::move(trie)),
        longest_(std::min(a_.max_n, static_cast<int64_t>(a_.level_starts.size()))) {}

  void run(KernelIO& io) override {
    const Tensor& x = io.input(0);
    const bool strings = x.type() == ElemType::String;
    if (x.type() != ElemType::Int32 && x.type() != ElemType::Int64 && !strings)
      fail(ErrorKind::BadInput, "", "TfIdfVectorizer takes int32, int64 or string input");
    if (strings != a_.string_pool)
      fail(ErrorKind::BadInput, "",
           strings ? "string input, but the pool is pool_int64s"
                   : "integer input, but the pool is pool_strings");
    if (x.rank() != 1 && x.rank() != 2)
      fail(ErrorKind::BadInput, "",
           "TfIdfVectorizer's X must be [C] or [N, C], got " + shape_string(x.shape()));
    const int64_t rows = x.rank() == 2 ? x.dim(0) : 1, cols = x.shape().back();
    Tensor& y = io.output_tensor(0);
    ir::reinit(y, ElemType::Float, x.rank() == 2 ? Dims{rows, a_.width} : Dims{a_.width});
    const int64_t work = cols * longest_ * (std::min(a_.max_skip, cols) + 1) + a_.width;
    io.pool().parallel_for(rows, util::grain_for(work), [&](int64_t b, int64_t e) {
      std::vector<int32_t> tokens(static_cast<size_t>(cols));
      std::vector<int32_t> counts(a_.output_index.size());
      std::vector<int64_t> seen;  // the n-grams counted in this row
      for (int64_t r = b; r < e; ++r) {
        for (int64_t c = 0; c < cols; ++c) tokens[static_cast<size_t>(c)] = token(x, r * cols + c);
        count_row(tokens, counts, seen);
        write_row(counts, seen, y.data<float>() + r * a_.width);
      }
    });
  }

 private:
  int32_t token(const Tensor& x, int64_t i) const {
    switch (x.type()) {
      case ElemType::Int32:
        return trie_.token(int64_t{x.data<int32_t>()[i]});
      case ElemType::Int64:
        return trie_.token(x.data<int64_t>()[i]);
      default:
        return trie_.token(x.data<std::string>()[i]);
    }
  }

  // Adds one to counts[g] for each occurrence of pool n-gram g in the row, for each skip.
  void count_row(const std::vector<int32_t>& tokens, std::vector<int32_t>& counts,
                 std::vector<int64_t>& seen) const {
    const auto cols = static_cast<int64_t>(tokens.size());
    if (a_.min_n > longest_) return;  // the pool holds no n-gram that long
    // Steps of cols or more fit no n-gram of 2 or more items (and unigrams take step 1).
    const int64_t last_step = std::min(a_.max_skip, cols) + 1;
    int64_t first_n = a_.min_n;
    for (int64_t step = 1; step <= last_step; ++step) {
      // Starts from which even the shortest n-gram would run past the row end no more.
      if ((first_n - 1) * step >= cols) break;
      for (int64_t start = 0; start + (first_n - 1) * step < cols; ++start) {
        int32_t node = 0;
        for (int64_t n = 1, at = start; n <= longest_ && at < cols; ++n, at += step) {
          const int32_t t = tokens[static_cast<size_t>(at)];
          node = t == NgramTrie::kNone ? NgramTrie::kNone : trie_.child(node, t);
          if (node == NgramTrie::kNone) break;  // no pool n-gram goes on this way
          const int64_t g = n >= first_n ? trie_.ngram_at(node) : -1;
          if (g < 0) continue;
          if (counts[static_cast<size_t>(g)]++ == 0) seen.push_back(g);
        }
      }
      // Unigrams are the same for every skip: count them at the first step only.
      if (first_n == 1 && ++first_n > longest_) break;
    }
  }

  // The output row from the counts, which it resets (with `seen`) for the next row.
  void write_row(std::vector<int32_t>& counts, std::vector<int64_t>& seen, float* out) const {
    std::fill(out, out + a_.width, 0.0f);
    for (int64_t g : seen) {
      const auto i = static_cast<size_t>(g);
      const float weight = a_.weights.empty() ? 1.0f : a_.weights[i];
      const auto count = static_cast<float>(counts[i]);
      float v = count;
      if (a_.mode == Weighting::IDF) v = weight;
      if (a_.mode == Weighting::TFIDF) v = count * weight;
      out[a_.output_index[i]] += v;
      counts[i] = 0;
    }
    seen.clear();
  }

  VectorizerAttrs a_;
  NgramTrie trie_;
  int64_t longest_;  // the longest n-gram counted: max_gram_length or the pool's longest
};

std::unique_ptr<Kernel> make(const BuildContext& ctx) {
  VectorizerAttrs attrs = read_attrs(ctx);
  NgramTrie trie(ctx, attrs);
  return std::make_unique<TfIdfVectorizer>(std::move(attrs), std::move(trie));
}

void infer(InferContext& ctx) {
  const VectorizerAttrs a = read_attrs(ctx);
  const ElemType elem = ctx.input_elem(0);
  if (elem != ElemType::Undefined && (elem == ElemType::String) != a.string_pool)
    ctx.invalid(a.string_pool ? "pool_strings needs string input"
                              : "pool_int64s needs int32 or int64 input");
  const ir::Shape& x = ctx.input_shape(0);
  if (!x.rank_known) return ctx.set_output_tensor(0, ElemType::Float, ir::Shape::unknown_rank());
  if (x.dims.size() != 1 && x.dims.size() != 2)
    ctx.invalid("X must be [C] or [N, C], not of rank " + std::to_string(x.dims.size()));
  std::vector<ir::Dim> dims;
  if (x.dims.size() == 2) dims.push_back(x.dims[0]);
  dims.push_back(ir::Dim::known(a.width));
  ctx.set_output_tensor(0, ElemType::Float, ir::Shape::of(std::move(dims)));
}

constexpr SignatureText kRows[] = {
    {9,
     "X: T -> Y: T1; T = string int32 int64, T1 = float; max_gram_length: int, "
     "max_skip_count: int, min_gram_length: int, mode: string, ngram_counts: ints, "
     "ngram_indexes: ints, pool_int64s: ints?, pool_strings: strings?, weights: floats?"}};

}  // namespace tfidf_vectorizer_op
}  // namespace

OpDef def_TfIdfVectorizer() {
  using namespace tfidf_vectorizer_op;
  return def_from_rows("", "TfIdfVectorizer", make, infer, kRows);
}

}  // namespace bough::ops
