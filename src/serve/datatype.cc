#include "serve/datatype.h"

#include <cctype>
#include <utility>

namespace bough::serve {

namespace {

constexpr std::pair<ElemType, std::string_view> kNames[] = {
    {ElemType::Bool, "BOOL"},     {ElemType::UInt8, "UINT8"},   {ElemType::UInt16, "UINT16"},
    {ElemType::UInt32, "UINT32"}, {ElemType::UInt64, "UINT64"}, {ElemType::Int8, "INT8"},
    {ElemType::Int16, "INT16"},   {ElemType::Int32, "INT32"},   {ElemType::Int64, "INT64"},
    {ElemType::Float16, "FP16"},  {ElemType::Float, "FP32"},    {ElemType::Double, "FP64"},
    {ElemType::String, "BYTES"},  {ElemType::BFloat16, "BF16"},
};

}  // namespace

std::string datatype_name(ElemType type) {
  for (const auto& [elem, name] : kNames)
    if (elem == type) return std::string(name);
  std::string own(elem_name(type));
  for (char& c : own) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return own;
}

std::optional<ElemType> parse_datatype(std::string_view name) {
  for (const auto& [elem, known] : kNames)
    if (known == name) return elem;
  return std::nullopt;
}

}  // namespace bough::serve
