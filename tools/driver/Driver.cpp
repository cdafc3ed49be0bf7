//===- Driver.cpp - the dlc command line: dispatch to the subcommands -----===//
#include "tools/driver/Driver.h"
#include "tools/driver/Command.h"

#include "dlc/dlc_model_abi.h"

#include "onnx/common/version.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace dlc::driver;

int dlc::driverMain(int argc, char **argv) {
  if (argc >= 2 && (StringRef(argv[1]) == "--help" || StringRef(argv[1]) == "-h")) {
    outs() << kUsage;
    return kExitOk;
  }
  if (argc >= 2 && StringRef(argv[1]) == "--version") {
    outs() << "dlc " << DLC_VERSION << " (runtime ABI "
           << DLC_MODEL_ABI_VERSION << ")\n"
           << "LLVM/MLIR " << LLVM_VERSION_STRING << "\n"
           << "ONNX " << onnx::LAST_RELEASE_VERSION << "\n";
    return kExitOk;
  }
  Args args;
  StringRef command = argc >= 2 ? argv[1] : "";
  if (command == "compile")
    args = parseArgs(argc, argv,
                     {"-o",
                      "--name",
                      "--emit",
                      "--mcpu",
                      "--mtriple",
                      "--target",
                      "--gpu-arch",
                      "--gpu-cubin",
                      "--gpu-precision",
                      "--data",
                      "--dim",
                      "--batch-split",
                      "--batch-chunk",
                      "--max-memory",
                      "--max-time",
                      "--placement",
                      "--cpu-nodes",
                      "--gpu",
                      "--gpu-memory",
                      "--cpu-state"},
                     {"--shared", "--time-passes", "--quiet"});
  else if (command == "run")
    args =
        parseArgs(argc, argv,
                  {"--data", "--out", "--target", "--threads", "--compare",
                   "--mcpu", "--gpu-arch", "--dim", "--batch-split",
                   "--batch-chunk", "--cuda-graphs", "--gpu-cubin",
                   "--gpu-precision", "--max-memory", "--max-time",
                   "--placement", "--cpu-nodes", "--gpu-memory", "--cpu-state"},
                  {"--per-node"});
  else if (command == "check")
    args = parseArgs(argc, argv, {"--dim", "--max-memory", "--max-time"}, {});
  else if (command == "bench")
    args = parseArgs(
        argc, argv,
        {"--iterations", "--warmup", "--threads", "--data", "--target",
         "--gpu-arch", "--dim", "--batch", "--batch-split", "--batch-chunk",
         "--mcpu", "--cuda-graphs", "--gpu-cubin", "--gpu-precision",
         "--max-memory", "--max-time", "--gpu-memory", "--cpu-state"},
        {"--profile"});
  else if (command == "analyze") {
    args = parseArgs(argc, argv,
                     {"--target", "--batch", "--threads", "--dim", "--gpu",
                      "--peaks", "--json", "--html", "--mcpu", "--max-memory",
                      "--max-time"},
                     {"--measure-peaks", "--measure"});
    if (args.error == "missing the model file" && args.has("--measure-peaks"))
      args.error.clear();
  } else
    return usageError(command.empty() ? "missing command"
                                      : "unknown command '" + command.str() + "'");
  if (!args.error.empty())
    return usageError(args.error);
  if (command == "compile")
    return runCompile(args, argv[0]);
  if (command == "run")
    return runRun(args);
  if (command == "check")
    return runCheck(args);
  if (command == "analyze")
    return runAnalyzeCommand(args);
  return runBench(args);
}
