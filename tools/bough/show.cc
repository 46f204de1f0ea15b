// bough show MODEL -o PICTURE.svg|.png|.dot — a picture of the graph with every subgraph as
// a nested cluster (graph_dot.h). .svg and .png are drawn by Graphviz's `dot`. With --node
// PATH, only the subgraph at PATH (or all subgraphs of the node at PATH).
#include <CLI/CLI.hpp>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "bough/error.h"
#include "commands.h"
#include "formats/read_model.h"
#include "graph_dot.h"
#include "inputs.h"
#include "passes/rewrite.h"
#include "util/files.h"

namespace bough::cli {

namespace {

namespace fs = std::filesystem;

std::string shell_quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

struct Options {
  std::string path, out, node;
  bool force = false;
};

// The subgraphs `path` names: a graph path as bough prints it (`main/Loop "l"/body`), or a
// node's path (`main/Loop "l"`) for all of the node's subgraphs. An unknown path is a usage
// error listing the subgraph paths the model has.
std::vector<const ir::Graph*> subgraphs_at(ir::Model& model, const std::string& path) {
  std::vector<const ir::Graph*> found;
  std::string known;
  passes::for_each_graph(model, [&](ir::Graph& g) {
    if (!g.owner) return;
    const std::string graph_path = g.path();
    if (graph_path == path || g.owner->graph->path() + "/" + g.owner->label() == path)
      found.push_back(&g);
    known += "\n  " + graph_path;
  });
  if (found.empty())
    throw UsageError(
        "--node: " + model.path + " has no subgraph or node '" + path + "'" +
        (known.empty() ? std::string("; it has no subgraphs") : "; its subgraphs are:" + known));
  return found;
}

int show(const Options& opt) {
  const std::string ext = fs::path(opt.out).extension().string();
  if (ext != ".dot" && ext != ".svg" && ext != ".png")
    throw UsageError("-o: the picture must end in .svg, .png or .dot, got '" + opt.out + "'");
  if (same_file(opt.path, opt.out)) throw UsageError(opt.out + ": show never overwrites its input");
  std::error_code ec;
  if (!opt.force && fs::exists(opt.out, ec))
    fail(ErrorKind::IO, opt.out, "already exists (--force replaces it)");
  auto model = read_model_file(opt.path);
  const std::string dot =
      opt.node.empty() ? graph_to_dot(*model) : subgraphs_to_dot(subgraphs_at(*model, opt.node));
  if (ext == ".dot") {
    write_file_atomic(opt.out, dot);
    return kExitOk;
  }
  // dot writes into a temporary file beside OUT, renamed into place when it succeeded.
  const std::string source = opt.out + ".bough-tmp.dot", drawn = opt.out + ".bough-tmp" + ext;
  write_file_atomic(source, dot);
  const int rc = std::system(("dot -T" + ext.substr(1) + " -o " + shell_quoted(drawn) + " " +
                              shell_quoted(source) + " 2>&1")
                                 .c_str());
  fs::remove(source, ec);
  if (rc != 0) {
    fs::remove(drawn, ec);
    fail(ErrorKind::IO, opt.out,
         "Graphviz's `dot` failed or is missing (Debian: graphviz); -o PICTURE.dot needs no "
         "Graphviz");
  }
  fs::rename(drawn, opt.out, ec);
  if (ec) fail(ErrorKind::IO, opt.out, "cannot write: " + ec.message());
  return kExitOk;
}

}  // namespace

Command add_show(CLI::App& root) {
  CLI::App* app = root.add_subcommand(
      "show",
      "draw the graph: If branches and Loop/Scan bodies as nested clusters, captures as dashed "
      "edges, initializers folded into their consumers");
  auto opt = std::make_shared<Options>();
  app->add_option("MODEL", opt->path, "the model")->required();
  app->add_option("-o,--output", opt->out, "the picture: .svg or .png (Graphviz) or .dot")
      ->required();
  app->add_option("--node", opt->node,
                  "draw only this subgraph, a graph path as bough's messages print it (main/Loop "
                  "\"steps\"/body), or all subgraphs of this node (main/Loop \"steps\"); "
                  "captured values come in from outside");
  app->add_flag("--force", opt->force, "replace OUT when it exists");
  return {app, [opt] { return show(*opt); }};
}

}  // namespace bough::cli
