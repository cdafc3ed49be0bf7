//===- Command.h - what the dlc subcommands share ----------------*- C++
//-*-===//
//
// The command line parsed, option parsing shared by the subcommands, and the
// subcommands' entry points (one file each: CompileCommand.cpp, ...).
//
//===----------------------------------------------------------------------===//
#ifndef DLC_TOOLS_DRIVER_COMMAND_H
#define DLC_TOOLS_DRIVER_COMMAND_H

#include "compiler/Compiler.h"
#include "tools/driver/Budget.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace onnx {
class TensorProto;
}

namespace dlc::driver {
using llvm::ArrayRef;
using llvm::StringRef;

constexpr int kExitOk = 0, kExitFailure = 1, kExitCannotCompile = 2;

/// `dlc --help`.
extern const char *const kUsage;

/// `--key value`, `--key=value` and flags after a command and a positional.
struct Args {
  std::string command, model;
  std::map<std::string, std::string> options; // the last value of each
  std::map<std::string, std::vector<std::string>> repeated; // all, in order
  std::vector<std::string> flags;
  std::string error;

  bool has(StringRef flag) const {
    return std::find(flags.begin(), flags.end(), flag.str()) != flags.end();
  }
  std::optional<std::string> get(StringRef key) const {
    auto it = options.find(key.str());
    if (it == options.end())
      return std::nullopt;
    return it->second;
  }
  std::vector<std::string> getAll(StringRef key) const {
    auto it = repeated.find(key.str());
    return it == repeated.end() ? std::vector<std::string>() : it->second;
  }
};

/// Parses `dlc COMMAND MODEL [options]` with the command's options.
Args parseArgs(int argc, char **argv, ArrayRef<StringRef> valueOptions,
               ArrayRef<StringRef> flagOptions);
/// Prints `msg` and the usage; returns the exit code.
int usageError(const std::string &msg);

/// Whether `triple` names another machine than the one dlc runs on.
bool isCrossTriple(StringRef triple);
/// The runtime archive shipped beside the dlc binary (for `triple` when it
/// is not the host's).
std::string runtimeArchivePath(const char *argv0, StringRef triple = "");
/// --target, --gpu-* and --placement options into `opts`; print the error
/// and return false on a bad value (so do the parsers below).
bool parseTarget(const Args &args, dlc::CompileOptions &opts);
/// --dim.
bool parseDims(const Args &args, dlc::CompileOptions &opts);
/// --batch-split and --batch-chunk.
bool parseBatchOptions(const Args &args, dlc::CompileOptions &opts);
/// --max-memory and --max-time, or their defaults.
bool parseBudget(const Args &args, dlc::BudgetLimits &budget);
/// `t` at batch size `n` (its batch axis, or the split batch's axis).
dlc::TensorInfo atBatch(const dlc::TensorInfo &t, int64_t n);
/// Writes `data` to `path`; prints the error and returns false on failure.
bool writeFile(StringRef path, StringRef data);
/// The tensors of `dir`'s input_*.pb files (compile --data).
bool loadKnownInputs(StringRef dir, std::vector<onnx::TensorProto> &known);
/// Compiles under `budget` with diagnostics collected; prints them and
/// returns false on failure. `oneLine` joins them (dlc run's contract).
bool compileReporting(const std::string &model, dlc::CompileOptions opts,
                      dlc::Stage stage, llvm::raw_ostream &out,
                      dlc::CompiledModel &result, bool oneLine,
                      const dlc::BudgetLimits &budget, bool progress = false);

/// The subcommands; each returns the process exit code.
int runCompile(const Args &args, const char *argv0);
int runRun(const Args &args);
int runBench(const Args &args);
int runCheck(const Args &args);
int runAnalyzeCommand(const Args &args);
} // namespace dlc::driver

#endif
