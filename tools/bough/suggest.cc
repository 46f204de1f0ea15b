#include "suggest.h"

#include <algorithm>

namespace bough::cli {

namespace {
namespace suggest_op {

// Optimal string alignment distance: insertions, deletions, substitutions and swaps of two
// neighbouring characters.
size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i)
    for (size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min(
          {d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

}  // namespace suggest_op
}  // namespace

std::string closest(const std::string& word, const std::vector<std::string>& candidates) {
  using namespace suggest_op;
  if (word.empty()) return "";
  std::string best;
  size_t best_distance = std::min<size_t>(2, (word.size() - 1) / 2);
  for (const std::string& c : candidates) {
    const size_t distance = edit_distance(word, c);
    if (distance <= best_distance && (best.empty() || distance < best_distance)) {
      best = c;
      best_distance = distance;
    }
  }
  return best;
}

std::string did_you_mean(const std::string& word, const std::vector<std::string>& candidates) {
  const std::string best = closest(word, candidates);
  return best.empty() ? "" : " (did you mean '" + best + "'?)";
}

}  // namespace bough::cli
