#include "formats/openvino_corpus.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <pugixml.hpp>
#include <sstream>
#include <stdexcept>

#include "bough/error.h"
#include "bough/model_tools.h"
#include "formats/onnx/reader.h"
#include "formats/onnx/writer.h"
#include "formats/openvino/reader.h"
#include "formats/openvino/writer.h"
#include "ir/float_formats.h"
#include "util/compare.h"

namespace bough::test {

namespace {

std::string trimmed(const std::string& s) {
  size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  std::stringstream in(s);
  for (std::string part; std::getline(in, part, sep);) parts.push_back(trimmed(part));
  return parts;
}

// The bytes of one value of the OpenVINO element type `type` (f32, f16, bf16, f64, the
// integer types, boolean).
std::string value_bytes(const std::string& type, double v) {
  auto raw = [](auto x) { return std::string(reinterpret_cast<const char*>(&x), sizeof(x)); };
  if (type == "f32") return raw(static_cast<float>(v));
  if (type == "f16") return raw(float_to_half(static_cast<float>(v)));
  if (type == "bf16") return raw(float_to_bfloat16(static_cast<float>(v)));
  if (type == "f64") return raw(v);
  const auto i = static_cast<int64_t>(v);
  if (type == "i64" || type == "u64") return raw(i);
  if (type == "i32" || type == "u32") return raw(static_cast<int32_t>(i));
  if (type == "i16" || type == "u16") return raw(static_cast<int16_t>(i));
  if (type == "i8" || type == "u8" || type == "boolean") return raw(static_cast<int8_t>(i));
  throw std::runtime_error("no values of element type " + type + " in the manifest");
}

std::string raw_int32(int32_t v) { return std::string(reinterpret_cast<const char*>(&v), 4); }

int64_t value_size(const std::string& type) {
  if (type == "f64" || type == "i64" || type == "u64") return 8;
  if (type == "f32" || type == "i32" || type == "u32") return 4;
  if (type == "f16" || type == "bf16" || type == "i16" || type == "u16") return 2;
  if (type == "i8" || type == "u8" || type == "boolean") return 1;
  return 0;  // packed sub-byte types and strings: filled byte by byte
}

// `TYPE=V,V` or `LAYER=V,V`: the name and the values.
std::pair<std::string, std::vector<double>> assignment(const std::string& text) {
  size_t eq = text.find('=');
  if (eq == std::string::npos) throw std::runtime_error("expected NAME=VALUES: " + text);
  std::vector<double> values;
  for (const std::string& v : split(text.substr(eq + 1), ',')) {
    size_t star = v.find('*');  // V*N: N copies of V
    const int64_t n = star == std::string::npos ? 1 : std::stoll(v.substr(star + 1));
    values.insert(values.end(), static_cast<size_t>(n), std::stod(v.substr(0, star)));
  }
  return {trimmed(text.substr(0, eq)), values};
}

// Stand-in values: small, varied, exact in f16, the same on every run.
double pattern(int64_t k, int64_t seed, const std::string& type) {
  if (type == "boolean") return 1;
  if (!type.empty() && (type[0] == 'f' || type == "bf16"))
    return static_cast<double>((k * 37 + seed) % 41 - 20) / 64;
  return static_cast<double>(k % 3);
}

std::string auto_weights(const std::string& overrides, const std::string& xml) {
  std::map<std::string, std::vector<double>> given;
  for (const std::string& part : split(overrides, ';'))
    if (!part.empty()) given.insert(assignment(part));
  pugi::xml_document doc;
  if (!doc.load_buffer(xml.data(), xml.size()))
    throw std::runtime_error("the XML does not parse for its weights");
  std::string bin;
  for (pugi::xpath_node n : doc.select_nodes("//layer[@type='Const']")) {
    pugi::xml_node layer = n.node(), data = layer.child("data");
    const std::string type = data.attribute("element_type").value();
    const int64_t offset = data.attribute("offset").as_llong();
    const int64_t size = data.attribute("size").as_llong();
    if (static_cast<int64_t>(bin.size()) < offset + size) bin.resize(offset + size, '\0');
    auto it = given.find(layer.attribute("name").value());
    const int64_t width = value_size(type);
    std::string bytes;
    if (it != given.end()) {
      for (double v : it->second) bytes += value_bytes(type, v);
      given.erase(it);
    } else if (width == 0) {
      for (int64_t k = 0; k < size; ++k) bytes += static_cast<char>((k * 37 + 11) % 256);
    } else {
      for (int64_t k = 0; k < size / width; ++k)
        bytes += value_bytes(type, pattern(k, offset, type));
    }
    if (static_cast<int64_t>(bytes.size()) > size)
      throw std::runtime_error(std::string("too many values for ") +
                               layer.attribute("name").value());
    std::memcpy(bin.data() + offset, bytes.data(), bytes.size());
  }
  if (!given.empty()) throw std::runtime_error("no Const layer named " + given.begin()->first);
  return bin;
}

double input_value(int64_t i, ElemType t) {
  switch (t) {
    case ElemType::Float:
    case ElemType::Double:
    case ElemType::Float16:
    case ElemType::BFloat16:
      return static_cast<double>((i * 37) % 23 - 11) / 8;
    case ElemType::Bool:
      return i % 3 == 0;
    case ElemType::UInt8:  // also OpenVINO's u1, one value a byte
      return static_cast<double>(i % 2);
    default:
      return static_cast<double>(i % 5);
  }
}

void fill(Tensor& t) {
  for (int64_t i = 0; i < t.numel(); ++i) {
    const double v = input_value(i, t.type());
    switch (t.type()) {
      case ElemType::Float:
        t.data<float>()[i] = static_cast<float>(v);
        break;
      case ElemType::Double:
        t.data<double>()[i] = v;
        break;
      case ElemType::Float16:
        t.data<uint16_t>()[i] = float_to_half(static_cast<float>(v));
        break;
      case ElemType::BFloat16:
        t.data<uint16_t>()[i] = float_to_bfloat16(static_cast<float>(v));
        break;
      case ElemType::Bool:
        t.data<bool>()[i] = v != 0;
        break;
      case ElemType::UInt8:
        t.data<uint8_t>()[i] = static_cast<uint8_t>(v);
        break;
      case ElemType::Int8:
        t.data<int8_t>()[i] = static_cast<int8_t>(v);
        break;
      case ElemType::Int32:
        t.data<int32_t>()[i] = static_cast<int32_t>(v);
        break;
      case ElemType::Int64:
        t.data<int64_t>()[i] = static_cast<int64_t>(v);
        break;
      default:
        throw std::runtime_error("no deterministic inputs of element type " +
                                 std::string(elem_name(t.type())));
    }
  }
}

std::string errors_of(const std::vector<Diagnostic>& diagnostics) {
  std::string text;
  for (const Diagnostic& d : diagnostics)
    if (d.error) text += (text.empty() ? "" : "; ") + d.place + ": " + d.message;
  return text;
}

std::string differences(const NamedValues& want, const NamedValues& got) {
  if (want.size() != got.size())
    return std::to_string(got.size()) + " outputs, not " + std::to_string(want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    std::string d = compare_values(want[i].second, got[i].second, Tolerance{1e-5, 1e-6});
    if (!d.empty()) return "output " + want[i].first + ": " + d;
  }
  return "";
}

}  // namespace

std::vector<CorpusEntry> read_corpus_manifest(const std::string& path) {
  std::ifstream in(path);
  std::vector<CorpusEntry> entries;
  for (std::string line; std::getline(in, line);) {
    if (trimmed(line).empty() || trimmed(line)[0] == '#') continue;
    std::vector<std::string> f;
    size_t start = 0;
    for (int k = 0; k < 5; ++k) {
      size_t bar = line.find(" | ", start);
      if (bar == std::string::npos) break;
      f.push_back(trimmed(line.substr(start, bar - start)));
      start = bar + 3;
    }
    f.push_back(trimmed(line.substr(start)));
    if (f.size() == 6)
      entries.push_back({f[0], f[1], f[2], f[3], f[4], f[5]});
    else  // its test fails on the EXPECT
      entries.push_back({f[0], "", "a manifest line without six fields: " + line, "-", "-", ""});
  }
  return entries;
}

std::string corpus_weights(const std::string& spec, const std::string& xml) {
  if (spec == "-") return "";
  if (spec.rfind("raw:", 0) == 0) {
    std::string bin;
    for (const std::string& part : split(spec.substr(4), ';')) {
      auto [type, values] = assignment(part);
      for (double v : values) bin += value_bytes(type, v);
    }
    return bin;
  }
  if (spec.rfind("strings:", 0) == 0) {
    // OpenVINO's packed string tensor (string_aligned_buffer.cpp): int32 count, the first
    // offset 0 and where each string ends, then the characters.
    const std::vector<std::string> strings = split(spec.substr(8), ',');
    std::string header = raw_int32(static_cast<int32_t>(strings.size())) + raw_int32(0), chars;
    for (const std::string& str : strings)
      header += raw_int32(static_cast<int32_t>((chars += str).size()));
    return header + chars;
  }
  if (spec == "auto") return auto_weights("", xml);
  if (spec.rfind("auto:", 0) == 0) return auto_weights(spec.substr(5), xml);
  throw std::runtime_error("BIN must be -, raw:..., strings:... or auto...: " + spec);
}

NamedValues corpus_inputs(const Session& session, const std::string& shapes) {
  std::map<std::string, std::vector<int64_t>> given;
  if (shapes != "-")
    for (const std::string& part : split(shapes, ';')) {
      size_t eq = part.find('=');
      std::vector<int64_t> dims;
      for (const std::string& d : split(part.substr(eq + 1), 'x'))
        if (!d.empty()) dims.push_back(std::stoll(d));
      given[trimmed(part.substr(0, eq))] = dims;
    }
  NamedValues inputs;
  for (const ValueInfo& info : session.inputs()) {
    std::vector<int64_t> dims;
    if (auto it = given.find(info.name); it != given.end()) {
      dims = it->second;
    } else {
      for (const Dim& d : info.shape) dims.push_back(d.size);
      if (!info.rank_known || std::count(dims.begin(), dims.end(), -1) > 0)
        throw std::runtime_error("input " + info.name + " (" + info.type +
                                 ") needs its shape in the manifest's INPUTS");
    }
    Tensor t(info.elem, Dims(std::span<const int64_t>(dims)));
    fill(t);
    inputs.emplace_back(info.name, Value(std::move(t)));
  }
  return inputs;
}

CorpusOutcome corpus_steps(const std::string& xml_path, const std::string& shapes, bool run,
                           NamedValues* inputs) {
  std::string step = "load";
  try {
    Model model = Model::load(xml_path);
    step = "check";
    if (std::string e = errors_of(check_model(model)); !e.empty()) return {step, e};
    NamedValues direct;
    if (run) {
      step = "run";
      Session session(model);
      *inputs = corpus_inputs(session, shapes);
      direct = session.run(*inputs);
    }
    step = "convert";
    std::string onnx_bytes = onnx::write_model_bytes(*openvino::read_model_file(xml_path));
    std::shared_ptr<ir::Model> via_onnx(onnx::read_model_bytes(onnx_bytes, xml_path + ".onnx", ""));
    step = "check-onnx";
    if (std::string e = errors_of(check_model(Model(via_onnx))); !e.empty()) return {step, e};
    if (!run) return {"", ""};
    step = "run-onnx";
    if (std::string d = differences(direct, Session(Model(via_onnx)).run(*inputs)); !d.empty())
      return {step, d};
    step = "roundtrip-ir";
    openvino::IrFiles again = openvino::write_ir(*via_onnx);
    std::shared_ptr<ir::Model> via_ir(
        openvino::read_model_text(again.xml, &again.bin, xml_path + ".onnx.xml"));
    if (std::string d = differences(direct, Session(Model(via_ir)).run(*inputs)); !d.empty())
      return {step, d};
  } catch (const std::exception& e) {
    return {step, e.what()};
  }
  return {"", ""};
}

}  // namespace bough::test
