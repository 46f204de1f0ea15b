// The operator registry agrees with the source tree: every operator defined in a source
// file is listed in the op_list.inc of its layer (src/ops/ or src/exec/control/; a forgotten
// line silently drops the operator), and every OpDef is well formed.
#include "ops/registry.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>

#include "test_paths.h"

namespace bough::ops {
namespace {

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// A cursor over source text for the two patterns below. (Not std::regex: GCC 12 warns
// falsely inside it under the sanitizers, and it is slow.)
struct Cursor {
  const std::string& text;
  size_t at;
  void spaces() {
    while (at < text.size() && std::isspace(static_cast<unsigned char>(text[at]))) ++at;
  }
  bool take(std::string_view token) {  // after optional spaces
    spaces();
    if (text.compare(at, token.size(), token) != 0) return false;
    at += token.size();
    return true;
  }
  std::string name() {  // an identifier, right here
    const size_t start = at;
    while (at < text.size() &&
           (std::isalnum(static_cast<unsigned char>(text[at])) || text[at] == '_'))
      ++at;
    return text.substr(start, at - start);
  }
};

// Every `OpDef def_<Name>() {` definition in the .cc and .h files under src/ (spaces and
// line breaks anywhere between the tokens), with the file that defines it. Declarations
// (`def_X();`) are not definitions and are skipped.
std::map<std::string, std::string> defined_in_source() {
  std::map<std::string, std::string> found;
  const std::filesystem::path src = std::filesystem::path(test::source_dir()) / "src";
  for (const auto& entry : std::filesystem::recursive_directory_iterator(src)) {
    const std::string ext = entry.path().extension().string();
    if (!entry.is_regular_file() || (ext != ".cc" && ext != ".h")) continue;
    const std::string text = read_text(entry.path());
    for (size_t at = text.find("OpDef"); at != std::string::npos; at = text.find("OpDef", at + 1)) {
      Cursor c{text, at + 5};
      if (!c.take("def_")) continue;
      const std::string name = c.name();
      if (!name.empty() && c.take("(") && c.take(")") && c.take("{"))
        found.emplace(name, std::filesystem::relative(entry.path(), src).string());
    }
  }
  return found;
}

// The names of the BOUGH_OP(<Name>) lines of src/<folder>/op_list.inc, in file order.
std::vector<std::string> listed_in_op_list(const std::string& folder) {
  const std::string text =
      read_text(std::filesystem::path(test::source_dir()) / "src" / folder / "op_list.inc");
  std::vector<std::string> names;
  std::istringstream lines(text);
  for (std::string l; std::getline(lines, l);) {
    Cursor c{l, 0};
    if (!c.take("BOUGH_OP(")) continue;
    const std::string name = c.name();
    if (!name.empty() && c.take(")")) names.push_back(name);
  }
  return names;
}

// The scan itself finds definitions wherever they live: in src/ops/<domain>/ and in
// src/exec/control/ (If, Loop, Scan, SequenceMap), so a broken pattern cannot pass
// vacuously.
TEST(Registry, SourceScanFindsOperatorsInEveryPlace) {
  const auto defs = defined_in_source();
  EXPECT_GT(defs.size(), 150u);
  for (const char* name : {"Add", "If", "Loop", "Scan", "SequenceMap", "MlTreeEnsemble"})
    EXPECT_TRUE(defs.count(name)) << name;
  EXPECT_EQ(defs.at("If").rfind("exec/control/", 0), 0u) << defs.at("If");
  EXPECT_EQ(defs.count("ScatterElements"), 1u);
}

// Each operator defined in source is listed in op_list.inc, and each listed name is
// defined (the second half is also enforced by the linker). The template file
// (TEMPLATE.cc.txt) is not a source file and is not scanned.
TEST(Registry, EveryDefinedOperatorIsListed) {
  const auto defs = defined_in_source();
  std::vector<std::string> listed = listed_in_op_list("ops");
  for (const std::string& name : listed_in_op_list("exec/control")) listed.push_back(name);
  const std::set<std::string> listed_set(listed.begin(), listed.end());
  for (const auto& [name, file] : defs)
    EXPECT_TRUE(listed_set.count(name))
        << "src/" << file << " defines def_" << name << "() but no op_list.inc has a "
        << "BOUGH_OP(" << name << ") line, so the operator is never registered";
  for (const std::string& name : listed)
    EXPECT_TRUE(defs.count(name)) << "op_list.inc lists " << name << ", no source defines it";
  EXPECT_EQ(listed.size(), listed_set.size()) << "op_list.inc lists an operator twice";
  EXPECT_EQ(all_ops().size(), listed.size());
}

// Each layer lists only what it defines: ops/ knows nothing of the operators of
// exec/control, which register themselves (exec/operators.h; the tests' main registers
// them, as the CLI's and a Session do).
TEST(Registry, EachLayerListsItsOwnOperators) {
  const auto defs = defined_in_source();
  for (const std::string folder : {"ops", "exec/control"})
    for (const std::string& name : listed_in_op_list(folder)) {
      ASSERT_TRUE(defs.count(name)) << name;
      EXPECT_EQ(defs.at(name).rfind(folder + "/", 0), 0u)
          << "src/" << folder << "/op_list.inc lists " << name << ", defined in src/"
          << defs.at(name);
    }
  EXPECT_EQ(listed_in_op_list("exec/control").size(), 7u);  // If, Loop, Scan and four more
  ASSERT_NE(find_op("", "If"), nullptr);
  EXPECT_EQ(find_op("", "If")->name, "If");
}

// Registering again changes nothing: an operator already known keeps its definition, even
// against another definition of the same (domain, name).
TEST(Registry, RegisteringAgainKeepsTheTable) {
  const size_t before = all_ops().size();
  const OpDef* if_def = find_op("", "If");
  static const OpDef again[] = {*if_def, *find_op("", "Add")};  // the registry may keep them
  register_ops(again);
  EXPECT_EQ(all_ops().size(), before);
  EXPECT_EQ(find_op("", "If"), if_def);
}

// Each listed operator is reachable by its (domain, name), which is unique.
TEST(Registry, DomainAndNameAreUniqueAndFindable) {
  std::set<std::pair<std::string_view, std::string_view>> seen;
  for (const OpDef* def : all_ops()) {
    EXPECT_TRUE(seen.emplace(def->domain, def->name).second)
        << "(\"" << def->domain << "\", " << def->name << ") is registered twice";
    EXPECT_EQ(find_op(def->domain, def->name), def) << def->name;
  }
  EXPECT_EQ(find_op("ai.onnx", "Add"), find_op("", "Add"));  // the two spellings of ai.onnx
  EXPECT_EQ(find_op("", "NoSuchOp"), nullptr);
}

// The definitions are well formed: at least one schema version, versions strictly
// ascending (the planner picks the last one <= the model's opset), arities consistent,
// and a kernel factory.
TEST(Registry, DefinitionsAreWellFormed) {
  for (const OpDef* def : all_ops()) {
    SCOPED_TRACE(std::string(def->domain) + "::" + std::string(def->name));
    EXPECT_FALSE(def->name.empty());
    ASSERT_FALSE(def->versions.empty());
    EXPECT_GE(def->versions.front(), 1);
    EXPECT_TRUE(std::adjacent_find(def->versions.begin(), def->versions.end(),
                                   [](int a, int b) { return a >= b; }) == def->versions.end())
        << "versions do not ascend strictly";
    EXPECT_GE(def->min_inputs, 0);
    EXPECT_LE(def->min_inputs, def->max_inputs);
    EXPECT_GE(def->min_outputs, 0);
    EXPECT_LE(def->min_outputs, def->max_outputs);
    EXPECT_NE(def->make, nullptr);
  }
}

}  // namespace
}  // namespace bough::ops
