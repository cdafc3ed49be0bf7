//===- Budget.h - the memory and time budget of a compile -------*- C++ -*-===//
//
// A compile runs under a budget of resident memory and wall time
// (`--max-memory`, `--max-time`; by default 80% of the machine's physical
// memory and 30 minutes). A watcher thread samples the process while the
// compile runs; a compile over budget ends with exit 2 and an error that
// names the model, the budget, what was used and the phase it was in (the
// import, a pass, LLVM's stages), instead of being killed by the kernel's
// out-of-memory killer or running on without end.
//
//===----------------------------------------------------------------------===//
#ifndef DLC_TOOLS_DRIVER_BUDGET_H
#define DLC_TOOLS_DRIVER_BUDGET_H

#include "llvm/ADT/StringRef.h"

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

namespace dlc {

struct BudgetLimits {
  uint64_t memoryBytes = 0; // resident memory; 0: no limit
  double seconds = 0;       // wall time; 0: no limit
};

/// The default budget: 80% of physical memory, 30 minutes.
BudgetLimits defaultBudget();

/// Parses a --max-memory value: bytes, or a number with the suffix K, M, G
/// or T (binary units); "0" or "none" for no limit. False on anything else.
bool parseMemoryBudget(llvm::StringRef text, uint64_t &bytes);
/// Parses a --max-time value in seconds (a decimal number >= 0; 0: none).
bool parseTimeBudget(llvm::StringRef text, double &seconds);

/// "1.5 GiB", "300 MiB", "12 KiB".
std::string formatBytes(uint64_t bytes);
/// "1800 s", "0.5 s".
std::string formatSeconds(double seconds);

/// Watches one compile from construction to destruction.
class CompileWatch {
public:
  CompileWatch(std::string model, BudgetLimits limits);
  ~CompileWatch();
  CompileWatch(const CompileWatch &) = delete;
  CompileWatch &operator=(const CompileWatch &) = delete;

  /// The phase the compile is now in, for the report ("ONNX import",
  /// "pass 'dlc-cpu-tile-and-fuse'", ...). Thread-safe.
  void setPhase(llvm::StringRef phase);
  /// The largest resident memory and the time seen so far.
  uint64_t peakBytes() const;
  double elapsedSeconds() const;
  /// Shows the phase, the time and the memory on one line of stderr (a
  /// terminal), redrawn as the compile goes, from half a second on.
  void showProgress();
  /// Stops watching and erases the progress line; the destructor calls it.
  /// Call it before printing the compile's results.
  void stop();

private:
  /// Redraws the progress line (with the watch's lock held).
  void drawProgress(uint64_t rss, double elapsed);
  void watch();
  /// Exits the process (code 2) when a sample is over budget.
  void check();

  std::string model;
  BudgetLimits limits;
  std::chrono::steady_clock::time_point start;
  mutable std::mutex mutex; // guards phase, peak, stopping
  std::condition_variable wake;
  std::string phase = "loading";
  uint64_t peak = 0;
  bool stopping = false;
  bool progress = false, shown = false;
  double drawnAt = 0;
  std::thread watcher;
};

} // namespace dlc

#endif
