// The corpus of OpenVINO's own IR files (tests/fixtures/openvino/corpus): its manifest, the
// stand-in weights built for files whose .bin is not at hand, the deterministic inputs they
// are run on, and the steps each file is taken through.
#pragma once

#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "bough/session.h"

namespace bough::test {

// One line of corpus/manifest.txt:
//   FILE | SOURCE | EXPECT | BIN | INPUTS | NOTE
// EXPECT is what is correct per OpenVINO, with bough's present shortfalls marked:
//   run                every step passes (load, check, run, convert, check-onnx, run-onnx,
//                      roundtrip-ir; the last two must give the IR run's outputs)
//   load               load, check, convert and check-onnx pass; not run (NOTE says why)
//   refuse:TEXT        OpenVINO's reader refuses the file; bough must refuse it at load or
//                      check with an error containing TEXT
//   known:STEP:TEXT    OpenVINO reads the file, bough fails at STEP with TEXT: a bough defect
//                      or gap, named in NOTE; the test is skipped while it still fails so
//   known-load:STEP:TEXT   the same for a file OpenVINO only reads (a `load` file)
//   known-accepts:     OpenVINO's reader refuses the file and bough does not yet (a bough
//                      defect, named in NOTE); skipped while bough still reads it
// BIN is `-` (no .bin), `raw:TYPE=V,V;TYPE=V` (those values one after the other),
// `auto` / `auto:LAYER=V,V;LAYER=V` (every Const's bytes at its offset, from its element
// type: floats a fixed pattern, named layers the values given). `V*N` is N values V.
// `strings:S,S,S` is a string Const's bytes in OpenVINO's packed layout.
// INPUTS is `-` or `NAME=2x3;NAME=4`: the shapes of inputs whose dims are not all known.
struct CorpusEntry {
  std::string file, source, expect, bin, inputs, note;
};
// gtest prints a test's parameter by its file name.
inline void PrintTo(const CorpusEntry& e, std::ostream* os) { *os << e.file; }

// The manifest's entries (a line it cannot read becomes an entry whose test fails).
std::vector<CorpusEntry> read_corpus_manifest(const std::string& path);

// The .bin bytes `spec` (the BIN field) describes for the IR text `xml`.
std::string corpus_weights(const std::string& spec, const std::string& xml);

// Deterministic values for every input of `session`, shaped by their declared dims or by
// `shapes` (the INPUTS field). Throws std::runtime_error naming an input it cannot make.
NamedValues corpus_inputs(const Session& session, const std::string& shapes);

// How far a file got: the first step that failed and its error ("" when all passed).
struct CorpusOutcome {
  std::string step, error;
};

// Takes the IR at `xml_path` through the steps (without running it when `run` is false);
// `inputs` receives the inputs it was run on.
CorpusOutcome corpus_steps(const std::string& xml_path, const std::string& shapes, bool run,
                           NamedValues* inputs);

}  // namespace bough::test
