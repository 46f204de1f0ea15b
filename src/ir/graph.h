// The core IR: a Model owns a main Graph; a Graph owns its Nodes and Edges; a Node's
// graph attributes own their subgraphs. An Edge is a graph value: one definition (a graph
// input, an initializer, a node output or a capture) read by any number of nodes. (The
// run-time value that flows along it is bough::Value.)
//
// Every subgraph is closed: a value it reads from an enclosing scope is one of its
// `captures`, an Edge whose `outer` points at the edge in the parent graph, and the owning
// Node lists that parent edge among its `implicit_inputs`. Nodes hold pointers to edges;
// names are labels for diagnostics and for writing files back.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "bough/value.h"
#include "ir/types.h"

namespace bough::ir {

class Graph;
struct Node;

using Metadata = std::vector<std::pair<std::string, std::string>>;

struct Edge {
  enum class Origin : uint8_t { Input, Initializer, NodeOutput, Capture };
  std::string name;
  Type type;  // may be undefined when nothing declares it
  Origin origin = Origin::NodeOutput;
  Graph* graph = nullptr;      // the graph this value belongs to
  Node* producer = nullptr;    // for node outputs
  int producer_index = 0;      // which output of the producer
  Edge* outer = nullptr;       // for captures: the value in the parent graph
  std::optional<Tensor> data;  // initializers, and graph inputs with a default value
  std::string doc_string;
  Metadata metadata;
  bool has_value_info = false;  // type was declared (input/output/value_info), not inferred
};

struct Attribute {
  enum class Kind : uint8_t {
    Undefined,
    Float,
    Int,
    String,
    Tensor,
    Graph,
    SparseTensor,
    TypeProto,
    Floats,
    Ints,
    Strings,
    Tensors,
    Graphs,
    SparseTensors,
    TypeProtos
  };
  std::string name;
  Kind kind = Kind::Undefined;
  std::string ref_attr_name;  // inside functions: refers to the caller's attribute
  std::string doc_string;
  float f = 0;
  int64_t i = 0;
  std::string s;
  Tensor t;
  std::unique_ptr<Graph> g;
  Type tp;
  std::vector<float> floats;
  std::vector<int64_t> ints;
  std::vector<std::string> strings;
  std::vector<Tensor> tensors;
  std::vector<std::unique_ptr<Graph>> graphs;
  std::vector<Type> type_protos;
};

// "an int", "a graph", "floats": an attribute kind in prose, for messages.
std::string describe(Attribute::Kind kind);

struct Node {
  std::string op_type;
  std::string domain;  // "" is ai.onnx
  std::string name;
  std::string overload;
  std::vector<Edge*> inputs;           // nullptr for an omitted optional input
  std::vector<Edge*> outputs;          // nullptr for an omitted optional output
  std::vector<Edge*> implicit_inputs;  // parent values read by this node's subgraphs
  std::vector<Attribute> attributes;
  std::string doc_string;
  Metadata metadata;
  Graph* graph = nullptr;

  const Attribute* attr(std::string_view name) const;
  // "If \"gate\"" or just "If" when the node has no name.
  std::string label() const;
};

class Graph {
 public:
  std::string name;
  std::string doc_string;
  Metadata metadata;
  Graph* parent = nullptr;  // enclosing graph, for subgraphs
  Node* owner = nullptr;    // the node whose attribute this graph is
  std::string owner_attr;   // "then_branch", "body", ...
  bool is_function_body = false;

  std::vector<Edge*> inputs;
  std::vector<Edge*> outputs;
  std::vector<Edge*> initializers;           // in file order
  std::vector<Edge*> captures;               // values read from enclosing graphs
  std::vector<std::unique_ptr<Node>> nodes;  // topological order
  // Set by the reader when the file lists a node before the node that makes a value it reads
  // (directly or in a subgraph): the first such reader's label, the value and its maker's
  // label. ONNX requires nodes in topological order; the reader sorts them all the same, and
  // the check reports this. Labels, not pointers: passes may delete the nodes.
  struct EarlyRead {
    std::string reader, value, maker;
  };
  std::optional<EarlyRead> early_read;

  Edge* new_edge(std::string name, Edge::Origin origin);
  Node* new_node(std::string op_type, std::string domain = "");
  const std::vector<std::unique_ptr<Edge>>& edges() const { return edges_; }
  // Place of this graph for diagnostics: `main/If "gate"/then_branch`.
  std::string path() const;

 private:
  std::vector<std::unique_ptr<Edge>> edges_;
};

// An attribute a model-local function declares, possibly with a default.
struct Function {
  std::string name;
  std::string domain;
  std::string overload;
  std::vector<std::string> attribute_names;  // attributes without defaults
  std::vector<Attribute> attribute_defaults;
  std::map<std::string, int64_t> opset_imports;
  std::unique_ptr<Graph> body;  // inputs/outputs are the function's formal parameters
  std::string doc_string;
  Metadata metadata;
};

struct Model {
  int64_t ir_version = 0;
  std::vector<std::pair<std::string, int64_t>> opset_imports;  // in file order
  std::string producer_name;
  std::string producer_version;
  std::string domain;
  int64_t model_version = 0;
  std::string doc_string;
  Metadata metadata;
  std::unique_ptr<Graph> graph;
  std::vector<std::unique_ptr<Function>> functions;
  std::string path;  // the file it was read from, for diagnostics

  // The opset version imported for a domain ("" and "ai.onnx" are the same), 0 if none.
  int64_t opset(std::string_view domain) const;
};

}  // namespace bough::ir
