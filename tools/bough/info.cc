// bough info MODEL [--initializers N] [--docs] — print the IR, with the type inference finds
// for every value, then a summary: graphs, nodes per operator, parameters, and the first
// values of the initializers; with --docs, the doc strings. Value names over 40 characters
// are printed as short aliases with a legend at the end, unless --full-names.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>

#include "commands.h"
#include "formats/read_model.h"
#include "infer/validate.h"
#include "ir/printer.h"
#include "options.h"
#include "outputs.h"
#include "short_names.h"
#include "util/printable.h"

namespace bough::cli {

namespace {
namespace info_op {

struct Options {
  std::string path;
  int initializers = 10;
  int depth = -1;
  bool docs = false;
  bool no_summary = false;
  bool full_names = false;
};

// What the summary counts, over the main graph and every subgraph.
struct Counts {
  int graphs = 0;
  std::map<std::string, int> ops;  // "Add", or "domain.Op"
  std::vector<const ir::Edge*> initializers;
  std::vector<std::pair<std::string, std::string>> docs;  // place, doc string
};

void count(const ir::Graph& g, Counts* c) {
  ++c->graphs;
  if (!g.doc_string.empty()) c->docs.emplace_back(g.path(), g.doc_string);
  for (const ir::Edge* e : g.initializers)
    if (e->origin == ir::Edge::Origin::Initializer && e->data) c->initializers.push_back(e);
  for (const auto& n : g.nodes) {
    ++c->ops[n->domain.empty() || n->domain == "ai.onnx" ? n->op_type
                                                         : n->domain + "." + n->op_type];
    if (!n->doc_string.empty()) c->docs.emplace_back(g.path() + "/" + n->label(), n->doc_string);
    for (const auto& a : n->attributes) {
      if (a.g) count(*a.g, c);
      for (const auto& sub : a.graphs) count(*sub, c);
    }
  }
}

std::string plural(size_t n, const char* what) {
  return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
}

std::string summary(const ir::Model& model, const Options& opt) {
  Counts c;
  count(*model.graph, &c);
  std::vector<std::pair<std::string, int>> ops(c.ops.begin(), c.ops.end());
  std::stable_sort(ops.begin(), ops.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  int nodes = 0;
  std::string per_op;
  for (const auto& [op, n] : ops) {
    nodes += n;
    per_op += (per_op.empty() ? "" : ", ") + op + " " + std::to_string(n);
  }
  int64_t parameters = 0;
  size_t bytes = 0;
  for (const ir::Edge* e : c.initializers) {
    parameters += e->data->numel();
    bytes += e->data->nbytes();
  }
  std::string out =
      "summary\n  graphs: " + std::to_string(c.graphs) + " (main and " +
      plural(static_cast<size_t>(c.graphs - 1), "subgraph") +
      ")\n  nodes: " + std::to_string(nodes) + (per_op.empty() ? "" : " (" + per_op + ")") +
      "\n  parameters: " + std::to_string(parameters) + " in " +
      plural(c.initializers.size(), "initializer") + " (" + std::to_string(bytes) + " bytes)\n";
  const size_t shown = std::min(c.initializers.size(), static_cast<size_t>(opt.initializers));
  for (size_t i = 0; i < shown; ++i) {
    const ir::Edge* e = c.initializers[i];
    out += "  initializer %" + util::printable_name(e->name) + ": " + ir::to_string(e->type) + " " +
           preview_values(*e->data, 5) + "\n";
  }
  if (shown < c.initializers.size())
    out += "  ... " + plural(c.initializers.size() - shown, "more initializer") +
           " (--initializers N shows more)\n";
  if (opt.docs) {
    if (!model.doc_string.empty()) out += "  doc of the model: " + model.doc_string + "\n";
    for (const auto& [place, doc] : c.docs) out += "  doc of " + place + ": " + doc + "\n";
  }
  return out;
}

int info(const Options& opt) {
  auto model = read_model_file(opt.path);
  // An invalid model is still printed, with what inference could find; `bough check` says
  // what is wrong with it.
  infer::Validation v = infer::validate(*model);
  infer::annotate(*model, v.types);
  std::string text = ir::print_model(*model, opt.depth);
  if (!opt.no_summary) text += summary(*model, opt);
  if (!opt.full_names) text = shorten_names(text, *model);
  std::fputs(text.c_str(), stdout);
  return kExitOk;
}

}  // namespace info_op
}  // namespace

Command add_info(CLI::App& root) {
  using namespace info_op;
  CLI::App* app = root.add_subcommand(
      "info",
      "print the model's IR (graphs, subgraphs, captures, the inferred types), then a "
      "summary: graphs, nodes per operator, parameters, initializers' first values");
  auto opt = std::make_shared<Options>();
  app->add_option("MODEL", opt->path, "the model")->required();
  app->add_option("--initializers", opt->initializers,
                  "how many initializers the summary shows with their first values")
      ->check(at_least(0))
      ->capture_default_str();
  app->add_option("--depth", opt->depth,
                  "print this many levels of subgraphs in full and fold deeper ones to their "
                  "name and node count (default: all)")
      ->check(at_least(0));
  app->add_flag("--docs", opt->docs, "add the doc strings of the model, graphs and nodes");
  app->add_flag("--no-summary", opt->no_summary, "print the IR only");
  app->add_flag("--full-names", opt->full_names,
                "print value names over " + std::to_string(kLongName) +
                    " characters in full instead of as aliases %~N with a legend");
  return {app, [opt] { return info(*opt); }};
}

}  // namespace bough::cli
