/// @file
/// Running a model: a Session compiles the model's plan once and runs it many times.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "bough/export.h"
#include "bough/model.h"
#include "bough/value.h"

namespace bough {

/// Which graph passes a session runs on its own copy of the model before planning it:
/// none; basic (folding constants and constant Ifs, dead code and the other passes of
/// `bough optimize --list`, to a fixed point: what `bough optimize` writes by default, a model
/// any ONNX runtime reads); all, the default (basic plus the fusions, some into ONNX Runtime's
/// com.microsoft operators: faster, and private to the session).
enum class Optimization { none, basic, all };

/// How a Session runs its model.
struct SessionOptions {
  /// Threads for kernels that split their work, the caller's thread included. 0, the
  /// default: one per physical core this process may run on, as ONNX Runtime's
  /// intra_op_num_threads = 0 (work too small to gain from a thread stays on fewer: see
  /// docs/threads.md); 1: the caller's thread alone. Negative is an error.
  int threads = 0;
  /// A model importing an opset newer than bough knows is refused unless this is set; then
  /// its operators run as the newest version bough knows defines them.
  bool allow_newer_opset = false;
  Optimization optimization = Optimization::all;  ///< the passes run before planning
  /// A run taking longer than this many seconds stops with ErrorKind::Stopped; 0: no limit.
  /// Checked before every node and every iteration, so a single long kernel finishes first.
  double time_limit_seconds = 0;
  /// A run that would make the process hold more than this many bytes in tensor buffers
  /// over 8 KiB (those of other runs and the caller's included) stops with
  /// ErrorKind::Stopped, naming the node; 0: no limit.
  size_t memory_limit_bytes = 0;
};

/// Values with their names: a run's inputs, or its outputs in graph order.
using NamedValues = std::vector<std::pair<std::string, Value>>;

/// One dimension of a declared or inferred shape: a size, a symbol (a size named in the model,
/// such as "batch"), or unknown (neither).
struct Dim {
  int64_t size = -1;   ///< -1 when not a fixed size
  std::string symbol;  ///< the dimension's name in the model ("batch"), or empty
  /// True for a fixed size.
  bool known() const { return size >= 0; }
};

/// What a model takes at one input or gives at one output, as the check infers it.
struct ValueInfo {
  std::string name;  ///< the input's or output's name in the graph
  /// The whole type as ONNX spells it, shape included: "tensor(float)[N,3]",
  /// "seq(tensor(int64))", "optional(tensor(float)[2])"; "?" when nothing is known.
  std::string type;
  /// For a tensor, its element type and shape (Undefined and unranked when not known);
  /// for a sequence or an optional, those of the tensors it holds.
  ElemType elem = ElemType::Undefined;
  bool rank_known = false;  ///< whether `shape` holds the dimensions
  std::vector<Dim> shape;   ///< one Dim per axis, when rank_known
  /// For an input: the model gives it a default value (an initializer of the same name),
  /// so a run may leave it out. ONNX Runtime calls these overridable initializers.
  bool has_default = false;
};

/// A tensor a node read or wrote in a profiled run.
struct ProfiledTensor {
  ElemType elem = ElemType::Undefined;
  std::vector<int64_t> dims;
  int64_t bytes = 0;      ///< its data; a string counts as sizeof(std::string), as in ORT
  bool constant = false;  ///< an input that is a model constant: ONNX Runtime's parameter
};

/// One node's run, as Session::run_profiled records it.
struct NodeTiming {
  /// The node's place: `main/Loop "loop"/body/If "gate"/then_branch/Add "add_1"`.
  std::string place;
  std::string op;           ///< its operator; `domain.Op` outside the default domain
  int64_t start_ns = 0;     ///< when it started, from the start of the run
  int64_t duration_ns = 0;  ///< how long it took, the nodes of its subgraphs included
  int64_t self_ns = 0;      ///< how long it took without the nodes of its subgraphs
  int depth = 0;            ///< 0 for the main graph's nodes, 1 inside their subgraphs, ...
  /// The tensors among its inputs (those of the node itself, not the values its subgraphs
  /// read from outside) and among its outputs, in order; what is not a tensor (a sequence,
  /// an absent optional input) is left out, as ONNX Runtime's profiler leaves it out.
  std::vector<ProfiledTensor> inputs, outputs;
};

/// What Session::run_profiled measured of one run.
struct RunProfile {
  int64_t run_ns = 0;  ///< the whole run, as long as run() would have taken plus the timing
  /// One per node run, in the order they finish: a node in a Loop body once per iteration,
  /// a branch's nodes when it is taken.
  std::vector<NodeTiming> nodes;
};

/// A model checked and compiled once, to be run many times. One run at a time per Session;
/// create one Session per thread to run concurrently.
class BOUGH_API Session {
 public:
  /// Checks the model (throws bough::Error with the first error, naming the model and the
  /// node) and compiles its plan.
  explicit Session(const Model& model, SessionOptions options = {});
  /// The same, taking the caller's Model: when no other Model shares it, the session is its
  /// last owner and frees each weight that every reader prepared while the plan is built,
  /// so that a weight and its prepared form are not both held at the peak.
  explicit Session(Model&& model, SessionOptions options = {});
  ~Session();
  /// Sessions move; they do not copy.
  Session(Session&&) noexcept;
  /// Takes over another session's model and plan.
  Session& operator=(Session&&) noexcept;

  /// Inputs by name (an input with a default value may be left out); outputs in graph order.
  /// Inputs are read in place and never written. The outputs belong to the caller: none
  /// shares a buffer with the model's constants, with an input or with another output (one
  /// that would is copied), so writing into an output changes nothing else.
  NamedValues run(const NamedValues& inputs);
  /// Runs like run() and measures the run and each node in it into `profile` (replacing what
  /// it held). Timing and recording each node's tensors add about 170 ns per node of two
  /// inputs and one output (docs/bench/profile-cost.md); run() pays nothing for either.
  NamedValues run_profiled(const NamedValues& inputs, RunProfile& profile);
  /// A stateful model's variables (OpenVINO's ReadValue and Assign) keep what one run's
  /// Assigns wrote for the next run of this session (not of other sessions); a run that
  /// fails changes none of them. This sets every variable back to its initial value: the
  /// next run's ReadValues return their init_value (or zeros), as on the first run.
  void reset_state();
  /// Stops the run in progress (from another thread) with ErrorKind::Stopped at its next
  /// node or iteration; the session stays usable. Does nothing when no run is in progress.
  void cancel();
  /// The graph's input names, those with a default value included.
  const std::vector<std::string>& input_names() const;
  /// The graph's output names, in order.
  const std::vector<std::string>& output_names() const;
  /// The inputs with their types and shapes, declared or inferred.
  const std::vector<ValueInfo>& inputs() const;
  /// The outputs with their types and shapes, declared or inferred.
  const std::vector<ValueInfo>& outputs() const;
  /// What the check warned of (`place: message`), which does not stop a run: a declared
  /// shape the computation contradicts, a type outside an old version's list that the
  /// kernel handles, nodes out of order.
  const std::vector<std::string>& warnings() const;
  /// The threads its kernels may use, the caller's included: SessionOptions::threads, or
  /// the physical cores when that was 0.
  int threads() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace bough
