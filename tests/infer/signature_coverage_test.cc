// Every schema version of every operator bough runs has its signature row (a version
// without one would be checked by arity only), so that a new operator or version cannot
// arrive without one.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "ops/registry.h"

namespace bough {
namespace {

TEST(SignatureCoverage, EveryVersionHasItsRow) {
  std::set<std::string> missing;
  for (const ops::OpDef* def : ops::all_ops()) {
    for (int v : def->versions) {
      // Parsing every row also proves each one well formed (parse_signature throws).
      if (!ops::signature_at(*def, v))
        missing.insert(std::string(def->name) + "-" + std::to_string(v));
    }
  }
  EXPECT_EQ(missing, std::set<std::string>{});
}

}  // namespace
}  // namespace bough
