// bough ops [NAME] [--json] — the operators bough runs, with their schema versions, and for
// one operator (or all, with --json) the signature of each version: inputs, outputs, the
// types each type variable allows, attributes. bough ops --openvino: the OpenVINO operators
// bough reads and writes, with their versions.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>
#include <string>

#include "commands.h"
#include "formats/openvino/op_table.h"
#include "ops/registry.h"
#include "util/json.h"

namespace bough::cli {

namespace {
namespace ops_op {

std::string qualified(const ops::OpDef& def) {
  return def.domain.empty() ? std::string(def.name)
                            : std::string(def.domain) + "." + std::string(def.name);
}

const char* arity_name(ops::Arity a) {
  switch (a) {
    case ops::Arity::Single:
      return "single";
    case ops::Arity::Optional:
      return "optional";
    case ops::Arity::Variadic:
      return "variadic";
    case ops::Arity::Heterogeneous:
      return "heterogeneous";
  }
  return "?";
}

std::string json_formals(const std::vector<ops::Formal>& formals) {
  std::string out = "[";
  for (const ops::Formal& f : formals)
    out += (out.size() > 1 ? ", " : "") + std::string("{\"name\": ") + util::json_string(f.name) +
           ", \"type\": " + util::json_string(f.type) + ", \"arity\": \"" + arity_name(f.arity) +
           "\"}";
  return out + "]";
}

std::string json_signature(const ops::Signature& sig) {
  std::string vars = "{";
  for (const auto& [name, set] : sig.variables) {
    std::string types;
    for (const std::string& t : set.type_strings())
      types += (types.empty() ? "" : ", ") + util::json_string(t);
    vars += (vars.size() > 1 ? ", " : "") + util::json_string(name) + ": [" + types + "]";
  }
  std::string attrs = "[";
  for (const ops::AttrSpec& a : sig.attributes)
    attrs += (attrs.size() > 1 ? ", " : "") + std::string("{\"name\": ") +
             util::json_string(a.name) + ", \"kind\": " + util::json_string(ir::describe(a.kind)) +
             ", \"required\": " + (a.required ? "true" : "false") +
             (a.default_text.empty() ? "" : ", \"default\": " + util::json_string(a.default_text)) +
             "}";
  return "{\"since\": " + std::to_string(sig.since) + ", \"inputs\": " + json_formals(sig.inputs) +
         ", \"outputs\": " + json_formals(sig.outputs) + ", \"variables\": " + vars + "}" +
         ", \"attributes\": " + attrs + "]}";
}

std::string json_op(const ops::OpDef& def) {
  std::string versions, rows;
  for (int v : def.versions) {
    versions += (versions.empty() ? "" : ", ") + std::to_string(v);
    if (const ops::Signature* sig = ops::signature_at(def, v))
      rows += (rows.empty() ? "" : ", ") + json_signature(*sig);
  }
  // How many values it takes and gives, [fewest, most]; null for no limit.
  auto count_range = [](int min, int max) {
    return "[" + std::to_string(min) + ", " +
           (max >= ops::kVariadic ? std::string("null") : std::to_string(max)) + "]";
  };
  return "{\"domain\": " + util::json_string(std::string(def.domain)) +
         ", \"name\": " + util::json_string(std::string(def.name)) + ", \"versions\": [" +
         versions + "], \"inputs\": " + count_range(def.min_inputs, def.max_inputs) +
         ", \"outputs\": " + count_range(def.min_outputs, def.max_outputs) + ", \"signatures\": [" +
         rows + "]}";
}

void print_op(const ops::OpDef& def) {
  std::printf("%s\n", qualified(def).c_str());
  for (int v : def.versions) {
    const ops::Signature* sig = ops::signature_at(def, v);
    std::string text = "(no signature yet)";
    for (const ops::SignatureText& t : def.signatures)
      if (t.since == v) text = std::string(t.text);
    std::printf("  %d: %s\n", v, sig ? text.c_str() : "(no signature yet)");
  }
}

int list_ops(const std::string& name, bool json) {
  std::vector<const ops::OpDef*> chosen;
  for (const ops::OpDef* def : ops::all_ops())
    if (name.empty() || def->name == name || qualified(*def) == name) chosen.push_back(def);
  if (chosen.empty()) {
    std::fprintf(stderr, "bough: no operator named '%s'\n", name.c_str());
    return kExitInvalid;
  }
  if (json) {
    std::string out = "[";
    for (const ops::OpDef* def : chosen) out += (out.size() > 1 ? ",\n " : "") + json_op(*def);
    std::printf("%s]\n", out.c_str());
    return kExitOk;
  }
  for (const ops::OpDef* def : chosen) {
    if (name.empty()) {
      std::string versions;
      for (int v : def->versions) versions += (versions.empty() ? "" : ", ") + std::to_string(v);
      std::printf("%-40s %s\n", qualified(*def).c_str(), versions.c_str());
    } else {
      print_op(*def);
    }
  }
  return kExitOk;
}

std::string version_list(const std::vector<int>& versions, bool json) {
  std::string out;
  for (int v : versions) out += (out.empty() ? "" : ", ") + std::to_string(v);
  return json ? "[" + out + "]" : out.empty() ? "-" : out;
}

// The OpenVINO operators bough reads (IR -> core) and writes (core -> IR), with the
// versions of each, from the mapping table.
int list_openvino_ops(bool json) {
  const std::vector<openvino::OvOpSupport> ops = openvino::openvino_op_support();
  if (json) {
    std::string out = "[";
    for (const openvino::OvOpSupport& op : ops)
      out += (out.size() > 1 ? ",\n " : "") + std::string("{\"name\": ") +
             util::json_string(op.type) + ", \"reads\": " + version_list(op.reads, true) +
             ", \"writes\": " + version_list(op.writes, true) + "}";
    std::printf("%s]\n", out.c_str());
    return kExitOk;
  }
  std::printf("%-32s %-12s %s\n", "OpenVINO operator", "reads", "writes");
  for (const openvino::OvOpSupport& op : ops)
    std::printf("%-32s %-12s %s\n", op.type.c_str(), version_list(op.reads, false).c_str(),
                version_list(op.writes, false).c_str());
  return kExitOk;
}

}  // namespace ops_op
}  // namespace

Command add_ops(CLI::App& root) {
  using namespace ops_op;
  CLI::App* app = root.add_subcommand("ops", "list the operators bough runs; NAME: its signatures");
  struct Options {
    std::string name;
    bool json = false;
    bool openvino = false;
  };
  auto opt = std::make_shared<Options>();
  app->add_option("NAME", opt->name, "an operator (Add, or with its domain: com.microsoft.Foo)");
  app->add_flag("--json", opt->json, "print the operators and every signature as JSON");
  app->add_flag("--openvino", opt->openvino,
                "list the OpenVINO operators bough reads and writes, with their versions");
  return {app, [opt] {
            return opt->openvino ? list_openvino_ops(opt->json) : list_ops(opt->name, opt->json);
          }};
}

}  // namespace bough::cli
