// Mistakes on the command line get the closest name as a hint: a mistyped option or command,
// a --dim or --input naming nothing the model has. closest() against distances worked out by
// hand.
#include <gtest/gtest.h>

#include "bough/suggest.h"
#include "model_builder.h"
#include "test_paths.h"
#include "tools/cli_util.h"

namespace bough::cli {
namespace {

TEST(Suggest, ClosestWithinTwoEditsAndLessThanHalfTheWord) {
  const std::vector<std::string> options = {"--threads", "--iters", "--input", "--dim"};
  EXPECT_EQ(closest("--thread", options), "--threads");  // one deletion
  EXPECT_EQ(closest("--itres", options), "--iters");     // one swap
  EXPECT_EQ(closest("--ipnut", options), "--input");     // one swap
  EXPECT_EQ(closest("--dims", options), "--dim");        // one insertion
  EXPECT_EQ(closest("--thrads", options), "--threads");  // one deletion
  EXPECT_EQ(closest("--trheds", options), "--threads");  // a swap and a deletion: 2
  EXPECT_EQ(closest("--bogus", options), "");
  EXPECT_EQ(closest("", options), "");
  // "ab" is 1 edit from "a" but that is half the word: no hint.
  EXPECT_EQ(closest("ab", {"a"}), "");
  EXPECT_EQ(closest("abc", {"abd"}), "abd");
  // Equally close: the first.
  EXPECT_EQ(closest("rnu", {"run", "rnn"}), "run");
  EXPECT_EQ(did_you_mean("bnech", {"info", "bench"}), " (did you mean 'bench'?)");
  EXPECT_EQ(did_you_mean("frobnicate", {"info", "bench"}), "");
}

struct Case {
  std::string args;
  int code;
  std::string message;
};

TEST(Suggest, TheCommandLineNamesTheClosest) {
  const std::string dir = test::scratch_dir("cli_suggest");
  test::GraphBuilder g;
  g.input("x", ElemType::Float, {-1, 2});
  g.output("y", ElemType::Float, {-1, 2});
  g.node("Relu", {"x"}, {"y"}, "relu");
  auto* dim = g.mutable_proto()
                  .mutable_input(0)
                  ->mutable_type()
                  ->mutable_tensor_type()
                  ->mutable_shape()
                  ->mutable_dim(0);
  dim->set_dim_param("batch");
  const std::string model =
      test::shell_quoted(test::save_model(test::make_model(g), dir, "m.onnx"));
  for (const Case& c : std::vector<Case>{
           {"bench " + model + " --thread 2", 2,
            "(did you mean '--threads'?)\n(`bough bench --help` lists the options)"},
           {"bench " + model + " --itres=3", 2, "(did you mean '--iters'?)"},
           {"run " + model + " --dims batch=2", 2, "(did you mean '--dim'?)"},
           {"bnech " + model, 2,
            "no command named 'bnech' (did you mean 'bench'?) (`bough help` "
            "lists them)"},
           {"frobnicate", 2, "no command named 'frobnicate' (`bough help` lists them)"},
           {"bench " + model + " --iters 1 --dim bacth=2", 2,
            "--dim: the model's inputs have no dimension named 'bacth' (theirs: batch) (did you "
            "mean 'batch'?)"},
           {"bench " + test::shell_quoted(test::add_model(dir)) + " --dim batch=2", 2,
            "--dim: the model's inputs have no dimension named 'batch' (they have none)"},
           {"bench " + model + " --iters 1 -i xx=@random", 2,
            "--input: the model has no input 'xx' (its inputs: x)"},
       }) {
    std::string out;
    EXPECT_EQ(test::run_cli(c.args, &out), c.code) << c.args << "\n" << out;
    EXPECT_NE(out.find(c.message), std::string::npos) << c.args << "\n" << out;
  }
}

}  // namespace
}  // namespace bough::cli
