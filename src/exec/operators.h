// The operators the exec layer defines (If, Loop, Scan and the others of exec/control, which
// compile and run subgraphs) join the registry of ops/, which knows nothing above itself.
#pragma once

namespace bough::exec {

// Registers them, once per process (later calls return at once). Sessions and the model
// tools of bough/model_tools.h call it; so does every program that looks operators up
// through ops/ without them (the CLI, the Python module, the tests, the fuzz targets).
void register_operators();

}  // namespace bough::exec
