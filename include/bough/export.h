/// @file
/// BOUGH_API: what libbough.so exports. The library is compiled with hidden visibility, so
/// only the classes and functions of include/bough/ marked with it can be linked against;
/// everything else (operators, kernels, passes, the protobuf classes) stays inside.
#pragma once

#define BOUGH_API __attribute__((visibility("default")))
