//===- Budget.cpp - the memory and time budget of a compile ---------------===//
#include "tools/driver/Budget.h"

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"

#include <cstdio>
#include <sys/ioctl.h>
#include <unistd.h>

using namespace llvm;

namespace {

/// Resident memory of this process (/proc/self/statm); 0 when unknown.
uint64_t residentBytes() {
  FILE *f = fopen("/proc/self/statm", "r");
  if (!f)
    return 0;
  unsigned long long size = 0, resident = 0;
  int got = fscanf(f, "%llu %llu", &size, &resident);
  fclose(f);
  return got == 2 ? resident * (uint64_t)sysconf(_SC_PAGESIZE) : 0;
}

constexpr auto kInterval = std::chrono::milliseconds(10);

} // namespace

dlc::BudgetLimits dlc::defaultBudget() {
  BudgetLimits limits;
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  if (pages > 0 && page > 0)
    limits.memoryBytes = (uint64_t)pages * (uint64_t)page / 5 * 4;
  limits.seconds = 30 * 60;
  return limits;
}

bool dlc::parseMemoryBudget(StringRef text, uint64_t &bytes) {
  if (text == "none") {
    bytes = 0;
    return true;
  }
  // K, M, G, T: 2^10, 2^20, 2^30, 2^40.
  uint64_t scale = 1;
  if (!text.empty()) {
    size_t unit = StringRef("KMGT").find(toUpper(text.back()));
    if (unit != StringRef::npos)
      scale = 1ull << (10 * (unit + 1));
    if (scale != 1)
      text = text.drop_back();
  }
  double value;
  if (text.empty() || text.getAsDouble(value) || !(value >= 0) ||
      value * scale >= 1.8e19)
    return false;
  bytes = (uint64_t)(value * scale);
  return true;
}

bool dlc::parseTimeBudget(StringRef text, double &seconds) {
  if (text == "none") {
    seconds = 0;
    return true;
  }
  return !text.getAsDouble(seconds) && seconds >= 0 && seconds < 1e9;
}

std::string dlc::formatBytes(uint64_t bytes) {
  if (bytes >= (1ull << 30))
    return formatv("{0:f1} GiB", bytes / double(1ull << 30)).str();
  if (bytes >= (1ull << 20))
    return formatv("{0:f0} MiB", bytes / double(1ull << 20)).str();
  return formatv("{0:f0} KiB", bytes / 1024.0).str();
}

std::string dlc::formatSeconds(double seconds) {
  char buf[32];
  snprintf(buf, sizeof buf, "%g s", seconds);
  return buf;
}

dlc::CompileWatch::CompileWatch(std::string model, BudgetLimits limits)
    : model(std::move(model)), limits(limits),
      start(std::chrono::steady_clock::now()) {
  check();
  watcher = std::thread([this] { watch(); });
}

dlc::CompileWatch::~CompileWatch() { stop(); }

void dlc::CompileWatch::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex);
    stopping = true;
  }
  wake.notify_all();
  if (watcher.joinable())
    watcher.join();
  std::lock_guard<std::mutex> lock(mutex);
  if (shown) {
    fputs("\r\033[K", stderr);
    fflush(stderr);
    shown = false;
  }
}

void dlc::CompileWatch::showProgress() {
  std::lock_guard<std::mutex> lock(mutex);
  progress = true;
}

void dlc::CompileWatch::drawProgress(uint64_t rss, double elapsed) {
  if (!progress || elapsed < 0.5 || elapsed - drawnAt < 0.1)
    return;
  drawnAt = elapsed;
  std::string line =
      formatv("dlc: {0}: {1} ({2:f1} s, {3})", sys::path::filename(model),
              phase, elapsed, formatBytes(rss));
  struct winsize size;
  size_t columns = 80;
  if (ioctl(STDERR_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 1)
    columns = size.ws_col;
  if (line.size() > columns - 1)
    line.resize(columns - 1);
  fputs(("\r" + line + "\033[K").c_str(), stderr);
  fflush(stderr);
  shown = true;
}

void dlc::CompileWatch::setPhase(StringRef name) {
  std::lock_guard<std::mutex> lock(mutex);
  phase = name.str();
}

uint64_t dlc::CompileWatch::peakBytes() const {
  std::lock_guard<std::mutex> lock(mutex);
  return peak;
}

double dlc::CompileWatch::elapsedSeconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
      .count();
}

void dlc::CompileWatch::watch() {
  std::unique_lock<std::mutex> lock(mutex);
  while (!wake.wait_for(lock, kInterval, [this] { return stopping; })) {
    lock.unlock();
    check();
    lock.lock();
  }
}

void dlc::CompileWatch::check() {
  uint64_t rss = residentBytes();
  double elapsed = elapsedSeconds();
  std::string over;
  {
    std::lock_guard<std::mutex> lock(mutex);
    peak = std::max(peak, rss);
    if (limits.memoryBytes && rss > limits.memoryBytes)
      over = formatv("the compile uses {0} of memory, over its budget of {1} "
                     "(--max-memory)",
                     formatBytes(rss), formatBytes(limits.memoryBytes));
    else if (limits.seconds > 0 && elapsed > limits.seconds)
      over = formatv("the compile has run for {0:f1} s, over its budget of "
                     "{1} (--max-time)",
                     elapsed, formatSeconds(limits.seconds));
    if (over.empty()) {
      drawProgress(rss, elapsed);
      return;
    }
    over = (shown ? "\r\033[K" : "") +
           ("dlc: error: " + model + ": " + over + ", in " + phase + "\n");
  }
  // The compiling thread is mid-flight; nothing it holds is released.
  fputs(over.c_str(), stderr);
  fflush(stderr);
  _exit(2);
}
