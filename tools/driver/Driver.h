//===- Driver.h - the dlc command line ---------------------------*- C++ -*-===//
#ifndef DLC_TOOLS_DRIVER_DRIVER_H
#define DLC_TOOLS_DRIVER_DRIVER_H

namespace dlc {
/// `dlc compile|run|bench ...`; returns the process exit code: 0 success,
/// 2 the model cannot be compiled, 1 any other failure.
int driverMain(int argc, char **argv);
} // namespace dlc

#endif
