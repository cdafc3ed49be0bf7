//===- dlc-opt.cpp - run dlc and MLIR passes on .mlir files ---------------===//
#include "codegen/common/Passes.h"
#include "codegen/cpu/Passes.h"
#include "codegen/gpu/Passes.h"
#include "compiler/Compiler.h"
#include "passes/Passes.h"

#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  dlc::registerDlcPasses();
  dlc::registerDlcCommonPasses();
  dlc::registerDlcCpuPasses();
  dlc::registerCpuPipeline();
  dlc::registerDlcGpuPasses();
  dlc::registerCudaPipeline();
  mlir::DialectRegistry registry;
  dlc::registerCompilerDialects(registry);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "dlc optimizer driver\n", registry));
}
