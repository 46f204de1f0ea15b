// Expecting an error by what it says: the tests of operators' bad inputs share this.
#pragma once

#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "bough/error.h"

namespace bough::test {

// Runs `fn` and expects it to throw a bough::Error whose message holds `text` and, when
// `kind` is given, of that kind (a gtest failure otherwise).
template <typename F>
void expect_error_mentioning(F&& fn, const std::string& text,
                             std::optional<ErrorKind> kind = std::nullopt) {
  try {
    fn();
    ADD_FAILURE() << "no error; expected one mentioning '" << text << "'";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << e.what();
    if (kind) {
      EXPECT_EQ(e.kind(), *kind) << e.what();
    }
  }
}

}  // namespace bough::test
