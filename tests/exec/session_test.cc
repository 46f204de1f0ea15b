// Session: binding inputs (defaults, errors) and running one plan many times.
#include "bough/session.h"

#include <gtest/gtest.h>

#include "bough/error.h"
#include "model_builder.h"
#include "test_paths.h"

namespace bough {
namespace {

using test::f32;
using test::floats_of;
using test::GraphBuilder;

Session session_for(const GraphBuilder& g, const std::string& name) {
  return Session(
      Model::load(test::save_model(test::make_model(g), test::scratch_dir(name), "m.onnx")));
}

TEST(Session, InputWithDefaultValue) {
  // An initializer that is also a graph input (as before IR 4) is that input's default.
  GraphBuilder g;
  g.input("x", ElemType::Float, {2})
      .input("w", ElemType::Float, {2})
      .output("y", ElemType::Float, {2});
  g.initializer("w", f32({2}, {10, 20}));
  g.node("Add", {"x", "w"}, {"y"});
  Session s = session_for(g, "default");
  EXPECT_EQ(floats_of(s.run({{"x", f32({2}, {1, 2})}})[0].second.tensor()),
            (std::vector<float>{11, 22}));
  EXPECT_EQ(floats_of(s.run({{"x", f32({2}, {1, 2})}, {"w", f32({2}, {0, 0})}})[0].second.tensor()),
            (std::vector<float>{1, 2}));
}

TEST(Session, BadInputsAreErrors) {
  GraphBuilder g;
  g.input("x", ElemType::Float, {2}).output("y", ElemType::Float, {2});
  g.node("Neg", {"x"}, {"y"});
  Session s = session_for(g, "bad_inputs");
  auto kind_of = [&](const NamedValues& in) {
    try {
      s.run(in);
    } catch (const Error& e) {
      return e.kind();
    }
    return ErrorKind::IO;  // no error: fails the expectations below
  };
  EXPECT_EQ(kind_of({}), ErrorKind::BadInput);  // missing
  EXPECT_EQ(kind_of({{"x", f32({2}, {1, 2})}, {"z", f32({1}, {0})}}),
            ErrorKind::BadInput);                                            // unknown
  EXPECT_EQ(kind_of({{"x", test::i64({2}, {1, 2})}}), ErrorKind::BadInput);  // element type
  EXPECT_EQ(kind_of({{"x", f32({3}, {1, 2, 3})}}), ErrorKind::BadInput);     // shape
  // The session is still usable after errors.
  EXPECT_EQ(floats_of(s.run({{"x", f32({2}, {1, 2})}})[0].second.tensor()),
            (std::vector<float>{-1, -2}));
}

TEST(Session, OutputThatIsAnInputOrAConstantIsShared) {
  GraphBuilder g;
  g.input("x", ElemType::Float, {1})
      .output("x", ElemType::Float, {1})
      .output("c", ElemType::Float, {1});
  g.initializer("c", f32({1}, {5}));
  Session s = session_for(g, "passthrough");
  for (int i = 0; i < 2; ++i) {  // the constant survives being returned
    auto out = s.run({{"x", f32({1}, {3})}});
    EXPECT_EQ(out[0].second.tensor().data<float>()[0], 3);
    EXPECT_EQ(out[1].second.tensor().data<float>()[0], 5);
  }
}

// Identity takes no step: its output shares the input's slot. Chains, outputs listed
// through several names, and Identity of a constant must all still give their values.
TEST(Session, IdentityChainsAndAliasedOutputs) {
  GraphBuilder g;
  g.input("x", ElemType::Float, {2})
      .output("a", ElemType::Float, {2})
      .output("b", ElemType::Float, {2})
      .output("n", ElemType::Float, {2})
      .output("m", ElemType::Float, {2})
      .output("k", ElemType::Float, {1});
  g.initializer("c", f32({1}, {7}));
  g.node("Identity", {"x"}, {"a"});
  g.node("Identity", {"a"}, {"b"});
  g.node("Neg", {"b"}, {"n"});
  g.node("Identity", {"n"}, {"m"});
  g.node("Identity", {"c"}, {"k"});
  Session s = session_for(g, "identity_alias");
  for (int i = 0; i < 2; ++i) {
    const Tensor x = f32({2}, {1, 2});
    auto out = s.run({{"x", x}});
    EXPECT_EQ(floats_of(out[0].second.tensor()), (std::vector<float>{1, 2}));
    EXPECT_EQ(floats_of(out[1].second.tensor()), (std::vector<float>{1, 2}));
    EXPECT_EQ(floats_of(out[2].second.tensor()), (std::vector<float>{-1, -2}));
    EXPECT_EQ(floats_of(out[3].second.tensor()), (std::vector<float>{-1, -2}));
    EXPECT_EQ(floats_of(out[4].second.tensor()), (std::vector<float>{7}));
    out[2].second.tensor().data<float>()[0] = 100;  // n and m are one buffer, not x's
    EXPECT_EQ(floats_of(x), (std::vector<float>{1, 2}));
  }
}

}  // namespace
}  // namespace bough
