// Option helpers shared by the subcommands: validators whose messages name the option, the
// bad value and the reason ("--iters: must be at least 1, got 0").
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "bough/session.h"

namespace bough::cli {

// Help text with the descriptions of commands and options wrapped to fit 100 columns.
class WrappingFormatter : public CLI::Formatter {
 public:
  std::string make_option_desc(const CLI::Option* opt) const override;
  std::string make_subcommand(const CLI::App* sub) const override;
  std::string make_description(const CLI::App* app) const override;
};

// A whole number of at least `min`.
CLI::Validator at_least(long long min);
// A number (not necessarily whole) above zero.
CLI::Validator positive_number();
// One of `words`.
CLI::Validator one_of(std::vector<std::string> words);
// --optimize LEVEL: none, basic or all.
CLI::Option* add_optimization_option(CLI::App* app, Optimization* level);
// --allow-newer-opset.
CLI::Option* add_newer_opset_flag(CLI::App* app, bool* allow);
// `items` with ", " between them, for the lists in messages.
std::string joined(const std::vector<std::string>& items);

}  // namespace bough::cli
