// Helpers the If, Loop and Scan rules share: attribute lookups that report what is missing
// or of the wrong kind, declared element types the operator fixes, and counted nouns.
#pragma once

#include <string>

#include "check/rules.h"

namespace bough::check {

// The attribute `name` if present with kind `kind`; reports it missing (when `required`) or
// of the wrong kind. Inside a function body an attribute referring to the caller's is
// taken on trust (null, nothing reported): its kind is the caller's.
const ir::Attribute* attribute(const NodeSite& site, const char* name, ir::Attribute::Kind kind,
                               bool required);
// The required graph attribute `name`, or null (reported) when missing or not a graph.
const ir::Graph* graph_attribute(const NodeSite& site, const char* name);
// Reports a declared type of `e` other than tensor(want) (an undeclared type is fine).
void expect_elem(const ir::Edge* e, ElemType want, const std::string& place,
                 const std::string& what, Diagnostics& out);
// "1 input", "2 inputs".
std::string count(size_t n, const char* what);

}  // namespace bough::check
