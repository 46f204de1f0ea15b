#include "serve/model_repository.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "bough/error.h"

namespace bough::serve {

namespace fs = std::filesystem;

namespace {

// A version folder's name: digits without a leading zero, below 2^63.
bool is_version(const std::string& name) {
  if (name.empty() || name.size() > 18 || name[0] == '0') return false;
  return std::all_of(name.begin(), name.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::string model_file(const fs::path& version_dir) {
  const bool onnx = fs::is_regular_file(version_dir / "model.onnx");
  const bool xml = fs::is_regular_file(version_dir / "model.xml");
  if (onnx == xml)
    fail(ErrorKind::IO, version_dir.string(),
         onnx ? "holds both model.onnx and model.xml; keep one"
              : "holds neither model.onnx nor model.xml");
  return (version_dir / (onnx ? "model.onnx" : "model.xml")).string();
}

int int_in(const nlohmann::json& value, const std::string& key, const std::string& path,
           int64_t low, int64_t high) {
  if (!value.is_number_integer() || value.get<int64_t>() < low || value.get<int64_t>() > high)
    fail(ErrorKind::InvalidModel, path,
         "\"" + key + "\" must be a whole number from " + std::to_string(low) + " to " +
             std::to_string(high) + ", got " + value.dump());
  return value.get<int>();
}

}  // namespace

ModelConfig read_config(const std::string& path, const ModelConfig& defaults) {
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(ErrorKind::IO, path, "cannot be read");
  std::stringstream text;
  text << in.rdbuf();
  const nlohmann::json json = nlohmann::json::parse(text.str(), nullptr, false);
  if (json.is_discarded() || !json.is_object())
    fail(ErrorKind::InvalidModel, path, "is not a JSON object");
  ModelConfig config = defaults;
  for (const auto& [key, value] : json.items()) {
    if (key == "instances")
      config.instances = int_in(value, key, path, 1, 1024);
    else if (key == "threads")
      config.threads = int_in(value, key, path, 1, 1024);
    else if (key == "max_batch_size")
      config.max_batch_size = int_in(value, key, path, 0, kMaxBatchSize);
    else if (key == "batch_delay_us")
      config.batch_delay_us = int_in(value, key, path, 0, kMaxBatchDelayUs);
    else
      fail(ErrorKind::InvalidModel, path,
           "unknown key \"" + key +
               "\" (known: instances, threads, max_batch_size, batch_delay_us)");
  }
  return config;
}

std::vector<std::string> model_names(const std::string& dir) {
  if (!fs::is_directory(dir)) fail(ErrorKind::IO, dir, "is not a folder");
  std::vector<std::string> names;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (entry.is_directory() && !name.starts_with(".")) names.push_back(name);
  }
  std::sort(names.begin(), names.end());
  return names;
}

ModelSource model_source(const std::string& dir, const std::string& name,
                         const ModelConfig& defaults) {
  const fs::path folder = fs::path(dir) / name;
  std::string newest;
  for (const fs::directory_entry& version : fs::directory_iterator(folder)) {
    const std::string v = version.path().filename().string();
    if (!version.is_directory() || !is_version(v)) continue;
    if (newest.empty() || v.size() > newest.size() || (v.size() == newest.size() && v > newest))
      newest = v;
  }
  if (newest.empty()) fail(ErrorKind::IO, folder.string(), "has no version folder (1, 2, ...)");
  const fs::path config = folder / "config.json";
  return {name, newest, model_file(folder / newest),
          fs::exists(config) ? read_config(config.string(), defaults) : defaults};
}

std::vector<ModelSource> scan_repository(const std::string& dir, const ModelConfig& defaults) {
  std::vector<ModelSource> models;
  for (const std::string& name : model_names(dir))
    models.push_back(model_source(dir, name, defaults));
  if (models.empty()) fail(ErrorKind::IO, dir, "holds no model folder");
  return models;
}

ModelSource single_model(const std::string& path, const ModelConfig& defaults) {
  if (!fs::is_regular_file(path)) fail(ErrorKind::IO, path, "is not a file");
  return {fs::path(path).stem().string(), "1", path, defaults};
}

std::vector<std::string> ModelCatalog::names() const {
  if (repository.empty()) return {single.name};
  return model_names(repository);
}

ModelSource ModelCatalog::source(const std::string& name) const {
  if (repository.empty()) {
    if (name != single.name)
      fail(ErrorKind::IO, single.path, "is the only model served; it is called " + single.name);
    return single;
  }
  // A name is one folder of the repository, never a path out of it.
  if (name.empty() || name.starts_with(".") || name.find('/') != std::string::npos ||
      !fs::is_directory(fs::path(repository) / name))
    fail(ErrorKind::IO, repository, "holds no model folder '" + name + "'");
  return model_source(repository, name, defaults);
}

}  // namespace bough::serve
