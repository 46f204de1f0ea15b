// bough show MODEL -o PICTURE.svg|.png|.dot|.html — a picture of the graph with every
// subgraph as a nested cluster (graph_dot.h), subgraphs deeper than --depth folded to a box.
// .svg and .png are drawn by Graphviz's `dot` and refused above kMaxSide pixels a side or
// kMaxPixels in all. .html is an interactive page (show_view.h, show_page.h). With --node
// PATH, only the subgraph at PATH (or all subgraphs of the node at PATH).
#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "bough/error.h"
#include "commands.h"
#include "formats/read_model.h"
#include "graph_dot.h"
#include "infer/validate.h"
#include "inputs.h"
#include "options.h"
#include "passes/rewrite.h"
#include "show_page.h"
#include "show_view.h"
#include "util/files.h"

namespace bough::cli {

namespace {
namespace show_op {

namespace fs = std::filesystem;

std::string shell_quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

struct Options {
  std::string path, out, node;
  int depth = -1;
  bool force = false;
};

// The largest picture .svg/.png draws, at Graphviz's 96 pixels an inch: larger ones are
// unreadable in any viewer (a 63-node conformance model made 21,463 x 2,923 px).
constexpr double kMaxSide = 10000, kMaxPixels = 40e6;

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

// Runs Graphviz's dot on `source`, writing `format` to `drawn`; an I/O error naming `out`
// when it fails.
void run_dot(const std::string& format, const std::string& source, const std::string& drawn,
             const std::string& out) {
  const int rc = std::system(
      ("dot -T" + format + " -o " + shell_quoted(drawn) + " " + shell_quoted(source) + " 2>&1")
          .c_str());
  if (rc != 0)
    fail(ErrorKind::IO, out,
         "Graphviz's `dot` failed or is missing (Debian: graphviz); -o PICTURE.dot or "
         "PICTURE.html needs no Graphviz");
}

// The size in pixels of an SVG that dot wrote: `<svg width="NNNpt" height="NNNpt"`.
std::pair<double, double> svg_pixels(const std::string& svg) {
  auto points = [&](const std::string& attribute) {
    const size_t at = svg.find(" " + attribute + "=\"");
    return at == std::string::npos ? 0.0 : std::atof(svg.c_str() + at + attribute.size() + 3);
  };
  return {points("width") * 96 / 72, points("height") * 96 / 72};
}

[[noreturn]] void refuse(const std::string& out, const std::string& size) {
  throw UsageError("-o " + out + ": the picture would be " + size + ", over " +
                   std::to_string(static_cast<int>(kMaxSide)) + " px a side or " +
                   std::to_string(static_cast<int>(kMaxPixels / 1e6)) +
                   " million pixels; draw less with --depth N or --node PATH, or write "
                   "-o PICTURE.html (pan, zoom, search, subgraphs that open in place)");
}

void refuse_when_too_large(const std::string& svg, const std::string& out) {
  const auto [w, h] = svg_pixels(svg);
  if (w <= kMaxSide && h <= kMaxSide && w * h <= kMaxPixels) return;
  char size[64];
  std::snprintf(size, sizeof size, "%.0f x %.0f px", w, h);
  refuse(out, size);
}

void write_picture(const std::string& dot, const std::string& ext, const std::string& out) {
  // dot writes into temporary files beside OUT; the picture is renamed into place when it
  // was drawn and is not too large. The size is read from an SVG drawn first.
  const std::string source = out + ".bough-tmp.dot", svg = out + ".bough-tmp.svg",
                    drawn = out + ".bough-tmp" + ext;
  std::error_code ec;
  auto clean = [&] {
    for (const std::string& f : {source, svg, drawn}) fs::remove(f, ec);
  };
  // Every DOT node takes an inch square or more with its spacing (96 x 96 px): past
  // kMaxPixels / 9,216 of them the picture is too large before dot spends minutes on it
  // (122 s for 5,000 nodes, docs/show/README.md).
  size_t nodes = 0;
  for (size_t at = dot.find(" [shape="); at != std::string::npos; at = dot.find(" [shape=", at + 1))
    ++nodes;
  if (static_cast<double>(nodes) > kMaxPixels / (96.0 * 96.0))
    refuse(out, std::to_string(nodes) + " boxes of at least 96 x 96 px");
  try {
    write_file_atomic(source, dot);
    run_dot("svg", source, svg, out);
    refuse_when_too_large(read_file(svg), out);
    if (ext == ".png") run_dot("png", source, drawn, out);
  } catch (...) {
    clean();
    throw;
  }
  fs::rename(ext == ".png" ? drawn : svg, out, ec);
  clean();
  if (ec) fail(ErrorKind::IO, out, "cannot write: " + ec.message());
}

int show(const Options& opt) {
  const std::string ext = fs::path(opt.out).extension().string();
  if (ext != ".dot" && ext != ".svg" && ext != ".png" && ext != ".html")
    throw UsageError("-o: the picture must end in .svg, .png, .dot or .html, got '" + opt.out +
                     "'");
  if (ext == ".html" && !opt.node.empty())
    throw UsageError("--node: draws .svg, .png or .dot; the .html page holds every subgraph");
  if (same_file(opt.path, opt.out)) throw UsageError(opt.out + ": show never overwrites its input");
  std::error_code ec;
  if (!opt.force && fs::exists(opt.out, ec))
    fail(ErrorKind::IO, opt.out, "already exists (--force replaces it)");
  auto model = read_model_file(opt.path);
  if (ext == ".html") {
    // Edges are labelled with the inferred types; an invalid model is still drawn with what
    // inference could find, as `info` prints it.
    infer::Validation v = infer::validate(*model);
    infer::annotate(*model, v.types);
    write_file_atomic(opt.out, html_page(opt.path, model_view_json(*model, opt.depth)));
    return kExitOk;
  }
  const std::string dot = opt.node.empty()
                              ? graph_to_dot(*model, opt.depth)
                              : subgraphs_to_dot(subgraphs_at(*model, opt.node), opt.depth);
  if (ext == ".dot")
    write_file_atomic(opt.out, dot);
  else
    write_picture(dot, ext, opt.out);
  return kExitOk;
}

}  // namespace show_op
}  // namespace

Command add_show(CLI::App& root) {
  using namespace show_op;
  CLI::App* app = root.add_subcommand(
      "show",
      "draw the graph: If branches and Loop/Scan bodies as nested clusters, captures as dashed "
      "edges, initializers folded into their consumers");
  auto opt = std::make_shared<Options>();
  app->add_option("MODEL", opt->path, "the model")->required();
  app->add_option("-o,--output", opt->out,
                  "the picture: .svg or .png (Graphviz), .dot, or .html (an interactive page: "
                  "pan, zoom, search, subgraphs that open in place, a node's details on a click)")
      ->required();
  app->add_option("--depth", opt->depth,
                  "draw this many levels of subgraphs and fold deeper ones to a box with their "
                  "node count and captures (default: all); .html: open this many levels at first "
                  "(default: 0)")
      ->check(at_least(0));
  app->add_option("--node", opt->node,
                  "draw only this subgraph, a graph path as bough's messages print it (main/Loop "
                  "\"steps\"/body), or all subgraphs of this node (main/Loop \"steps\"); "
                  "captured values come in from outside");
  app->add_flag("--force", opt->force, "replace OUT when it exists");
  return {app, [opt] { return show(*opt); }};
}

}  // namespace bough::cli
