// kernels::visit<K>: the element types each set admits, and the C++ type it calls with.
#include "kernels/dispatch.h"

#include <gtest/gtest.h>

#include <string>
#include <type_traits>

#include "bough/error.h"

namespace bough::kernels {
namespace {

// The C++ type visit<K> calls with for t ("" when it rejects t as unsupported).
template <Types K>
std::string visited(ElemType t) {
  try {
    return visit<K>(t, "test", [](auto tag) -> std::string {
      using T = typename decltype(tag)::type;
      if constexpr (std::is_same_v<T, float>) return "float";
      if constexpr (std::is_same_v<T, double>) return "double";
      if constexpr (std::is_same_v<T, int32_t>) return "int32";
      if constexpr (std::is_same_v<T, bool>) return "bool";
      return "other";
    });
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Unsupported);
    return "";
  }
}

TEST(Visit, EachSetAdmitsItsTypes) {
  EXPECT_EQ(visited<Types::Float>(ElemType::Float), "float");
  EXPECT_EQ(visited<Types::Float>(ElemType::Double), "double");
  EXPECT_EQ(visited<Types::Float>(ElemType::Int32), "");
  EXPECT_EQ(visited<Types::Float>(ElemType::Float16), "");

  EXPECT_EQ(visited<Types::Numeric>(ElemType::Double), "double");
  EXPECT_EQ(visited<Types::Numeric>(ElemType::Int32), "int32");
  EXPECT_EQ(visited<Types::Numeric>(ElemType::Bool), "");

  EXPECT_EQ(visited<Types::NumericBool>(ElemType::Int32), "int32");
  EXPECT_EQ(visited<Types::NumericBool>(ElemType::Bool), "bool");
  EXPECT_EQ(visited<Types::NumericBool>(ElemType::String), "");
}

}  // namespace
}  // namespace bough::kernels
