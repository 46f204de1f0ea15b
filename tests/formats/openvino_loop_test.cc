// OpenVINO Loop-5: back edges become loop-carried values, the current-iteration Parameter
// is ONNX's iteration count, the execution_condition Result is the body's condition, and
// concatenated outputs are ONNX scan outputs reshaped to OpenVINO's layout. The layout of
// the XML follows OpenVINO's own IR reader tests (ReadLoopNetwork_2 in
// src/inference/tests/functional/ngraph_reader/loop.cpp of openvinotoolkit/openvino).
// Expected values are worked out by hand in the comments.
#include <gtest/gtest.h>

#include "bough/error.h"
#include "formats/openvino_test_util.h"
#include "model_builder.h"
#include "test_paths.h"

namespace bough {
namespace {

using test::f32;
using test::floats_of;

// trip count -1 (no limit), execution condition true; a_init [2] carried as `a`.
// Body: a_next = a + float(i); cond_out = i < 2; a_next unsqueezed on axis 0 ([1, 2]) is
// concatenated on axis 0, and unsqueezed on axis 1 ([2, 1]) is concatenated on axis 1.
// .bin: 0: -1 (i64), 8: 2 (i64), 16: [0] (i64), 24: [1] (i64), 32: true (boolean).
const char* kLoop = R"(<?xml version="1.0"?>
<net name="loop" version="11">
  <layers>
    <layer id="0" name="trip" type="Const" version="opset1">
      <data element_type="i64" shape="" offset="0" size="8"/>
      <output><port id="0" precision="I64"/></output>
    </layer>
    <layer id="1" name="go" type="Const" version="opset1">
      <data element_type="boolean" shape="" offset="32" size="1"/>
      <output><port id="0" precision="BOOL"/></output>
    </layer>
    <layer id="2" name="a_init" type="Parameter" version="opset1">
      <data element_type="f32" shape="2"/>
      <output><port id="0" precision="FP32" names="a_init"><dim>2</dim></port></output>
    </layer>
    <layer id="3" name="loop" type="Loop" version="opset5">
      <input><port id="0"/><port id="1"/><port id="2"><dim>2</dim></port></input>
      <output>
        <port id="3" precision="FP32" names="a_final"><dim>2</dim></port>
        <port id="4" precision="FP32" names="rows"><dim>-1</dim><dim>2</dim></port>
        <port id="5" precision="FP32" names="cols"><dim>2</dim><dim>-1</dim></port>
      </output>
      <port_map>
        <input external_port_id="2" internal_layer_id="0"/>
        <input external_port_id="-1" internal_layer_id="1" purpose="current_iteration"/>
        <output external_port_id="-1" internal_layer_id="7" purpose="execution_condition"/>
        <output external_port_id="3" internal_layer_id="5"/>
        <output external_port_id="4" internal_layer_id="10" axis="0"/>
        <output external_port_id="5" internal_layer_id="13" axis="-1"/>
      </port_map>
      <back_edges><edge from-layer="5" to-layer="0"/></back_edges>
      <body>
        <layers>
          <layer id="0" name="a" type="Parameter" version="opset1">
            <data element_type="f32" shape="2"/>
            <output><port id="0" precision="FP32"><dim>2</dim></port></output>
          </layer>
          <layer id="1" name="i" type="Parameter" version="opset1">
            <data element_type="i64" shape=""/>
            <output><port id="0" precision="I64"/></output>
          </layer>
          <layer id="2" name="i_f" type="Convert" version="opset1">
            <data destination_type="f32"/>
            <input><port id="0"/></input>
            <output><port id="1" precision="FP32"/></output>
          </layer>
          <layer id="3" name="a_next" type="Add" version="opset1">
            <input><port id="0"><dim>2</dim></port><port id="1"/></input>
            <output><port id="2" precision="FP32"><dim>2</dim></port></output>
          </layer>
          <layer id="5" name="a_out" type="Result" version="opset1">
            <input><port id="0"><dim>2</dim></port></input>
          </layer>
          <layer id="4" name="limit" type="Const" version="opset1">
            <data element_type="i64" shape="" offset="8" size="8"/>
            <output><port id="0" precision="I64"/></output>
          </layer>
          <layer id="6" name="more" type="Less" version="opset1">
            <input><port id="0"/><port id="1"/></input>
            <output><port id="2" precision="BOOL"/></output>
          </layer>
          <layer id="7" name="cond_out" type="Result" version="opset1">
            <input><port id="0"/></input>
          </layer>
          <layer id="8" name="axis0" type="Const" version="opset1">
            <data element_type="i64" shape="1" offset="16" size="8"/>
            <output><port id="0" precision="I64"><dim>1</dim></port></output>
          </layer>
          <layer id="9" name="row" type="Unsqueeze" version="opset1">
            <input><port id="0"><dim>2</dim></port><port id="1"><dim>1</dim></port></input>
            <output><port id="2" precision="FP32"><dim>1</dim><dim>2</dim></port></output>
          </layer>
          <layer id="10" name="row_out" type="Result" version="opset1">
            <input><port id="0"><dim>1</dim><dim>2</dim></port></input>
          </layer>
          <layer id="11" name="axis1" type="Const" version="opset1">
            <data element_type="i64" shape="1" offset="24" size="8"/>
            <output><port id="0" precision="I64"><dim>1</dim></port></output>
          </layer>
          <layer id="12" name="col" type="Unsqueeze" version="opset1">
            <input><port id="0"><dim>2</dim></port><port id="1"><dim>1</dim></port></input>
            <output><port id="2" precision="FP32"><dim>2</dim><dim>1</dim></port></output>
          </layer>
          <layer id="13" name="col_out" type="Result" version="opset1">
            <input><port id="0"><dim>2</dim><dim>1</dim></port></input>
          </layer>
        </layers>
        <edges>
          <edge from-layer="1" from-port="0" to-layer="2" to-port="0"/>
          <edge from-layer="0" from-port="0" to-layer="3" to-port="0"/>
          <edge from-layer="2" from-port="1" to-layer="3" to-port="1"/>
          <edge from-layer="3" from-port="2" to-layer="5" to-port="0"/>
          <edge from-layer="1" from-port="0" to-layer="6" to-port="0"/>
          <edge from-layer="4" from-port="0" to-layer="6" to-port="1"/>
          <edge from-layer="6" from-port="2" to-layer="7" to-port="0"/>
          <edge from-layer="3" from-port="2" to-layer="9" to-port="0"/>
          <edge from-layer="8" from-port="0" to-layer="9" to-port="1"/>
          <edge from-layer="9" from-port="2" to-layer="10" to-port="0"/>
          <edge from-layer="3" from-port="2" to-layer="12" to-port="0"/>
          <edge from-layer="11" from-port="0" to-layer="12" to-port="1"/>
          <edge from-layer="12" from-port="2" to-layer="13" to-port="0"/>
        </edges>
      </body>
    </layer>
    <layer id="4" name="r0" type="Result" version="opset1"><input><port id="0"><dim>2</dim></port></input></layer>
    <layer id="5" name="r1" type="Result" version="opset1"><input><port id="0"><dim>-1</dim><dim>2</dim></port></input></layer>
    <layer id="6" name="r2" type="Result" version="opset1"><input><port id="0"><dim>2</dim><dim>-1</dim></port></input></layer>
  </layers>
  <edges>
    <edge from-layer="0" from-port="0" to-layer="3" to-port="0"/>
    <edge from-layer="1" from-port="0" to-layer="3" to-port="1"/>
    <edge from-layer="2" from-port="0" to-layer="3" to-port="2"/>
    <edge from-layer="3" from-port="3" to-layer="4" to-port="0"/>
    <edge from-layer="3" from-port="4" to-layer="5" to-port="0"/>
    <edge from-layer="3" from-port="5" to-layer="6" to-port="0"/>
  </edges>
</net>
)";

std::string loop_weights() { return test::bytes_of<int64_t>({-1, 2, 0, 1}) + std::string(1, '\1'); }

TEST(OpenVinoLoop, BackEdgeIterationConditionAndConcatenatedOutputs) {
  std::string path = test::save_ir(test::scratch_dir("ov_loop"), "m", kLoop, loop_weights());
  NamedValues out = test::run_ir(path, {{"a_init", f32({2}, {1, 2})}});
  ASSERT_EQ(out.size(), 3u);
  // i = 0: a = [1, 2] + 0 = [1, 2], 0 < 2 goes on
  // i = 1: a = [1, 2] + 1 = [2, 3], 1 < 2 goes on
  // i = 2: a = [2, 3] + 2 = [4, 5], 2 < 2 stops
  EXPECT_EQ(out[0].first, "a_final");
  EXPECT_EQ(floats_of(out[0].second.tensor()), (std::vector<float>{4, 5}));
  // rows: the [1, 2] rows stacked on axis 0 -> [3, 2]
  EXPECT_EQ(out[1].second.tensor().shape().vec(), (std::vector<int64_t>{3, 2}));
  EXPECT_EQ(floats_of(out[1].second.tensor()), (std::vector<float>{1, 2, 2, 3, 4, 5}));
  // cols: the [2, 1] columns side by side on axis 1 -> [2, 3] = [[1, 2, 4], [2, 3, 5]]
  EXPECT_EQ(out[2].second.tensor().shape().vec(), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(floats_of(out[2].second.tensor()), (std::vector<float>{1, 2, 4, 2, 3, 5}));
}

TEST(OpenVinoLoop, BackEdgeToAParameterWithoutInitialValueIsAnError) {
  std::string xml = kLoop;
  xml = test::replaced(xml, R"(<input external_port_id="2" internal_layer_id="0"/>)", "");
  Error e = test::ir_load_error("ov_loop_noinit", xml, loop_weights());
  EXPECT_EQ(e.kind(), ErrorKind::InvalidModel);
  EXPECT_NE(e.where().find("Parameter \"a\" (id 0)"), std::string::npos) << e.what();
  EXPECT_NE(e.message().find("back edge but no initial value"), std::string::npos) << e.what();
}

// A Loop over x [2, width] sliced on axis 1 in parts `part` columns wide (`slicing`: the
// input entry's attributes after axis="1"): acc = acc + part, carried from acc0 [2, part];
// `doubled` = part * 2 has no back edge and is returned as `doubled_entry` says (nothing:
// the last value; an axis: concatenated), `doubled_dims` wide. .bin: 0: the trip count
// (i64), 8: true (boolean), 12: 2.0 (f32).
std::string sliced_loop(int width, int part, const std::string& slicing,
                        const std::string& doubled_entry,
                        const std::vector<int64_t>& doubled_dims) {
  const std::string w = std::to_string(width), p = std::to_string(part);
  return R"(<?xml version="1.0"?>
<net name="sliced" version="11">
  <layers>
    <layer id="0" name="trip" type="Const" version="opset1">
      <data element_type="i64" shape="" offset="0" size="8"/>
      <output><port id="0" precision="I64"/></output>
    </layer>
    <layer id="1" name="go" type="Const" version="opset1">
      <data element_type="boolean" shape="" offset="8" size="1"/>
      <output><port id="0" precision="BOOL"/></output>
    </layer>
    <layer id="2" name="x" type="Parameter" version="opset1">
      <data element_type="f32" shape="2,)" +
         w + R"("/>
      <output><port id="0" precision="FP32" names="x"><dim>2</dim><dim>)" +
         w + R"(</dim></port></output>
    </layer>
    <layer id="3" name="acc0" type="Parameter" version="opset1">
      <data element_type="f32" shape="2,)" +
         p + R"("/>
      <output><port id="0" precision="FP32" names="acc0"><dim>2</dim><dim>)" +
         p + R"(</dim></port></output>
    </layer>
    <layer id="4" name="loop" type="Loop" version="opset5">
      <input><port id="0"/><port id="1"/><port id="2"><dim>2</dim><dim>)" +
         w + R"(</dim></port><port id="3"><dim>2</dim><dim>)" + p + R"(</dim></port></input>
      <output>
        <port id="4" precision="FP32" names="acc"><dim>2</dim><dim>)" +
         p + R"(</dim></port>
        <port id="5" precision="FP32" names="doubled">)" +
         test::ov_dims(doubled_dims) + R"(</port>
      </output>
      <port_map>
        <input external_port_id="2" internal_layer_id="0" axis="1")" +
         slicing + R"(/>
        <input external_port_id="3" internal_layer_id="1"/>
        <output external_port_id="-1" internal_layer_id="8" purpose="execution_condition"/>
        <output external_port_id="4" internal_layer_id="5"/>
        <output external_port_id="5" internal_layer_id="6")" +
         doubled_entry + R"(/>
      </port_map>
      <back_edges><edge from-layer="5" to-layer="1"/></back_edges>
      <body>
        <layers>
          <layer id="0" name="part" type="Parameter" version="opset1">
            <data element_type="f32" shape="2,)" +
         p + R"("/>
            <output><port id="0" precision="FP32"><dim>2</dim><dim>)" +
         p + R"(</dim></port></output>
          </layer>
          <layer id="1" name="a" type="Parameter" version="opset1">
            <data element_type="f32" shape="2,)" +
         p + R"("/>
            <output><port id="0" precision="FP32"><dim>2</dim><dim>)" +
         p + R"(</dim></port></output>
          </layer>
          <layer id="2" name="a_next" type="Add" version="opset1">
            <input><port id="0"/><port id="1"/></input>
            <output><port id="2" precision="FP32"><dim>2</dim><dim>)" +
         p + R"(</dim></port></output>
          </layer>
          <layer id="3" name="two" type="Const" version="opset1">
            <data element_type="f32" shape="" offset="12" size="4"/>
            <output><port id="0" precision="FP32"/></output>
          </layer>
          <layer id="4" name="twice" type="Multiply" version="opset1">
            <input><port id="0"/><port id="1"/></input>
            <output><port id="2" precision="FP32"><dim>2</dim><dim>)" +
         p + R"(</dim></port></output>
          </layer>
          <layer id="5" name="a_out" type="Result" version="opset1"><input><port id="0"/></input></layer>
          <layer id="6" name="twice_out" type="Result" version="opset1"><input><port id="0"><dim>2</dim><dim>)" +
         p + R"(</dim></port></input></layer>
          <layer id="7" name="yes" type="Const" version="opset1">
            <data element_type="boolean" shape="" offset="8" size="1"/>
            <output><port id="0" precision="BOOL"/></output>
          </layer>
          <layer id="8" name="cond_out" type="Result" version="opset1"><input><port id="0"/></input></layer>
        </layers>
        <edges>
          <edge from-layer="1" from-port="0" to-layer="2" to-port="0"/>
          <edge from-layer="0" from-port="0" to-layer="2" to-port="1"/>
          <edge from-layer="0" from-port="0" to-layer="4" to-port="0"/>
          <edge from-layer="3" from-port="0" to-layer="4" to-port="1"/>
          <edge from-layer="2" from-port="2" to-layer="5" to-port="0"/>
          <edge from-layer="4" from-port="2" to-layer="6" to-port="0"/>
          <edge from-layer="7" from-port="0" to-layer="8" to-port="0"/>
        </edges>
      </body>
    </layer>
    <layer id="5" name="r0" type="Result" version="opset1"><input><port id="0"/></input></layer>
    <layer id="6" name="r1" type="Result" version="opset1"><input><port id="0"/></input></layer>
  </layers>
  <edges>
    <edge from-layer="0" from-port="0" to-layer="4" to-port="0"/>
    <edge from-layer="1" from-port="0" to-layer="4" to-port="1"/>
    <edge from-layer="2" from-port="0" to-layer="4" to-port="2"/>
    <edge from-layer="3" from-port="0" to-layer="4" to-port="3"/>
    <edge from-layer="4" from-port="4" to-layer="5" to-port="0"/>
    <edge from-layer="4" from-port="5" to-layer="6" to-port="0"/>
  </edges>
</net>
)";
}

std::string sliced_loop_weights(int64_t trips) {
  return test::bytes_of<int64_t>({trips}) + std::string("\1\0\0\0", 4) + test::bytes_of<float>({2});
}

// Trip count 4 over x [2, 3] in 3 parts of one column; `doubled` is the last value.
std::string one_column_loop(const std::string& slicing) {
  return sliced_loop(3, 1, slicing, "", {2, 1});
}

NamedValues run_sliced(const std::string& xml, const std::string& dir) {
  std::string path = test::save_ir(test::scratch_dir(dir), "m", xml, sliced_loop_weights(4));
  return test::run_ir(path,
                      {{"x", f32({2, 3}, {1, 2, 3, 4, 5, 6})}, {"acc0", f32({2, 1}, {0, 0})}});
}

TEST(OpenVinoLoop, SlicedInputAndLastValueWithoutBackEdge) {
  NamedValues out = run_sliced(one_column_loop(""), "ov_loop_sliced");
  ASSERT_EQ(out.size(), 2u);
  // Parts [1, 4], [2, 5], [3, 6], then the last part again for the fourth iteration (as
  // OpenVINO's reference Loop keeps it): acc = [1+2+3+3, 4+5+6+6] = [9, 21].
  EXPECT_EQ(floats_of(out[0].second.tensor()), (std::vector<float>{9, 21}));
  // The last iteration's part doubled: [6, 12].
  EXPECT_EQ(out[1].first, "doubled");
  EXPECT_EQ(out[1].second.tensor().shape().vec(), (std::vector<int64_t>{2, 1}));
  EXPECT_EQ(floats_of(out[1].second.tensor()), (std::vector<float>{6, 12}));
}

TEST(OpenVinoLoop, BackwardSlicedInput) {
  NamedValues out =
      run_sliced(one_column_loop(R"( start="-1" end="0" stride="-1")"), "ov_loop_sliced_back");
  // Parts [3, 6], [2, 5], [1, 4], [1, 4]: acc = [7, 19]; the last part doubled: [2, 8].
  EXPECT_EQ(floats_of(out[0].second.tensor()), (std::vector<float>{7, 19}));
  EXPECT_EQ(floats_of(out[1].second.tensor()), (std::vector<float>{2, 8}));
}

// A Loop-5 whose input x [2, 4] is sliced along axis 1 in parts of two columns
// (part_size="2", with start, end and stride as TensorIterator-1's port map has them, which
// OpenVINO's IR writer also gives Loop inputs). Three iterations over two parts: the third
// takes the last part again. The body adds each part to a carried acc [2, 2] and doubles
// it into an output concatenated along axis 1 ([2, 6]).
std::string part_loop(const std::string& slicing, const std::string& concatenation) {
  return sliced_loop(4, 2, slicing, R"( axis="1")" + concatenation, {2, 6});
}
const char* kForward = R"( start="0" end="-1" stride="2" part_size="2")";
const char* kBackward = R"( start="-1" end="0" stride="-2" part_size="2")";

NamedValues run_parts(const std::string& xml, const std::string& dir) {
  std::string path = test::save_ir(test::scratch_dir(dir), "m", xml, sliced_loop_weights(3));
  return test::run_ir(
      path, {{"x", f32({2, 4}, {1, 2, 3, 4, 5, 6, 7, 8})}, {"acc0", f32({2, 2}, {0, 0, 0, 0})}});
}

TEST(OpenVinoLoop, SlicedInputInPartsOfTwo) {
  NamedValues out = run_parts(part_loop(kForward, kForward), "ov_loop_parts");
  ASSERT_EQ(out.size(), 2u);
  // Parts [[1, 2], [5, 6]], [[3, 4], [7, 8]], then the last again:
  // acc = [[1+3+3, 2+4+4], [5+7+7, 6+8+8]].
  EXPECT_EQ(floats_of(out[0].second.tensor()), (std::vector<float>{7, 10, 19, 22}));
  // The parts doubled, side by side along axis 1.
  EXPECT_EQ(out[1].second.tensor().shape().vec(), (std::vector<int64_t>{2, 6}));
  EXPECT_EQ(floats_of(out[1].second.tensor()),
            (std::vector<float>{2, 4, 6, 8, 6, 8, 10, 12, 14, 16, 14, 16}));
}

TEST(OpenVinoLoop, BackwardSlicedInputInPartsOfTwo) {
  NamedValues out = run_parts(part_loop(kBackward, kForward), "ov_loop_parts_back");
  // Parts from the end, each in its own order: [[3, 4], [7, 8]], [[1, 2], [5, 6]], then
  // the last (first) again: acc = [[3+1+1, 4+2+2], [7+5+5, 8+6+6]].
  EXPECT_EQ(floats_of(out[0].second.tensor()), (std::vector<float>{5, 8, 17, 20}));
  EXPECT_EQ(floats_of(out[1].second.tensor()),
            (std::vector<float>{6, 8, 2, 4, 2, 4, 14, 16, 10, 12, 10, 12}));
}

TEST(OpenVinoLoop, OutputConcatenatedBackwardsIsRefused) {
  Error e = test::ir_load_error("ov_loop_parts_out_back", part_loop(kForward, kBackward),
                                sliced_loop_weights(3));
  EXPECT_EQ(e.kind(), ErrorKind::Unsupported);
  EXPECT_NE(e.where().find("Loop \"loop\" (id 4)"), std::string::npos) << e.what();
  EXPECT_NE(e.message().find("reverse order"), std::string::npos) << e.what();
}

}  // namespace
}  // namespace bough
