#include "options.h"

#include <cstdlib>

namespace bough::cli {

namespace {
namespace options_op {

constexpr size_t kHelpWidth = 100;

// `text` broken at spaces into lines of at most `width` characters (a longer word stays
// whole).
std::string wrap(const std::string& text, size_t width) {
  std::string out, line;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find(' ', start);
    if (end == std::string::npos) end = text.size();
    std::string word = text.substr(start, end - start);
    if (!line.empty() && line.size() + 1 + word.size() > width) {
      out += line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
    start = end + 1;
  }
  return out + line;
}

}  // namespace options_op
}  // namespace

std::string WrappingFormatter::make_option_desc(const CLI::Option* opt) const {
  using namespace options_op;
  return wrap(Formatter::make_option_desc(opt), kHelpWidth - get_column_width());
}

std::string WrappingFormatter::make_subcommand(const CLI::App* sub) const {
  using namespace options_op;
  std::stringstream out;
  CLI::detail::format_help(out, sub->get_display_name(true),
                           wrap(sub->get_description(), kHelpWidth - get_column_width()),
                           get_column_width());
  return out.str();
}

std::string WrappingFormatter::make_description(const CLI::App* app) const {
  using namespace options_op;
  return wrap(Formatter::make_description(app), kHelpWidth);
}

CLI::Validator at_least(long long min) {
  return CLI::Validator(
      [min](std::string& text) -> std::string {
        char* end = nullptr;
        errno = 0;
        long long v = std::strtoll(text.c_str(), &end, 10);
        if (text.empty() || *end || errno) return "must be a whole number, got '" + text + "'";
        if (v < min) return "must be at least " + std::to_string(min) + ", got " + text;
        return "";
      },
      "INT>=" + std::to_string(min));
}

CLI::Validator positive_number() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        char* end = nullptr;
        double v = std::strtod(text.c_str(), &end);
        if (text.empty() || *end) return "must be a number, got '" + text + "'";
        if (!(v > 0)) return "must be above 0, got " + text;
        return "";
      },
      "NUMBER>0");
}

CLI::Validator one_of(std::vector<std::string> words) {
  std::string list;
  for (size_t i = 0; i < words.size(); ++i)
    list += (i == 0 ? "" : i + 1 == words.size() ? " or " : ", ") + words[i];
  std::string desc;
  for (const std::string& w : words) desc += (desc.empty() ? "" : "|") + w;
  return CLI::Validator(
      [words, list](std::string& text) -> std::string {
        for (const std::string& w : words)
          if (text == w) return "";
        return "must be " + list + ", got '" + text + "'";
      },
      desc);
}

CLI::Option* add_optimization_option(CLI::App* app, Optimization* level) {
  static const std::vector<std::string> kLevels = {"none", "basic", "all"};
  return app
      ->add_option_function<std::string>(
          "--optimize",
          [level](const std::string& word) {
            *level = word == "none"    ? Optimization::none
                     : word == "basic" ? Optimization::basic
                                       : Optimization::all;
          },
          "graph passes run before planning: none, basic (folding constants and constant Ifs, "
          "dead code) or all (basic and the fusions)")
      ->check(one_of(kLevels))
      ->default_str("all");
}

CLI::Option* add_newer_opset_flag(CLI::App* app, bool* allow) {
  return app->add_flag("--allow-newer-opset", *allow,
                       "accept an opset newer than bough knows, running its operators as the "
                       "newest version bough defines");
}

std::string joined(const std::vector<std::string>& items) {
  std::string text;
  for (const std::string& item : items) text += (text.empty() ? "" : ", ") + item;
  return text;
}

}  // namespace bough::cli
