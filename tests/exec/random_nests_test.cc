// Property test: random nests of If, Loop and Scan, up to four deep, run by bough and by a
// plain reference interpreter written here. Both must agree exactly on every output, for
// two input sets, and again on a second run of the same Session (no stale state).
//
// The subgraphs read values of every enclosing scope: graph inputs, Loop iteration numbers,
// conditions and carried values, Scan states and slices, initializers and node outputs;
// above all node outputs that the enclosing graph also hands on as a branch output, carried
// value or Scan state. The engine computes those in place, straight into the value the
// owner returns, while the nested graph still reads them: that once gave the nested graph
// an empty value ("input 0 must be a tensor, got optional(none)"). Later nodes read again
// what control-flow nodes return and what their subgraphs captured.
//
// The file reads top to bottom: the model description; the generator of random
// descriptions; the emitter that writes a description as an ONNX model; the reference
// interpreter that runs a description; the tests. A failure names its model, which runs
// alone with --gtest_filter='*/model_17', and prints the model's description.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "bough/error.h"
#include "bough/model.h"
#include "bough/session.h"
#include "bough/value.h"
#include "model_builder.h"
#include "test_paths.h"

namespace bough {
namespace {

using test::Dims64;
using test::GraphBuilder;

constexpr int kModels = 300;
constexpr uint64_t kSeed = 0x6e657374;  // "nest"
constexpr int kMaxDepth = 4;            // control-flow nodes nested in one another
constexpr int kMaxControlFlow = 8;      // control-flow nodes in one model
constexpr int64_t kWidth = 2;           // every vector is float [kWidth]

// ---- The model description --------------------------------------------------------------

// What a value holds. The generator gives every value one of these kinds and applies only
// ops that fit them, so every model it makes is valid.
enum class Kind {
  Vec,     // float [kWidth]
  Scalar,  // float []
  Stack,   // float [n, kWidth]: what Scan slices, and what scan outputs stack
  Bool,    // bool []: conditions
  Int,     // int64 [] in [0, 3]: trip counts and iteration numbers
};

const std::vector<Kind> kAllKinds = {Kind::Vec, Kind::Scalar, Kind::Stack, Kind::Bool, Kind::Int};

const char* kind_name(Kind kind) {
  switch (kind) {
    case Kind::Vec:
      return "vec";
    case Kind::Scalar:
      return "scalar";
    case Kind::Stack:
      return "stack";
    case Kind::Bool:
      return "bool";
    case Kind::Int:
      return "int";
  }
  return "?";
}

ElemType elem_type(Kind kind) {
  if (kind == Kind::Bool) return ElemType::Bool;
  if (kind == Kind::Int) return ElemType::Int64;
  return ElemType::Float;
}

// The declared shape; -1 is a dim left unknown.
Dims64 declared_dims(Kind kind) {
  if (kind == Kind::Vec) return {kWidth};
  if (kind == Kind::Stack) return {-1, kWidth};
  return {};
}

// A named value. Names are unique across the whole model.
struct Var {
  std::string name;
  Kind kind;
  // Stacks with the same key have the same length, so one Scan may slice them together.
  std::string length;
};

// A tensor of the reference interpreter. Elements are kept as floats, which hold bools
// and the small integers used here exactly.
struct Array {
  ElemType type = ElemType::Float;
  Dims64 shape;
  std::vector<float> at;
};

enum class Op { Add, Sub, Mul, Neg, Abs, Identity, ReduceSum, Greater, Less, Not, If, Loop, Scan };

const char* op_name(Op op) {
  switch (op) {
    case Op::Add:
      return "Add";
    case Op::Sub:
      return "Sub";
    case Op::Mul:
      return "Mul";
    case Op::Neg:
      return "Neg";
    case Op::Abs:
      return "Abs";
    case Op::Identity:
      return "Identity";
    case Op::ReduceSum:
      return "ReduceSum";
    case Op::Greater:
      return "Greater";
    case Op::Less:
      return "Less";
    case Op::Not:
      return "Not";
    case Op::If:
      return "If";
    case Op::Loop:
      return "Loop";
    case Op::Scan:
      return "Scan";
  }
  return "?";
}

struct Graph;

struct Node {
  Op op;
  std::vector<std::string> inputs;  // "" is an omitted optional input
  std::vector<Var> outputs;
  std::string name;           // control-flow nodes only, for bough's error messages
  std::vector<Graph> graphs;  // If: then and else branch; Loop and Scan: body
  int64_t scan_inputs = 0;    // Scan: num_scan_inputs
};

struct Graph {
  std::string name;
  std::vector<Var> inputs;
  std::vector<std::pair<Var, Array>> initializers;
  std::vector<Node> nodes;
  // Any value in scope: this graph's own, or an enclosing graph's.
  std::vector<Var> outputs;
  // The last `stacked` outputs are scan outputs. Their type is declared, float [kWidth], so
  // that an empty stack still has a known shape; other subgraph outputs are left untyped.
  size_t stacked = 0;
};

std::string show(const Array& a) {
  std::ostringstream out;
  out << elem_name(a.type) << '[';
  for (size_t i = 0; i < a.shape.size(); ++i) out << (i ? "," : "") << a.shape[i];
  out << "]{";
  for (size_t i = 0; i < a.at.size(); ++i) out << (i ? ", " : "") << a.at[i];
  out << '}';
  return out.str();
}

std::string declare(const Var& v) { return v.name + ": " + kind_name(v.kind); }

template <typename T, typename F>
std::string joined(const std::vector<T>& items, F show_item) {
  std::string s;
  for (const T& item : items) s += (s.empty() ? "" : ", ") + show_item(item);
  return s;
}

// One line per input, initializer, node and the outputs; nested graphs indented under
// their node:
//   v5: vec, v6: stack = Loop "loop3"(in_m, "", v2)
//     body3(iter3: int, cond3: bool, state3_0: vec)
void dump(const Graph& g, const std::string& indent, std::ostringstream& out) {
  out << indent << g.name << '(' << joined(g.inputs, declare) << ")\n";
  for (const auto& [v, value] : g.initializers)
    out << indent << "  " << declare(v) << " = " << show(value) << '\n';
  for (const Node& n : g.nodes) {
    out << indent << "  " << joined(n.outputs, declare) << " = " << op_name(n.op);
    if (!n.name.empty()) out << " \"" << n.name << '"';
    out << '(' << joined(n.inputs, [](const std::string& s) { return s.empty() ? "\"\"" : s; })
        << ")\n";
    for (const Graph& sub : n.graphs) dump(sub, indent + "    ", out);
  }
  out << indent << "  return " << joined(g.outputs, [](const Var& v) { return v.name; }) << '\n';
}

std::string dump(const Graph& g) {
  std::ostringstream out;
  dump(g, "", out);
  return out.str();
}

// ---- The generator ------------------------------------------------------------------------

// splitmix64. The std distributions are not specified exactly, so with them a seed would
// not name the same model on every platform.
class Rng {
 public:
  explicit Rng(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9;
    z = (z ^ (z >> 27)) * 0x94d049bb133111eb;
    return z ^ (z >> 31);
  }
  int below(int n) { return static_cast<int>(next() % static_cast<uint64_t>(n)); }
  bool chance(int percent) { return below(100) < percent; }
  template <typename T>
  const T& pick(const std::vector<T>& items) {
    return items[static_cast<size_t>(below(static_cast<int>(items.size())))];
  }

 private:
  uint64_t state_;
};

// Model `index` is made from one stream of numbers, its inputs from another.
enum class Stream { Structure, Inputs };
Rng rng_for(int index, Stream stream) {
  return Rng(kSeed + 2 * static_cast<uint64_t>(index) + (stream == Stream::Inputs ? 1 : 0));
}

// Small integers: values stay exact through a few Adds and Muls, and are easy to read.
// `rows` is the length of a stack.
Array random_array(Rng& rng, Kind kind, int64_t rows) {
  Array a{elem_type(kind), {}, {}};
  if (kind == Kind::Vec) a.shape = {kWidth};
  if (kind == Kind::Stack) a.shape = {rows, kWidth};
  int64_t n = 1;
  for (int64_t d : a.shape) n *= d;
  for (int64_t i = 0; i < n; ++i) {
    if (kind == Kind::Bool)
      a.at.push_back(static_cast<float>(rng.below(2)));
    else if (kind == Kind::Int)
      a.at.push_back(static_cast<float>(rng.below(4)));
    else
      a.at.push_back(static_cast<float>(rng.below(7) - 3));
  }
  return a;
}

// Every model takes the same inputs: two vectors, two conditions and one of each other kind.
std::vector<Var> main_inputs() {
  return {{"in_a", Kind::Vec, ""},    {"in_b", Kind::Vec, ""},  {"in_s", Kind::Scalar, ""},
          {"in_c", Kind::Bool, ""},   {"in_d", Kind::Bool, ""}, {"in_m", Kind::Int, ""},
          {"in_xs", Kind::Stack, "T"}};
}

// What a graph being generated can read: its own values so far, and the values its
// enclosing graphs defined before the node that holds it.
struct Scope {
  Scope* outer = nullptr;  // null for the main graph
  int depth = 0;           // control-flow nodes around this graph
  std::vector<Var> vars;
  std::set<std::string> computed;  // made by a node of this graph
  std::set<std::string> captured;  // read by a graph nested in this one
  std::set<std::string> results;   // made by a control-flow node of this graph
};

// Makes one random model. Every random choice is its own statement: the order in which a
// call's arguments are evaluated is unspecified, and the model must not depend on it.
class Generator {
 public:
  explicit Generator(int index) : rng_(rng_for(index, Stream::Structure)) {}

  Graph main_graph() {
    Graph g{"main", main_inputs(), {}, {}, {}, 0};
    Scope s;
    s.vars = g.inputs;
    add_initializers(g, s, 1 + rng_.below(3));
    // A computed value first, so that the control-flow node after it has one to capture.
    add_plain_node(g, s);
    add_control_flow(g, s);
    add_nodes(g, s, 1 + rng_.below(3));
    // Every value main computes is an output, so that every result gets compared.
    for (const Var& v : s.vars)
      if (s.computed.count(v.name)) g.outputs.push_back(v);
    return g;
  }

 private:
  Var fresh(const std::string& prefix, Kind kind, std::string length = "") {
    return {prefix + std::to_string(next_id_++), kind, std::move(length)};
  }

  Var add_initializer(Graph& g, Scope& s, Kind kind) {
    const int64_t rows = kind == Kind::Stack ? 1 + rng_.below(3) : 0;
    const Var v = fresh("k", kind, kind == Kind::Stack ? "rows" + std::to_string(rows) : "");
    g.initializers.emplace_back(v, random_array(rng_, kind, rows));
    s.vars.push_back(v);
    return v;
  }

  void add_initializers(Graph& g, Scope& s, int count) {
    for (int i = 0; i < count; ++i) add_initializer(g, s, rng_.pick(kAllKinds));
  }

  void add_nodes(Graph& g, Scope& s, int count) {
    for (int i = 0; i < count; ++i) {
      if (s.depth < kMaxDepth && control_flow_left_ > 0 && rng_.chance(45))
        add_control_flow(g, s);
      else
        add_plain_node(g, s);
    }
  }

  // A value of `kind` that `s` can read and `fits` accepts (null: any), if there is one:
  // often one that a nested graph already captures or that a control-flow node made, so
  // that those are read again; often one that an enclosing graph computes, the capture
  // that matters most; otherwise one of a random scope, so that every kind of value of
  // every enclosing scope gets read. A value of an enclosing scope becomes captured there.
  std::optional<Var> find(Scope& s, Kind kind, const std::function<bool(const Var&)>& fits) {
    using Candidate = std::pair<Scope*, const Var*>;
    std::vector<std::vector<Candidate>> by_scope;
    std::vector<Candidate> hot, computed_outside;
    for (Scope* at = &s; at; at = at->outer) {
      std::vector<Candidate> here;
      for (const Var& v : at->vars) {
        if (v.kind != kind || (fits && !fits(v))) continue;
        here.emplace_back(at, &v);
        if (at->captured.count(v.name) || at->results.count(v.name)) hot.emplace_back(at, &v);
        if (at != &s && at->computed.count(v.name)) computed_outside.emplace_back(at, &v);
      }
      if (!here.empty()) by_scope.push_back(std::move(here));
    }
    if (by_scope.empty()) return std::nullopt;
    const int tier = rng_.below(10);
    const std::vector<Candidate>& from = tier < 4 && !hot.empty() ? hot
                                         : tier < 7 && !computed_outside.empty()
                                             ? computed_outside
                                             : rng_.pick(by_scope);
    const auto [scope, var] = rng_.pick(from);
    if (scope != &s) scope->captured.insert(var->name);
    return *var;
  }

  // Every kind has a main input, so there is always a value to read.
  Var read(Scope& s, Kind kind) { return *find(s, kind, nullptr); }

  // A value for a subgraph output of `kind`: mostly one that the graph computes and a graph
  // nested in it captures (the engine computes it in place while the nested graph reads
  // it), else any value in scope, an input or an enclosing graph's value included.
  Var result(Scope& s, Kind kind) {
    std::vector<Var> computed_and_captured;
    for (const Var& v : s.vars)
      if (v.kind == kind && s.computed.count(v.name) && s.captured.count(v.name))
        computed_and_captured.push_back(v);
    if (!computed_and_captured.empty() && rng_.chance(85)) return rng_.pick(computed_and_captured);
    return read(s, kind);
  }

  Var add_node(Graph& g, Scope& s, Op op, const std::vector<Var>& inputs, Kind kind,
               std::string length = "") {
    Node node{op, {}, {fresh("v", kind, std::move(length))}, "", {}, 0};
    for (const Var& v : inputs) node.inputs.push_back(v.name);
    const Var out = node.outputs[0];
    g.nodes.push_back(std::move(node));
    s.vars.push_back(out);
    s.computed.insert(out.name);
    return out;
  }

  void add_plain_node(Graph& g, Scope& s) {
    const Kind number = rng_.chance(75) ? Kind::Vec : Kind::Scalar;
    switch (rng_.below(10)) {
      case 0:
      case 1:
      case 2:
      case 3: {
        const Op op = rng_.pick(std::vector<Op>{Op::Add, Op::Sub, Op::Mul});
        add_node(g, s, op, {read(s, number), read(s, number)}, number);  // read left to right
        break;
      }
      case 4: {
        const Op op = rng_.chance(50) ? Op::Neg : Op::Abs;
        add_node(g, s, op, {read(s, number)}, number);
        break;
      }
      case 5:
      case 6: {
        const Var x = read(s, rng_.pick(kAllKinds));
        add_node(g, s, Op::Identity, {x}, x.kind, x.length);
        break;
      }
      case 7:
        add_node(g, s, Op::ReduceSum, {read(s, Kind::Vec)}, Kind::Scalar);
        break;
      default:
        add_condition(g, s);
    }
  }

  // A new condition computed from data, so that the branch an If takes varies with the
  // inputs and, inside a Loop or Scan, from one iteration to the next. A comparison reads
  // two different values, with a new initializer for the second if need be (x > x is
  // always false).
  Var add_condition(Graph& g, Scope& s) {
    const int choice = rng_.below(3);
    if (choice == 2) return add_node(g, s, Op::Not, {read(s, Kind::Bool)}, Kind::Bool);
    const Kind kind = choice == 0 ? Kind::Scalar : Kind::Int;
    const Var a = read(s, kind);
    std::optional<Var> b = find(s, kind, [&](const Var& v) { return v.name != a.name; });
    if (!b) b = add_initializer(g, s, kind);
    return add_node(g, s, choice == 0 ? Op::Greater : Op::Less, {a, *b}, Kind::Bool);
  }

  void add_control_flow(Graph& g, Scope& s) {
    --control_flow_left_;
    switch (rng_.below(3)) {
      case 0:
        return add_if(g, s);
      case 1:
        return add_loop(g, s);
      default:
        return add_scan(g, s);
    }
  }

  Var condition(Graph& g, Scope& s) {
    return rng_.chance(75) ? add_condition(g, s) : read(s, Kind::Bool);
  }

  // A branch or body: declares `inputs`, adds initializers and nodes (maybe nesting
  // further), then returns values of the `results` kinds, the last `stacked` of them scan
  // outputs.
  Graph subgraph(Scope& outer, std::string name, std::vector<Var> inputs,
                 const std::vector<Kind>& results, size_t stacked) {
    Graph g{std::move(name), std::move(inputs), {}, {}, {}, stacked};
    Scope s{&outer, outer.depth + 1, g.inputs, {}, {}, {}};
    add_initializers(g, s, rng_.below(2));
    add_plain_node(g, s);  // as in main_graph
    add_nodes(g, s, 1 + rng_.below(3));
    for (Kind kind : results) g.outputs.push_back(result(s, kind));
    return g;
  }

  void add_control_node(Graph& g, Scope& s, Node node) {
    for (const Var& v : node.outputs) {
      s.vars.push_back(v);
      s.computed.insert(v.name);
      s.results.insert(v.name);
    }
    g.nodes.push_back(std::move(node));
  }

  void add_if(Graph& g, Scope& s) {
    const Var cond = condition(g, s);
    std::vector<Kind> kinds;
    const int count = 1 + rng_.below(2);
    for (int i = 0; i < count; ++i)
      kinds.push_back(rng_.pick(
          std::vector<Kind>{Kind::Vec, Kind::Vec, Kind::Scalar, Kind::Stack, Kind::Bool}));
    const std::string id = std::to_string(next_id_++);
    Node node{Op::If, {cond.name}, {}, "if" + id, {}, 0};
    node.graphs.push_back(subgraph(s, "then" + id, {}, kinds, 0));
    node.graphs.push_back(subgraph(s, "else" + id, {}, kinds, 0));
    for (size_t i = 0; i < kinds.size(); ++i) {
      // Stacks from the two branches may differ in length.
      const std::string& a = node.graphs[0].outputs[i].length;
      const std::string& b = node.graphs[1].outputs[i].length;
      node.outputs.push_back(
          fresh("v", kinds[i], a == b ? a : "if" + id + "_" + std::to_string(i)));
    }
    add_control_node(g, s, std::move(node));
  }

  // A trip count always (it is what ends the loop), and half the time a condition too,
  // which the body's condition output then updates.
  void add_loop(Graph& g, Scope& s) {
    const Var trip = read(s, Kind::Int);
    std::string cond;
    if (rng_.chance(50)) cond = condition(g, s).name;
    const std::string id = std::to_string(next_id_++);
    Node node{Op::Loop, {trip.name, cond}, {}, "loop" + id, {}, 0};
    std::vector<Var> inputs = {{"iter" + id, Kind::Int, ""}, {"cond" + id, Kind::Bool, ""}};
    std::vector<Kind> results = {Kind::Bool};
    const int carried = 1 + rng_.below(2);
    const int scans = rng_.below(3);
    for (int j = 0; j < carried; ++j) {
      const Kind kind = rng_.chance(70) ? Kind::Vec : Kind::Scalar;
      node.inputs.push_back(read(s, kind).name);
      inputs.push_back({"state" + id + "_" + std::to_string(j), kind, ""});
      results.push_back(kind);
    }
    results.insert(results.end(), static_cast<size_t>(scans), Kind::Vec);
    node.graphs.push_back(subgraph(s, "body" + id, inputs, results, static_cast<size_t>(scans)));
    for (int j = 0; j < carried; ++j) node.outputs.push_back(fresh("v", results[1 + j]));
    for (int k = 0; k < scans; ++k) node.outputs.push_back(fresh("v", Kind::Stack, "loop" + id));
    add_control_node(g, s, std::move(node));
  }

  // One or two scan inputs of the same length (perhaps the same value twice), zero to two
  // state values and zero to two scan outputs, at least one of either.
  void add_scan(Graph& g, Scope& s) {
    std::vector<Var> scanned = {read(s, Kind::Stack)};
    if (rng_.chance(30)) {
      const std::string length = scanned[0].length;
      scanned.push_back(*find(s, Kind::Stack, [&](const Var& v) { return v.length == length; }));
    }
    const int states = rng_.chance(80) ? 1 + rng_.below(2) : 0;
    const int scans = states == 0 ? 1 + rng_.below(2) : rng_.below(3);
    const std::string id = std::to_string(next_id_++);
    Node node{Op::Scan, {}, {}, "scan" + id, {}, static_cast<int64_t>(scanned.size())};
    std::vector<Var> inputs;
    std::vector<Kind> results;
    for (int j = 0; j < states; ++j) {
      const Kind kind = rng_.chance(70) ? Kind::Vec : Kind::Scalar;
      node.inputs.push_back(read(s, kind).name);
      inputs.push_back({"state" + id + "_" + std::to_string(j), kind, ""});
      results.push_back(kind);
    }
    for (size_t j = 0; j < scanned.size(); ++j) {
      node.inputs.push_back(scanned[j].name);
      inputs.push_back({"row" + id + "_" + std::to_string(j), Kind::Vec, ""});
    }
    results.insert(results.end(), static_cast<size_t>(scans), Kind::Vec);
    node.graphs.push_back(subgraph(s, "body" + id, inputs, results, static_cast<size_t>(scans)));
    for (int j = 0; j < states; ++j) node.outputs.push_back(fresh("v", results[j]));
    for (int k = 0; k < scans; ++k)
      node.outputs.push_back(fresh("v", Kind::Stack, scanned[0].length));
    add_control_node(g, s, std::move(node));
  }

  Rng rng_;
  int next_id_ = 1;
  int control_flow_left_ = kMaxControlFlow;
};

// Two input sets for model `index`. The second draws new numbers, flips the conditions and
// changes the trip count, so that an If on an input, or on a comparison with one, takes its
// other branch.
std::vector<std::vector<Array>> input_sets(const Graph& main, int index) {
  Rng rng = rng_for(index, Stream::Inputs);
  std::vector<std::vector<Array>> sets(2);
  for (size_t i = 0; i < main.inputs.size(); ++i) {
    const Kind kind = main.inputs[i].kind;
    for (int set = 0; set < 2; ++set) {
      const int64_t rows = rng.below(4);  // 0 too: a Scan over nothing
      sets[set].push_back(random_array(rng, kind, rows));
    }
    if (kind == Kind::Bool) sets[1].back().at[0] = 1 - sets[0].back().at[0];
    if (kind == Kind::Int) sets[1].back().at[0] = std::fmod(sets[0].back().at[0] + 2, 4);
  }
  return sets;
}

// ---- The ONNX emitter -------------------------------------------------------------------

Tensor to_tensor(const Array& a) {
  if (a.type == ElemType::Bool) return test::boolean(a.shape, {a.at.begin(), a.at.end()});
  if (a.type == ElemType::Int64) {
    std::vector<int64_t> ints;
    for (float x : a.at) ints.push_back(static_cast<int64_t>(x));
    return test::i64(a.shape, ints);
  }
  return test::f32(a.shape, a.at);
}

// The main graph declares the types of its inputs and outputs; a subgraph declares those
// of its inputs and scan outputs only.
GraphBuilder emit(const Graph& g, bool is_main) {
  GraphBuilder b(g.name);
  for (const Var& v : g.inputs) b.input(v.name, elem_type(v.kind), declared_dims(v.kind));
  for (const auto& [v, value] : g.initializers) b.initializer(v.name, to_tensor(value));
  for (const Node& n : g.nodes) {
    std::vector<std::string> outputs;
    for (const Var& v : n.outputs) outputs.push_back(v.name);
    onnxpb::NodeProto& node = b.node(op_name(n.op), n.inputs, outputs, n.name);
    switch (n.op) {
      case Op::ReduceSum:
        test::set_int(node, "keepdims", 0);
        break;
      case Op::If:
        test::set_graph(node, "then_branch", emit(n.graphs[0], false));
        test::set_graph(node, "else_branch", emit(n.graphs[1], false));
        break;
      case Op::Scan:
        test::set_int(node, "num_scan_inputs", n.scan_inputs);
        [[fallthrough]];
      case Op::Loop:
        test::set_graph(node, "body", emit(n.graphs[0], false));
        break;
      default:
        break;
    }
  }
  for (size_t i = 0; i < g.outputs.size(); ++i) {
    const Var& v = g.outputs[i];
    if (is_main)
      b.output(v.name, elem_type(v.kind), declared_dims(v.kind));
    else if (i >= g.outputs.size() - g.stacked)
      b.output(v.name, ElemType::Float, {kWidth});
    else
      b.output_untyped(v.name);
  }
  return b;
}

// ---- The reference interpreter ----------------------------------------------------------

// The values of one running graph, found by name through the enclosing graphs, innermost
// first: ONNX's scoping, spelled out.
struct Frame {
  const Frame* outer;
  std::map<std::string, Array> values;

  const Array& find(const std::string& name) const {
    for (const Frame* f = this; f; f = f->outer) {
      auto it = f->values.find(name);
      if (it != f->values.end()) return it->second;
    }
    throw std::logic_error("the reference finds no value '" + name + "'");
  }
};

Array scalar(ElemType type, float x) { return {type, {}, {x}}; }

template <typename F>
Array map(const Array& a, F f) {
  Array r = a;
  for (float& x : r.at) x = f(x);
  return r;
}

template <typename F>
Array map(const Array& a, const Array& b, F f) {
  if (a.shape != b.shape) throw std::logic_error("the generator mixed shapes");
  Array r = a;
  for (size_t i = 0; i < r.at.size(); ++i) r.at[i] = f(a.at[i], b.at[i]);
  return r;
}

// Vectors stacked along a new axis 0; no vectors make a [0, kWidth] stack.
Array stack(const std::vector<Array>& items) {
  Array r{ElemType::Float, {static_cast<int64_t>(items.size()), kWidth}, {}};
  for (const Array& item : items) r.at.insert(r.at.end(), item.at.begin(), item.at.end());
  return r;
}

Array row(const Array& a, int64_t t) {
  const auto first = a.at.begin() + t * kWidth;
  return {ElemType::Float, {kWidth}, {first, first + kWidth}};
}

class Reference {
 public:
  std::vector<Array> run(const Graph& g, const std::vector<Array>& inputs,
                         const Frame* outer = nullptr) {
    Frame f{outer, {}};
    for (size_t i = 0; i < g.inputs.size(); ++i) f.values[g.inputs[i].name] = inputs[i];
    for (const auto& [v, value] : g.initializers) f.values[v.name] = value;
    for (const Node& n : g.nodes) {
      std::vector<Array> outputs = run_node(n, f);
      for (size_t i = 0; i < outputs.size(); ++i) f.values[n.outputs[i].name] = outputs[i];
    }
    std::vector<Array> outputs;
    for (const Var& v : g.outputs) outputs.push_back(f.find(v.name));
    return outputs;
  }

  // The If nodes that ran their then branch, and those that ran their else branch.
  std::set<std::string> then_ran, else_ran;

 private:
  std::vector<Array> run_node(const Node& n, const Frame& f) {
    auto in = [&](size_t i) -> const Array& { return f.find(n.inputs[i]); };
    switch (n.op) {
      case Op::Add:
        return {map(in(0), in(1), [](float x, float y) { return x + y; })};
      case Op::Sub:
        return {map(in(0), in(1), [](float x, float y) { return x - y; })};
      case Op::Mul:
        return {map(in(0), in(1), [](float x, float y) { return x * y; })};
      case Op::Neg:
        return {map(in(0), [](float x) { return -x; })};
      case Op::Abs:
        return {map(in(0), [](float x) { return std::fabs(x); })};
      case Op::Identity:
        return {in(0)};
      case Op::ReduceSum: {
        float sum = 0;
        for (float x : in(0).at) sum += x;
        return {scalar(ElemType::Float, sum)};
      }
      case Op::Greater:
        return {scalar(ElemType::Bool, in(0).at[0] > in(1).at[0])};
      case Op::Less:
        return {scalar(ElemType::Bool, in(0).at[0] < in(1).at[0])};
      case Op::Not:
        return {scalar(ElemType::Bool, in(0).at[0] == 0)};
      case Op::If: {
        const bool then = in(0).at[0] != 0;
        (then ? then_ran : else_ran).insert(n.name);
        return run(n.graphs[then ? 0 : 1], {}, &f);
      }
      case Op::Loop:
        return run_loop(n, f);
      case Op::Scan:
        return run_scan(n, f);
    }
    throw std::logic_error("no such op");
  }

  // Runs while the iteration number is below the trip count and the condition holds; the
  // body's condition output counts only when the Loop has a condition input.
  std::vector<Array> run_loop(const Node& n, const Frame& f) {
    const Graph& body = n.graphs[0];
    const auto trip = static_cast<int64_t>(f.find(n.inputs[0]).at[0]);
    const bool has_cond = !n.inputs[1].empty();
    bool cond = !has_cond || f.find(n.inputs[1]).at[0] != 0;
    std::vector<Array> carried;
    for (size_t j = 2; j < n.inputs.size(); ++j) carried.push_back(f.find(n.inputs[j]));
    std::vector<std::vector<Array>> scans(body.stacked);
    for (int64_t i = 0; i < trip && cond; ++i) {
      std::vector<Array> args = {scalar(ElemType::Int64, static_cast<float>(i)),
                                 scalar(ElemType::Bool, cond)};
      args.insert(args.end(), carried.begin(), carried.end());
      const std::vector<Array> outputs = run(body, args, &f);
      if (has_cond) cond = outputs[0].at[0] != 0;
      for (size_t j = 0; j < carried.size(); ++j) carried[j] = outputs[1 + j];
      for (size_t k = 0; k < scans.size(); ++k) scans[k].push_back(outputs[1 + carried.size() + k]);
    }
    for (const auto& items : scans) carried.push_back(stack(items));
    return carried;
  }

  // Scan from opset 9 on, with the default axes and directions: every scan input is
  // sliced along axis 0, every scan output stacked along axis 0.
  std::vector<Array> run_scan(const Node& n, const Frame& f) {
    const Graph& body = n.graphs[0];
    const size_t first_scanned = n.inputs.size() - static_cast<size_t>(n.scan_inputs);
    std::vector<Array> states;
    for (size_t j = 0; j < first_scanned; ++j) states.push_back(f.find(n.inputs[j]));
    const int64_t length = f.find(n.inputs[first_scanned]).shape[0];
    std::vector<std::vector<Array>> scans(body.stacked);
    for (int64_t t = 0; t < length; ++t) {
      std::vector<Array> args = states;
      for (size_t j = first_scanned; j < n.inputs.size(); ++j) {
        const Array& scanned = f.find(n.inputs[j]);
        if (scanned.shape[0] != length) throw std::logic_error("the generator mixed lengths");
        args.push_back(row(scanned, t));
      }
      const std::vector<Array> outputs = run(body, args, &f);
      for (size_t j = 0; j < states.size(); ++j) states[j] = outputs[j];
      for (size_t k = 0; k < scans.size(); ++k) scans[k].push_back(outputs[states.size() + k]);
    }
    for (const auto& items : scans) states.push_back(stack(items));
    return states;
  }
};

// ---- The tests ----------------------------------------------------------------------------

Array to_array(const Tensor& t) {
  Array a{t.type(), t.shape().vec(), {}};
  for (int64_t i = 0; i < t.numel(); ++i) a.at.push_back(static_cast<float>(t.get_double(i)));
  return a;
}

// Exactly equal; NaN equals NaN (a Mul in a Loop may overflow, the same way in both).
bool same(const Array& a, const Array& b) {
  if (a.type != b.type || a.shape != b.shape) return false;
  for (size_t i = 0; i < a.at.size(); ++i)
    if (a.at[i] != b.at[i] && !(std::isnan(a.at[i]) && std::isnan(b.at[i]))) return false;
  return true;
}

class RandomNest : public ::testing::TestWithParam<int> {};

TEST_P(RandomNest, BoughAgreesWithTheReference) {
  const int index = GetParam();
  const Graph model = Generator(index).main_graph();
  const std::string path =
      test::save_model(test::make_model(emit(model, true), 17, 8),
                       test::scratch_dir("random_nest_" + std::to_string(index)), "model.onnx");
  SCOPED_TRACE("model " + std::to_string(index) + " (seed " + std::to_string(kSeed) +
               "), saved as " + path + ":\n" + dump(model));
  const std::vector<std::vector<Array>> inputs = input_sets(model, index);
  std::string stage = "loading";
  try {
    Session session(Model::load(path));
    for (size_t set = 0; set < inputs.size(); ++set) {
      NamedValues feeds;
      std::string shown;
      for (size_t i = 0; i < model.inputs.size(); ++i) {
        feeds.emplace_back(model.inputs[i].name, to_tensor(inputs[set][i]));
        shown += "\n  " + model.inputs[i].name + " = " + show(inputs[set][i]);
      }
      const std::vector<Array> expected = Reference().run(model, inputs[set]);
      // The second run on the same inputs must not see anything the first left behind.
      for (int run = 1; run <= 2; ++run) {
        stage = "run " + std::to_string(run) + " on input set " + std::to_string(set) + shown;
        const NamedValues actual = session.run(feeds);
        ASSERT_EQ(actual.size(), expected.size());
        std::string wrong;
        for (size_t o = 0; o < expected.size(); ++o) {
          const Value& v = actual[o].second;
          if (v.is_tensor() && same(to_array(v.tensor()), expected[o])) continue;
          wrong += "\n  " + actual[o].first + " = " +
                   (v.is_tensor() ? show(to_array(v.tensor())) : describe(v)) +
                   ", the reference says " + show(expected[o]);
        }
        EXPECT_TRUE(wrong.empty()) << stage << "\ngives" << wrong;
      }
    }
  } catch (const Error& e) {
    ADD_FAILURE() << "bough failed at " << stage << "\n" << e.what();
  }
}

INSTANTIATE_TEST_SUITE_P(Seeded, RandomNest, ::testing::Range(0, kModels),
                         [](const ::testing::TestParamInfo<int>& info) {
                           return "model_" + std::to_string(info.param);
                         });

// Names that `g` reads anywhere, in its nested graphs too.
void names_read(const Graph& g, std::set<std::string>& names) {
  for (const Node& n : g.nodes) {
    for (const std::string& name : n.inputs) names.insert(name);
    for (const Graph& sub : n.graphs) names_read(sub, names);
  }
  for (const Var& v : g.outputs) names.insert(v.name);
}

int depth(const Graph& g) {
  int d = 0;
  for (const Node& n : g.nodes)
    for (const Graph& sub : n.graphs) d = std::max(d, 1 + depth(sub));
  return d;
}

// Notes in `found` each nest where a graph nested in `g` reads a value that `g` computes
// and hands on to the next iteration or out of its owner: a branch output, a Loop's
// carried value, a Scan's state (the engine computes those in place, straight into the
// owner's values). "If in Loop" for an If node of a Loop body whose branches read one,
// "at depth 3" for the depth of the If's branches (the main graph has depth 0). `owner` is
// null for the main graph.
void find_captured_outputs(const Graph& g, const Node* owner, int g_depth,
                           std::set<std::string>& found) {
  std::set<std::string> handed_on;
  if (owner) {
    const size_t first = owner->op == Op::Loop ? 1 : 0;  // after the Loop's condition
    for (size_t i = first; i < g.outputs.size() - g.stacked; ++i)
      handed_on.insert(g.outputs[i].name);
  }
  std::set<std::string> computed;
  for (const Node& n : g.nodes)
    for (const Var& v : n.outputs) computed.insert(v.name);
  for (const Node& n : g.nodes) {
    std::set<std::string> read;
    for (const Graph& sub : n.graphs) {
      names_read(sub, read);
      find_captured_outputs(sub, &n, g_depth + 1, found);
    }
    const bool hit = std::any_of(handed_on.begin(), handed_on.end(), [&](const std::string& name) {
      return computed.count(name) && read.count(name);
    });
    if (hit) {
      found.insert(std::string(op_name(n.op)) + " in " + op_name(owner->op));
      found.insert("at depth " + std::to_string(g_depth + 1));
    }
  }
}

// The generator must keep making what this test is for: in many models, a graph nested in
// another reads a value that the other computes and returns, for each pairing of control-
// flow nodes and down to depth 4; and the conditions must vary, so that Ifs run both
// branches.
TEST(RandomNests, GeneratorCoversTheCasesThatMatter) {
  std::map<std::string, int> models_with;
  size_t ifs_run = 0, ifs_run_both_ways = 0;
  for (int index = 0; index < kModels; ++index) {
    const Graph model = Generator(index).main_graph();
    std::set<std::string> found = {"depth " + std::to_string(depth(model))};
    find_captured_outputs(model, nullptr, 0, found);
    for (const std::string& f : found) ++models_with[f];
    Reference reference;
    for (const std::vector<Array>& inputs : input_sets(model, index)) reference.run(model, inputs);
    std::set<std::string> ran = reference.then_ran;
    ran.insert(reference.else_ran.begin(), reference.else_ran.end());
    ifs_run += ran.size();
    for (const std::string& name : reference.then_ran)
      ifs_run_both_ways += reference.else_ran.count(name);
  }
  std::string table;
  for (const auto& [what, count] : models_with)
    table += "\n  " + what + ": " + std::to_string(count);
  table += "\n  Ifs run: " + std::to_string(ifs_run) +
           ", both ways: " + std::to_string(ifs_run_both_ways);
  RecordProperty("coverage", table);
  for (const char* nest : {"If in If", "If in Loop", "If in Scan", "Loop in If", "Scan in Loop",
                           "at depth 3", "at depth 4"})
    EXPECT_GE(models_with[nest], 15) << nest << " in too few models:" << table;
  EXPECT_GE(ifs_run_both_ways * 5, ifs_run) << "too few Ifs run both branches:" << table;
}

}  // namespace
}  // namespace bough
