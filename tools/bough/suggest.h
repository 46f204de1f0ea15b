// The closest of a list of names to a mistyped one, for "did you mean" hints.
#pragma once

#include <string>
#include <vector>

namespace bough::cli {

// The candidate closest to `word` by edit distance (a swap of two neighbouring characters
// counting as one edit), if it is at most 2 edits away and fewer than half of `word`'s
// characters; "" otherwise. The first of equally close candidates wins.
std::string closest(const std::string& word, const std::vector<std::string>& candidates);

// " (did you mean 'X'?)" for the closest candidate, or "".
std::string did_you_mean(const std::string& word, const std::vector<std::string>& candidates);

}  // namespace bough::cli
