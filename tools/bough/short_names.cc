#include "short_names.h"

#include <algorithm>
#include <set>
#include <utility>
#include <vector>

namespace bough::cli {

namespace {
namespace short_names_op {

void collect_names(const ir::Graph& g, std::set<std::string>* names) {
  for (const auto& e : g.edges()) names->insert(e->name);
  for (const auto& n : g.nodes)
    for (const auto& a : n->attributes) {
      if (a.g) collect_names(*a.g, names);
      for (const auto& sub : a.graphs) collect_names(*sub, names);
    }
}

void replace_all(std::string* text, const std::string& from, const std::string& to) {
  for (size_t at = text->find(from); at != std::string::npos; at = text->find(from, at + to.size()))
    text->replace(at, from.size(), to);
}

}  // namespace short_names_op
}  // namespace

std::string shorten_names(const std::string& text, const ir::Model& model) {
  using namespace short_names_op;
  std::set<std::string> names;
  if (model.graph) collect_names(*model.graph, &names);
  for (const auto& f : model.functions)
    if (f->body) collect_names(*f->body, &names);
  // The long names the text shows, by first appearance.
  std::vector<std::pair<size_t, std::string>> shown;
  for (const std::string& name : names)
    if (name.size() > kLongName)
      if (size_t at = text.find("%" + name); at != std::string::npos) shown.emplace_back(at, name);
  if (shown.empty()) return text;
  std::sort(shown.begin(), shown.end());
  // Aliases skip numbers a real value is named after (`~3` is unlikely, but possible).
  std::vector<std::pair<std::string, std::string>> aliases;  // full name, alias
  int next = 1;
  std::string legend = "names\n";
  for (const auto& [at, name] : shown) {
    std::string alias;
    do alias = "~" + std::to_string(next++);
    while (names.count(alias));
    aliases.emplace_back(name, alias);
    legend += "  %" + alias + " = " + name + "\n";
  }
  // Longest first: a long name may begin with another one.
  std::stable_sort(aliases.begin(), aliases.end(),
                   [](const auto& a, const auto& b) { return a.first.size() > b.first.size(); });
  std::string out = text;
  for (const auto& [name, alias] : aliases) replace_all(&out, "%" + name, "%" + alias);
  return out + legend;
}

}  // namespace bough::cli
