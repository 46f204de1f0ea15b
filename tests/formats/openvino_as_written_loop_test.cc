// Loop-5 and TensorIterator-1 as OpenVINO's reader and reference implementations read them
// (src/frontends/ir/src/ir_deserializer.cpp, src/core/reference/src/op/loop.cpp and
// tensor_iterator.cpp): a trip count known only at run time, a current_iteration Parameter
// with a back edge, a sliced input with a back edge, and a TensorIterator without sliced
// inputs (counted by a concatenated output, or by nothing at all). Expected values are worked out
// by hand in the comments.
#include <gtest/gtest.h>

#include <string>

#include "formats/onnx/loop_captures.h"
#include "formats/onnx/reader.h"
#include "formats/onnx/writer.h"
#include "formats/openvino/reader.h"
#include "formats/openvino_test_util.h"
#include "ir/graph.h"
#include "model_builder.h"
#include "test_paths.h"

namespace bough {
namespace {

using test::f32;
using test::floats_of;

// The trip count is the graph input `trip` (i64 scalar); the condition starts true. Body:
// a_next = a + 1, carried back into a, and the execution condition a_next < 5.
// .bin: 0: true (boolean), 4: 1.0, 8: 5.0 (f32).
const char* kRuntimeTrips = R"(<?xml version="1.0"?>
<net name="loop_trips" version="11">
  <layers>
    <layer id="0" name="trip" type="Parameter" version="opset1">
      <data element_type="i64" shape=""/>
      <output><port id="0" precision="I64" names="trip"/></output>
    </layer>
    <layer id="1" name="go" type="Const" version="opset1">
      <data element_type="boolean" shape="" offset="0" size="1"/>
      <output><port id="0" precision="BOOL"/></output>
    </layer>
    <layer id="2" name="a0" type="Parameter" version="opset1">
      <data element_type="f32" shape="1"/>
      <output><port id="0" precision="FP32" names="a0"><dim>1</dim></port></output>
    </layer>
    <layer id="3" name="loop" type="Loop" version="opset5">
      <input><port id="0" precision="I64"/><port id="1" precision="BOOL"/><port id="2" precision="FP32"><dim>1</dim></port></input>
      <output><port id="3" precision="FP32" names="a"><dim>1</dim></port></output>
      <port_map>
        <input external_port_id="2" internal_layer_id="0"/>
        <output external_port_id="3" internal_layer_id="5"/>
        <output external_port_id="-1" internal_layer_id="4" purpose="execution_condition"/>
      </port_map>
      <back_edges><edge from-layer="5" from-port="0" to-layer="0" to-port="0"/></back_edges>
      <body>
        <layers>
          <layer id="0" name="a" type="Parameter" version="opset1">
            <data element_type="f32" shape="1"/>
            <output><port id="0" precision="FP32"><dim>1</dim></port></output>
          </layer>
          <layer id="1" name="one" type="Const" version="opset1">
            <data element_type="f32" shape="1" offset="4" size="4"/>
            <output><port id="0" precision="FP32"><dim>1</dim></port></output>
          </layer>
          <layer id="2" name="a_next" type="Add" version="opset1">
            <data auto_broadcast="numpy"/>
            <input><port id="0" precision="FP32"><dim>1</dim></port><port id="1" precision="FP32"><dim>1</dim></port></input>
            <output><port id="2" precision="FP32"><dim>1</dim></port></output>
          </layer>
          <layer id="3" name="five" type="Const" version="opset1">
            <data element_type="f32" shape="1" offset="8" size="4"/>
            <output><port id="0" precision="FP32"><dim>1</dim></port></output>
          </layer>
          <layer id="6" name="more" type="Less" version="opset1">
            <data auto_broadcast="numpy"/>
            <input><port id="0" precision="FP32"><dim>1</dim></port><port id="1" precision="FP32"><dim>1</dim></port></input>
            <output><port id="2" precision="BOOL"><dim>1</dim></port></output>
          </layer>
          <layer id="4" name="cond" type="Result" version="opset1">
            <input><port id="0" precision="BOOL"><dim>1</dim></port></input>
          </layer>
          <layer id="5" name="a_out" type="Result" version="opset1">
            <input><port id="0" precision="FP32"><dim>1</dim></port></input>
          </layer>
        </layers>
        <edges>
          <edge from-layer="0" from-port="0" to-layer="2" to-port="0"/>
          <edge from-layer="1" from-port="0" to-layer="2" to-port="1"/>
          <edge from-layer="2" from-port="2" to-layer="6" to-port="0"/>
          <edge from-layer="3" from-port="0" to-layer="6" to-port="1"/>
          <edge from-layer="6" from-port="2" to-layer="4" to-port="0"/>
          <edge from-layer="2" from-port="2" to-layer="5" to-port="0"/>
        </edges>
      </body>
    </layer>
    <layer id="4" name="a/sink_port_0" type="Result" version="opset1">
      <input><port id="0" precision="FP32"><dim>1</dim></port></input>
    </layer>
  </layers>
  <edges>
    <edge from-layer="0" from-port="0" to-layer="3" to-port="0"/>
    <edge from-layer="1" from-port="0" to-layer="3" to-port="1"/>
    <edge from-layer="2" from-port="0" to-layer="3" to-port="2"/>
    <edge from-layer="3" from-port="3" to-layer="4" to-port="0"/>
  </edges>
</net>
)";

TEST(OpenVinoAsWrittenLoop, NegativeRuntimeTripCountMeansNoLimit) {
  std::string bin = std::string("\1\0\0\0", 4) + test::bytes_of<float>({1, 5});
  std::string path = test::save_ir(test::scratch_dir("ov_loop_trips"), "m", kRuntimeTrips, bin);
  auto run = [&](int64_t trips) {
    NamedValues out =
        test::run_ir(path, {{"trip", Tensor::scalar_i64(trips)}, {"a0", f32({1}, {0})}});
    return floats_of(out.at(0).second.tensor());
  };
  // No limit: a = 1, 2, 3, 4, 5, and 5 < 5 is false, so the loop stops at 5.
  EXPECT_EQ(run(-1), std::vector<float>{5});
  EXPECT_EQ(run(-7), std::vector<float>{5});
  // Three trips: 1, 2, 3.
  EXPECT_EQ(run(3), std::vector<float>{3});
}

// Three trips; i is the current_iteration Parameter, but a back edge feeds it i + 2, so it
// takes the back edge's values (OpenVINO's reference Loop writes the count only when the
// Parameter has none). With KEEP_INITIAL, i starts from the input i0 (port 2); without,
// from 0.
// .bin: 0: 3 (i64), 8: [2] (i64), 16: true (boolean).
std::string counter_loop(bool with_initial) {
  std::string initial_port =
      with_initial ? R"(<port id="2" precision="I64"><dim>1</dim></port>)" : "";
  std::string out_port = with_initial ? "3" : "2";
  std::string initial_entry =
      with_initial ? R"(<input external_port_id="2" internal_layer_id="0"/>)" : "";
  std::string initial_layer = with_initial
                                  ? R"(<layer id="2" name="i0" type="Parameter" version="opset1">
      <data element_type="i64" shape="1"/>
      <output><port id="0" precision="I64" names="i0"><dim>1</dim></port></output>
    </layer>)"
                                  : "";
  std::string initial_edge =
      with_initial ? R"(<edge from-layer="2" from-port="0" to-layer="3" to-port="2"/>)" : "";
  return R"(<?xml version="1.0"?>
<net name="loop_counter" version="11">
  <layers>
    <layer id="0" name="trip" type="Const" version="opset1">
      <data element_type="i64" shape="" offset="0" size="8"/>
      <output><port id="0" precision="I64"/></output>
    </layer>
    <layer id="1" name="go" type="Const" version="opset1">
      <data element_type="boolean" shape="" offset="16" size="1"/>
      <output><port id="0" precision="BOOL"/></output>
    </layer>
    )" + initial_layer +
         R"(
    <layer id="3" name="loop" type="Loop" version="opset5">
      <input><port id="0" precision="I64"/><port id="1" precision="BOOL"/>)" +
         initial_port + R"(</input>
      <output><port id=")" +
         out_port + R"(" precision="I64" names="i_last"><dim>1</dim></port></output>
      <port_map>
        )" +
         initial_entry + R"(
        <input external_port_id="-1" internal_layer_id="0" purpose="current_iteration"/>
        <output external_port_id=")" +
         out_port + R"(" internal_layer_id="4"/>
        <output external_port_id="-1" internal_layer_id="3" purpose="execution_condition"/>
      </port_map>
      <back_edges><edge from-layer="4" from-port="0" to-layer="0" to-port="0"/></back_edges>
      <body>
        <layers>
          <layer id="0" name="i" type="Parameter" version="opset1">
            <data element_type="i64" shape="1"/>
            <output><port id="0" precision="I64"><dim>1</dim></port></output>
          </layer>
          <layer id="1" name="two" type="Const" version="opset1">
            <data element_type="i64" shape="1" offset="8" size="8"/>
            <output><port id="0" precision="I64"><dim>1</dim></port></output>
          </layer>
          <layer id="2" name="i_next" type="Add" version="opset1">
            <input><port id="0" precision="I64"><dim>1</dim></port><port id="1" precision="I64"><dim>1</dim></port></input>
            <output><port id="2" precision="I64"><dim>1</dim></port></output>
          </layer>
          <layer id="5" name="true" type="Const" version="opset1">
            <data element_type="boolean" shape="" offset="16" size="1"/>
            <output><port id="0" precision="BOOL"/></output>
          </layer>
          <layer id="3" name="cond" type="Result" version="opset1">
            <input><port id="0" precision="BOOL"/></input>
          </layer>
          <layer id="4" name="i_out" type="Result" version="opset1">
            <input><port id="0" precision="I64"><dim>1</dim></port></input>
          </layer>
        </layers>
        <edges>
          <edge from-layer="0" from-port="0" to-layer="2" to-port="0"/>
          <edge from-layer="1" from-port="0" to-layer="2" to-port="1"/>
          <edge from-layer="5" from-port="0" to-layer="3" to-port="0"/>
          <edge from-layer="2" from-port="2" to-layer="4" to-port="0"/>
        </edges>
      </body>
    </layer>
    <layer id="4" name="out" type="Result" version="opset1">
      <input><port id="0" precision="I64"><dim>1</dim></port></input>
    </layer>
  </layers>
  <edges>
    <edge from-layer="0" from-port="0" to-layer="3" to-port="0"/>
    <edge from-layer="1" from-port="0" to-layer="3" to-port="1"/>
    )" + initial_edge +
         R"(
    <edge from-layer="3" from-port=")" +
         out_port + R"(" to-layer="4" to-port="0"/>
  </edges>
</net>
)";
}

TEST(OpenVinoAsWrittenLoop, CurrentIterationWithBackEdgeTakesTheBackEdge) {
  std::string bin = test::bytes_of<int64_t>({3, 2}) + std::string(1, '\1');
  std::string path =
      test::save_ir(test::scratch_dir("ov_loop_counter"), "m", counter_loop(true), bin);
  // i = 10, 12, 14; the last i + 2 is 16 (the count would give 0, 1, 2 and then 4).
  NamedValues out = test::run_ir(path, {{"i0", test::i64({1}, {10})}});
  EXPECT_EQ(test::int64s_of(out.at(0).second.tensor()), std::vector<int64_t>{16});
  // Without an initial value i starts at 0: 0, 2, 4, then 6.
  std::string bare =
      test::save_ir(test::scratch_dir("ov_loop_counter0"), "m", counter_loop(false), bin);
  NamedValues zero = test::run_ir(bare, {});
  EXPECT_EQ(test::int64s_of(zero.at(0).second.tensor()), std::vector<int64_t>{6});
}

// TensorIterator over x [3, 1] on axis 0; the body doubles each part and the doubled parts are
// concatenated on axis 0. A back edge also points at the sliced Parameter: OpenVINO's
// reader makes the input sliced and never uses that back edge, so the result is 2x
// ([2, 4, 6]); using the back edge would give [2, 4, 8].
// .bin: 0: 2.0 (f32).
const char* kSlicedWithBackEdge = R"(<?xml version="1.0"?>
<net name="ti_sliced_back" version="11">
  <layers>
    <layer id="0" name="x" type="Parameter" version="opset1">
      <data element_type="f32" shape="3,1"/>
      <output><port id="0" precision="FP32" names="x"><dim>3</dim><dim>1</dim></port></output>
    </layer>
    <layer id="1" name="ti" type="TensorIterator" version="opset1">
      <input><port id="0" precision="FP32"><dim>3</dim><dim>1</dim></port></input>
      <output><port id="1" precision="FP32" names="y"><dim>3</dim><dim>1</dim></port></output>
      <port_map>
        <input axis="0" external_port_id="0" internal_layer_id="0" start="0" end="-1" stride="1" part_size="1"/>
        <output axis="0" external_port_id="1" internal_layer_id="3" start="0" end="-1" stride="1" part_size="1"/>
      </port_map>
      <back_edges><edge from-layer="3" from-port="0" to-layer="0" to-port="0"/></back_edges>
      <body>
        <layers>
          <layer id="0" name="part" type="Parameter" version="opset1">
            <data element_type="f32" shape="1,1"/>
            <output><port id="0" precision="FP32"><dim>1</dim><dim>1</dim></port></output>
          </layer>
          <layer id="1" name="two" type="Const" version="opset1">
            <data element_type="f32" shape="" offset="0" size="4"/>
            <output><port id="0" precision="FP32"/></output>
          </layer>
          <layer id="2" name="twice" type="Multiply" version="opset1">
            <input><port id="0" precision="FP32"><dim>1</dim><dim>1</dim></port><port id="1" precision="FP32"/></input>
            <output><port id="2" precision="FP32"><dim>1</dim><dim>1</dim></port></output>
          </layer>
          <layer id="3" name="out" type="Result" version="opset1">
            <input><port id="0" precision="FP32"><dim>1</dim><dim>1</dim></port></input>
          </layer>
        </layers>
        <edges>
          <edge from-layer="0" from-port="0" to-layer="2" to-port="0"/>
          <edge from-layer="1" from-port="0" to-layer="2" to-port="1"/>
          <edge from-layer="2" from-port="2" to-layer="3" to-port="0"/>
        </edges>
      </body>
    </layer>
    <layer id="2" name="y/sink_port_0" type="Result" version="opset1">
      <input><port id="0" precision="FP32"><dim>3</dim><dim>1</dim></port></input>
    </layer>
  </layers>
  <edges>
    <edge from-layer="0" from-port="0" to-layer="1" to-port="0"/>
    <edge from-layer="1" from-port="1" to-layer="2" to-port="0"/>
  </edges>
</net>
)";

TEST(OpenVinoAsWrittenLoop, TensorIteratorSlicedInputWithBackEdgeIsSliced) {
  std::string path = test::save_ir(test::scratch_dir("ov_ti_sliced_back"), "m", kSlicedWithBackEdge,
                                   test::bytes_of<float>({2}));
  NamedValues out = test::run_ir(path, {{"x", f32({3, 1}, {1, 2, 3})}});
  EXPECT_EQ(floats_of(out.at(0).second.tensor()), (std::vector<float>{2, 4, 6}));
}

// A TensorIterator without sliced inputs: OpenVINO counts its iterations from the
// concatenated output's start and end, |3 - 0| / 1 = 3. The state s (from s0) becomes s + 1
// each time, and the three values are concatenated: s0 = 10 gives [11, 12, 13].
// .bin: 0: [1.0] (f32).
const char* kNoSlicedInput = R"(<?xml version="1.0"?>
<net name="ti_unsliced" version="11">
  <layers>
    <layer id="0" name="s0" type="Parameter" version="opset1">
      <data element_type="f32" shape="1"/>
      <output><port id="0" precision="FP32" names="s0"><dim>1</dim></port></output>
    </layer>
    <layer id="1" name="ti" type="TensorIterator" version="opset1">
      <input><port id="0" precision="FP32"><dim>1</dim></port></input>
      <output><port id="1" precision="FP32" names="steps"><dim>3</dim></port></output>
      <port_map>
        <input external_port_id="0" internal_layer_id="0"/>
        <output axis="0" external_port_id="1" internal_layer_id="3" start="0" end="3" stride="1" part_size="1"/>
      </port_map>
      <back_edges><edge from-layer="3" from-port="0" to-layer="0" to-port="0"/></back_edges>
      <body>
        <layers>
          <layer id="0" name="s" type="Parameter" version="opset1">
            <data element_type="f32" shape="1"/>
            <output><port id="0" precision="FP32"><dim>1</dim></port></output>
          </layer>
          <layer id="1" name="one" type="Const" version="opset1">
            <data element_type="f32" shape="1" offset="0" size="4"/>
            <output><port id="0" precision="FP32"><dim>1</dim></port></output>
          </layer>
          <layer id="2" name="s_next" type="Add" version="opset1">
            <input><port id="0" precision="FP32"><dim>1</dim></port><port id="1" precision="FP32"><dim>1</dim></port></input>
            <output><port id="2" precision="FP32"><dim>1</dim></port></output>
          </layer>
          <layer id="3" name="s_out" type="Result" version="opset1">
            <input><port id="0" precision="FP32"><dim>1</dim></port></input>
          </layer>
        </layers>
        <edges>
          <edge from-layer="0" from-port="0" to-layer="2" to-port="0"/>
          <edge from-layer="1" from-port="0" to-layer="2" to-port="1"/>
          <edge from-layer="2" from-port="2" to-layer="3" to-port="0"/>
        </edges>
      </body>
    </layer>
    <layer id="2" name="steps/sink_port_0" type="Result" version="opset1">
      <input><port id="0" precision="FP32"><dim>3</dim></port></input>
    </layer>
  </layers>
  <edges>
    <edge from-layer="0" from-port="0" to-layer="1" to-port="0"/>
    <edge from-layer="1" from-port="1" to-layer="2" to-port="0"/>
  </edges>
</net>
)";

TEST(OpenVinoAsWrittenLoop, TensorIteratorWithoutSlicedInputCountsByItsOutput) {
  std::string path = test::save_ir(test::scratch_dir("ov_ti_unsliced"), "m", kNoSlicedInput,
                                   test::bytes_of<float>({1}));
  NamedValues out = test::run_ir(path, {{"s0", f32({1}, {10})}});
  EXPECT_EQ(floats_of(out.at(0).second.tensor()), (std::vector<float>{11, 12, 13}));
}

TEST(OpenVinoAsWrittenLoop, TensorIteratorWithNeitherSlicesNorConcatenationRunsOnce) {
  // The same body with the output taken as the last value, not concatenated: nothing counts
  // the iterations. OpenVINO's op leaves its count at -1 (tensor_iterator.cpp,
  // try_to_set_num_iterations_if_no_slice_inputs) and its CPU plugin runs the body once
  // (nodes/tensoriterator.cpp, getNumIteration starts at 1 and only port map entries with
  // an axis change it): s0 = 10 gives 11.
  std::string xml = test::replaced(
      kNoSlicedInput,
      R"(<output axis="0" external_port_id="1" internal_layer_id="3" start="0" end="3" stride="1" part_size="1"/>)",
      R"(<output external_port_id="1" internal_layer_id="3"/>)");
  xml = test::replaced(xml, R"(names="steps"><dim>3</dim>)", R"(names="steps"><dim>1</dim>)");
  xml = test::replaced(xml, R"(<input><port id="0" precision="FP32"><dim>3</dim>)",
                       R"(<input><port id="0" precision="FP32"><dim>1</dim>)");
  std::string path =
      test::save_ir(test::scratch_dir("ov_ti_once"), "m", xml, test::bytes_of<float>({1}));
  NamedValues out = test::run_ir(path, {{"s0", f32({1}, {10})}});
  EXPECT_EQ(floats_of(out.at(0).second.tensor()), (std::vector<float>{11}));
}

// A TensorIterator over x [3, 1] whose body multiplies each part by w, an input it takes as
// it is (an invariant input): y = x * w.
const char* kInvariantInput = R"(<?xml version="1.0"?>
<net name="ti_invariant" version="11">
  <layers>
    <layer id="0" name="x" type="Parameter" version="opset1">
      <data element_type="f32" shape="3,1"/>
      <output><port id="0" precision="FP32" names="x"><dim>3</dim><dim>1</dim></port></output>
    </layer>
    <layer id="1" name="w" type="Parameter" version="opset1">
      <data element_type="f32" shape="1"/>
      <output><port id="0" precision="FP32" names="w"><dim>1</dim></port></output>
    </layer>
    <layer id="2" name="ti" type="TensorIterator" version="opset1">
      <input><port id="0" precision="FP32"><dim>3</dim><dim>1</dim></port><port id="1" precision="FP32"><dim>1</dim></port></input>
      <output><port id="2" precision="FP32" names="y"><dim>3</dim><dim>1</dim></port></output>
      <port_map>
        <input axis="0" external_port_id="0" internal_layer_id="0" start="0" end="-1" stride="1" part_size="1"/>
        <input external_port_id="1" internal_layer_id="1"/>
        <output axis="0" external_port_id="2" internal_layer_id="3" start="0" end="-1" stride="1" part_size="1"/>
      </port_map>
      <body>
        <layers>
          <layer id="0" name="part" type="Parameter" version="opset1">
            <data element_type="f32" shape="1,1"/>
            <output><port id="0" precision="FP32"><dim>1</dim><dim>1</dim></port></output>
          </layer>
          <layer id="1" name="weight" type="Parameter" version="opset1">
            <data element_type="f32" shape="1"/>
            <output><port id="0" precision="FP32"><dim>1</dim></port></output>
          </layer>
          <layer id="2" name="scaled" type="Multiply" version="opset1">
            <input><port id="0" precision="FP32"><dim>1</dim><dim>1</dim></port><port id="1" precision="FP32"><dim>1</dim></port></input>
            <output><port id="2" precision="FP32"><dim>1</dim><dim>1</dim></port></output>
          </layer>
          <layer id="3" name="out" type="Result" version="opset1">
            <input><port id="0" precision="FP32"><dim>1</dim><dim>1</dim></port></input>
          </layer>
        </layers>
        <edges>
          <edge from-layer="0" from-port="0" to-layer="2" to-port="0"/>
          <edge from-layer="1" from-port="0" to-layer="2" to-port="1"/>
          <edge from-layer="2" from-port="2" to-layer="3" to-port="0"/>
        </edges>
      </body>
    </layer>
    <layer id="3" name="y/sink_port_0" type="Result" version="opset1">
      <input><port id="0" precision="FP32"><dim>3</dim><dim>1</dim></port></input>
    </layer>
  </layers>
  <edges>
    <edge from-layer="0" from-port="0" to-layer="2" to-port="0"/>
    <edge from-layer="1" from-port="0" to-layer="2" to-port="1"/>
    <edge from-layer="2" from-port="2" to-layer="3" to-port="0"/>
  </edges>
</net>
)";

// Seed 003: written as ONNX with the default --captures carried, the Scan a TensorIterator
// becomes gets its invariant input as an explicit state, not by name.
TEST(OpenVinoAsWrittenLoop, ScanFromTensorIteratorGetsInvariantInputsExplicitly) {
  std::string path = test::save_ir(test::scratch_dir("ov_ti_invariant"), "m", kInvariantInput);
  NamedValues direct = test::run_ir(path, {{"x", f32({3, 1}, {1, 2, 3})}, {"w", f32({1}, {4})}});
  EXPECT_EQ(floats_of(direct.at(0).second.tensor()), (std::vector<float>{4, 8, 12}));
  auto model = openvino::read_model_file(path);
  onnx::carry_loop_captures(*model);
  auto written = onnx::read_model_bytes(onnx::write_model_bytes(*model), "carried.onnx", "");
  const ir::Node* scan = nullptr;
  for (const auto& n : written->graph->nodes)
    if (n->op_type == "Scan") scan = n.get();
  ASSERT_NE(scan, nullptr);
  EXPECT_TRUE(scan->implicit_inputs.empty());
  EXPECT_TRUE(scan->attr("body")->g->captures.empty());
  NamedValues carried = Session(Model(std::shared_ptr<ir::Model>(std::move(written))))
                            .run({{"x", f32({3, 1}, {1, 2, 3})}, {"w", f32({1}, {4})}});
  EXPECT_EQ(floats_of(carried.at(0).second.tensor()), (std::vector<float>{4, 8, 12}));
}

}  // namespace
}  // namespace bough
