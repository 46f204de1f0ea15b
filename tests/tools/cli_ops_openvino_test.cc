// `bough ops --openvino`: the OpenVINO operators of the mapping table, each with the
// versions bough reads and writes.
#include <gtest/gtest.h>

#include <sstream>

#include "formats/openvino/op_table.h"
#include "test_paths.h"

namespace bough {
namespace {

// The row of `type` in the listing, with its columns' spaces collapsed.
std::string row_of(const std::string& listing, const std::string& type) {
  std::istringstream in(listing);
  for (std::string line; std::getline(in, line);) {
    std::istringstream words(line);
    std::string first, rest, w;
    words >> first;
    if (first != type) continue;
    while (words >> w) rest += (rest.empty() ? "" : " ") + w;
    return rest;
  }
  return "(missing)";
}

TEST(CliOpsOpenVino, ListsEveryOperatorOfTheTableWithItsVersions) {
  std::string out;
  ASSERT_EQ(test::run_cli("ops --openvino", &out), 0) << out;
  // reads, then writes ("-" for none)
  EXPECT_EQ(row_of(out, "MaxPool"), "1, 8, 14 1, 8, 14");
  EXPECT_EQ(row_of(out, "Gelu"), "2, 7 7");
  EXPECT_EQ(row_of(out, "ShuffleChannels"), "1 -");
  EXPECT_EQ(row_of(out, "LSTMSequence"), "5 5");
  size_t rows = 0;
  for (char c : out) rows += c == '\n';
  EXPECT_EQ(rows, openvino::openvino_op_support().size() + 1);  // and the heading
  std::string json;
  ASSERT_EQ(test::run_cli("ops --openvino --json", &json), 0) << json;
  EXPECT_NE(json.find(R"({"name": "Gelu", "reads": [2, 7], "writes": [7]})"), std::string::npos)
      << json;
}

}  // namespace
}  // namespace bough
