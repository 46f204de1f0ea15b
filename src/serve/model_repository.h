// Finding the models to serve: a repository in Triton's layout (DIR/NAME/VERSION/model.onnx,
// or model.xml with model.bin) with an optional DIR/NAME/config.json, or one model file.
#pragma once

#include <string>
#include <vector>

namespace bough::serve {

// The largest max_batch_size and batch_delay_us (10 s) config.json and the options take.
inline constexpr int kMaxBatchSize = 1 << 20;
inline constexpr int kMaxBatchDelayUs = 10'000'000;

// How a model is served (config.json's keys, or the command line's defaults).
struct ModelConfig {
  int instances = 1;       // sessions that run requests at once
  int threads = 1;         // kernel threads per run
  int max_batch_size = 0;  // rows a dynamic batch may stack; 0 or 1: no batching
  int batch_delay_us = 0;  // how long a batch's first request waits for others
};

// One model version to load.
struct ModelSource {
  std::string name;
  std::string version;  // a positive whole number, as the folder spells it
  std::string path;     // model.onnx or model.xml
  ModelConfig config;
};

// The model folders of `dir` (every folder whose name does not start with a dot), sorted.
// Error(IO) when `dir` is not a folder.
std::vector<std::string> model_names(const std::string& dir);

// The newest version of the model `name` of `dir`: Error(IO or InvalidModel) as scan_repository.
ModelSource model_source(const std::string& dir, const std::string& name,
                         const ModelConfig& defaults);

// The newest version of every model in `dir` (Triton's default version policy). Folders under
// a model that are not whole numbers are ignored, as Triton does; a model without a version,
// a version without exactly one of model.onnx and model.xml, or a bad config.json is an
// Error(IO or InvalidModel) naming the path. `defaults` applies where config.json says nothing.
std::vector<ModelSource> scan_repository(const std::string& dir, const ModelConfig& defaults);

// One model file served as version 1 under its file name without the extension.
ModelSource single_model(const std::string& path, const ModelConfig& defaults);

// Where the models come from: a repository folder, or one model file.
struct ModelCatalog {
  std::string repository;  // empty: `single` is the only model
  ModelSource single;
  ModelConfig defaults;

  // The models one can load: the repository's model folders, or the single model's name.
  std::vector<std::string> names() const;
  // The model `name`, read afresh (a repository's newest version now); Error(IO) naming the
  // repository for a name it does not hold, and the errors of model_source.
  ModelSource source(const std::string& name) const;
};

// Reads config.json: {"instances": N, "threads": N, "max_batch_size": N, "batch_delay_us": N},
// each optional (instances and threads at least 1, the others at least 0); any other key is an
// error, so that a misspelled one is not silently ignored.
ModelConfig read_config(const std::string& path, const ModelConfig& defaults);

}  // namespace bough::serve
