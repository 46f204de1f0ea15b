#include "serve/infer_checks.h"

#include <algorithm>

#include "serve/datatype.h"
#include "serve/protocol_error.h"
#include "serve/tensor_data.h"

namespace bough::serve {

namespace {

const ValueInfo* find_info(const std::vector<ValueInfo>& infos, const std::string& name) {
  const auto it = std::find_if(infos.begin(), infos.end(),
                               [&](const ValueInfo& info) { return info.name == name; });
  return it == infos.end() ? nullptr : &*it;
}

// The datatype and shape against what the model declares for the input.
void check_fits(const ValueInfo& info, ElemType type, const Dims& shape, const std::string& what) {
  if (info.elem != ElemType::Undefined && info.elem != type)
    bad_request(what + ": datatype " + datatype_name(type) + ", the model takes " +
                datatype_name(info.elem));
  if (!info.rank_known) return;
  bool fits = info.shape.size() == shape.size();
  for (size_t i = 0; fits && i < shape.size(); ++i)
    fits = !info.shape[i].known() || info.shape[i].size == shape[i];
  if (fits) return;
  std::string declared = "[";
  for (size_t i = 0; i < info.shape.size(); ++i)
    declared += (i ? "," : "") + std::to_string(info.shape[i].known() ? info.shape[i].size : -1);
  bad_request(what + ": shape " + shape_string(shape) + ", the model takes " + declared + "]");
}

}  // namespace

DeclaredInput check_input(const ServedModel& model, const std::string& name,
                          const std::string& datatype, std::span<const int64_t> shape,
                          const NamedValues& given) {
  std::string what = "input '" + name + "'";
  const ValueInfo* info = find_info(model.inputs(), name);
  if (!info) bad_request(what + ": model '" + model.name() + "' has no such input");
  for (const auto& [seen, value] : given)
    if (seen == name) bad_request(what + " is given twice");
  const std::optional<ElemType> type = parse_datatype(datatype);
  if (!type) bad_request(what + ": unknown datatype \"" + datatype + "\"");
  element_count(shape, what);
  Dims dims(shape);
  check_fits(*info, *type, dims, what);
  return {std::move(what), *type, std::move(dims)};
}

void check_inputs_complete(const ServedModel& model, const NamedValues& given) {
  for (const ValueInfo& info : model.inputs()) {
    const bool found = std::any_of(given.begin(), given.end(),
                                   [&](const auto& input) { return input.first == info.name; });
    if (!found && !info.has_default) bad_request("input '" + info.name + "' is missing");
  }
}

void check_output(const ServedModel& model, const std::string& name,
                  const std::vector<RequestedOutput>& requested) {
  const std::string what = "output '" + name + "'";
  if (!find_info(model.outputs(), name))
    bad_request(what + ": model '" + model.name() + "' has no such output");
  for (const RequestedOutput& seen : requested)
    if (seen.name == name) bad_request(what + " is asked for twice");
}

const Tensor& output_tensor(const NamedValues& outputs, const std::string& name) {
  for (const auto& [n, value] : outputs) {
    if (n != name) continue;
    if (!value.is_tensor())
      bad_request("output '" + name + "' is " + describe(value) +
                  ", not a tensor: the protocol carries tensors only; ask for the other outputs");
    return value.tensor();
  }
  throw ProtocolError(kInternalError, "the run gave no output '" + name + "'");
}

}  // namespace bough::serve
