// Running a model: a Session compiles the model's plan once and runs it many times.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "bough/model.h"
#include "bough/tensor.h"

namespace bough {

struct SessionOptions {
  int threads = 1;  // threads for kernels that split their work (the caller's thread included)
  // A model importing an opset newer than bough knows is refused unless this is set; then
  // its operators run as the newest version bough knows defines them.
  bool allow_newer_opset = false;
};

using NamedValues = std::vector<std::pair<std::string, Value>>;

// One run at a time per Session; create one Session per thread to run concurrently.
class Session {
 public:
  explicit Session(const Model& model, SessionOptions options = {});
  ~Session();
  Session(Session&&) noexcept;
  Session& operator=(Session&&) noexcept;

  // Inputs by name (an input with a default value may be left out); outputs in graph order.
  // Inputs are read in place and never written. The outputs belong to the caller: none
  // shares a buffer with the model's constants, with an input or with another output (one
  // that would is copied), so writing into an output changes nothing else.
  NamedValues run(const NamedValues& inputs);
  const std::vector<std::string>& input_names() const;
  const std::vector<std::string>& output_names() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace bough
