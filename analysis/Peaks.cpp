//===- Peaks.cpp - this machine's peaks: measured, read, written ----------===//
#include "analysis/Peaks.h"

#include "analysis/gpu-peaks/gpu_peaks.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <fstream>
#include <memory>
#include <thread>
#include <unistd.h>
#include <vector>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

using namespace llvm;
using namespace dlc;

namespace {

double now() {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

/// Twelve independent chains of vector FMAs (enough to cover the FMA
/// latency on two pipes); returns the FLOPs done.
#if defined(__x86_64__)
__attribute__((target("avx512f"))) double fmaChainsAvx512(long iters,
                                                          float *sink) {
  __m512 a0 = _mm512_set1_ps(0.0f), a1 = _mm512_set1_ps(0.001f),
         a2 = _mm512_set1_ps(0.002f), a3 = _mm512_set1_ps(0.003f),
         a4 = _mm512_set1_ps(0.004f), a5 = _mm512_set1_ps(0.005f),
         a6 = _mm512_set1_ps(0.006f), a7 = _mm512_set1_ps(0.007f),
         a8 = _mm512_set1_ps(0.008f), a9 = _mm512_set1_ps(0.009f),
         a10 = _mm512_set1_ps(0.010f), a11 = _mm512_set1_ps(0.011f);
  const __m512 a = _mm512_set1_ps(0.999999f), b = _mm512_set1_ps(1e-7f);
  for (long n = 0; n < iters; ++n) {
    a0 = _mm512_fmadd_ps(a0, a, b), a1 = _mm512_fmadd_ps(a1, a, b);
    a2 = _mm512_fmadd_ps(a2, a, b), a3 = _mm512_fmadd_ps(a3, a, b);
    a4 = _mm512_fmadd_ps(a4, a, b), a5 = _mm512_fmadd_ps(a5, a, b);
    a6 = _mm512_fmadd_ps(a6, a, b), a7 = _mm512_fmadd_ps(a7, a, b);
    a8 = _mm512_fmadd_ps(a8, a, b), a9 = _mm512_fmadd_ps(a9, a, b);
    a10 = _mm512_fmadd_ps(a10, a, b), a11 = _mm512_fmadd_ps(a11, a, b);
    __asm__ volatile(""
                     : "+v"(a0), "+v"(a1), "+v"(a2), "+v"(a3), "+v"(a4),
                       "+v"(a5), "+v"(a6), "+v"(a7), "+v"(a8), "+v"(a9),
                       "+v"(a10), "+v"(a11));
  }
  __m512 s = _mm512_add_ps(
      _mm512_add_ps(_mm512_add_ps(a0, a1), _mm512_add_ps(a2, a3)),
      _mm512_add_ps(_mm512_add_ps(a4, a5), _mm512_add_ps(a6, a7)));
  s = _mm512_add_ps(
      s, _mm512_add_ps(_mm512_add_ps(a8, a9), _mm512_add_ps(a10, a11)));
  *sink += _mm512_reduce_add_ps(s);
  return 2.0 * 16 * 12 * double(iters);
}

__attribute__((target("avx2,fma"))) double fmaChainsAvx2(long iters,
                                                         float *sink) {
  __m256 a0 = _mm256_set1_ps(0.0f), a1 = _mm256_set1_ps(0.001f),
         a2 = _mm256_set1_ps(0.002f), a3 = _mm256_set1_ps(0.003f),
         a4 = _mm256_set1_ps(0.004f), a5 = _mm256_set1_ps(0.005f),
         a6 = _mm256_set1_ps(0.006f), a7 = _mm256_set1_ps(0.007f),
         a8 = _mm256_set1_ps(0.008f), a9 = _mm256_set1_ps(0.009f),
         a10 = _mm256_set1_ps(0.010f), a11 = _mm256_set1_ps(0.011f);
  const __m256 a = _mm256_set1_ps(0.999999f), b = _mm256_set1_ps(1e-7f);
  for (long n = 0; n < iters; ++n) {
    a0 = _mm256_fmadd_ps(a0, a, b), a1 = _mm256_fmadd_ps(a1, a, b);
    a2 = _mm256_fmadd_ps(a2, a, b), a3 = _mm256_fmadd_ps(a3, a, b);
    a4 = _mm256_fmadd_ps(a4, a, b), a5 = _mm256_fmadd_ps(a5, a, b);
    a6 = _mm256_fmadd_ps(a6, a, b), a7 = _mm256_fmadd_ps(a7, a, b);
    a8 = _mm256_fmadd_ps(a8, a, b), a9 = _mm256_fmadd_ps(a9, a, b);
    a10 = _mm256_fmadd_ps(a10, a, b), a11 = _mm256_fmadd_ps(a11, a, b);
    __asm__ volatile(""
                     : "+x"(a0), "+x"(a1), "+x"(a2), "+x"(a3), "+x"(a4),
                       "+x"(a5), "+x"(a6), "+x"(a7), "+x"(a8), "+x"(a9),
                       "+x"(a10), "+x"(a11));
  }
  __m256 s = _mm256_add_ps(
      _mm256_add_ps(_mm256_add_ps(a0, a1), _mm256_add_ps(a2, a3)),
      _mm256_add_ps(_mm256_add_ps(a4, a5), _mm256_add_ps(a6, a7)));
  s = _mm256_add_ps(
      s, _mm256_add_ps(_mm256_add_ps(a8, a9), _mm256_add_ps(a10, a11)));
  float lanes[8];
  _mm256_storeu_ps(lanes, s);
  *sink += lanes[0];
  return 2.0 * 8 * 12 * double(iters);
}
#endif

double fmaChainsScalar(long iters, float *sink) {
  float acc[12];
  for (int i = 0; i < 12; ++i)
    acc[i] = 0.001f * i;
  for (long n = 0; n < iters; ++n)
    for (float &a : acc)
      a = a * 0.999999f + 1e-7f;
  for (float a : acc)
    *sink += a;
  return 2.0 * 12 * double(iters);
}

using FmaKernel = double (*)(long, float *);

FmaKernel pickFmaKernel(std::string &isa) {
#if defined(__x86_64__)
  if (__builtin_cpu_supports("avx512f")) {
    isa = "avx512";
    return fmaChainsAvx512;
  }
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
    isa = "avx2";
    return fmaChainsAvx2;
  }
#endif
  isa = "scalar";
  return fmaChainsScalar;
}

/// Runs `work(thread)` on `threads` threads started together; returns the
/// wall time from the common start to the last finish.
template <typename Work> double timeOnThreads(unsigned threads, Work work) {
  std::atomic<unsigned> ready{0};
  std::atomic<bool> go{false};
  std::vector<std::thread> pool;
  std::vector<double> done(threads, 0);
  for (unsigned t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      ready.fetch_add(1);
      while (!go.load())
        std::this_thread::yield();
      work(t);
      done[t] = now();
    });
  while (ready.load() < threads)
    std::this_thread::yield();
  double start = now();
  go.store(true);
  for (std::thread &th : pool)
    th.join();
  return *std::max_element(done.begin(), done.end()) - start;
}

std::string hostCpuName() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("model name", 0) == 0) {
      size_t colon = line.find(':');
      if (colon != std::string::npos)
        return StringRef(line).substr(colon + 1).trim().str();
    }
  return "host CPU";
}

} // namespace

MachinePeaks dlc::measureCpuPeaks(unsigned maxThreads) {
  MachinePeaks peaks;
  peaks.cpuName = hostCpuName();
  FmaKernel kernel = pickFmaKernel(peaks.cpuIsa);
  // Iterations for about 0.1 s on one thread.
  float sink = 0;
  long iters = 1 << 20;
  double t = timeOnThreads(1, [&](unsigned) { kernel(iters, &sink); });
  iters = std::max<long>(iters, long(iters * 0.1 / std::max(t, 1e-6)));

  // A copy of 128 MiB split among the threads; pages touched first.
  const size_t bytes = size_t(128) << 20;
  std::unique_ptr<char[]> src(new char[bytes]), dst(new char[bytes]);
  std::memset(src.get(), 1, bytes);
  std::memset(dst.get(), 0, bytes);

  // 1, 2, 4, ... threads and maxThreads.
  std::vector<unsigned> counts;
  for (unsigned t = 1; t < maxThreads; t *= 2)
    counts.push_back(t);
  counts.push_back(std::max(1u, maxThreads));
  for (unsigned threads : counts) {
    double best = 0;
    std::vector<float> sinks(threads, 0);
    for (int rep = 0; rep < 3; ++rep) {
      double flops = 0;
      double seconds = timeOnThreads(threads, [&](unsigned th) {
        double f = kernel(iters, &sinks[th]);
        if (th == 0)
          flops = f;
      });
      best = std::max(best, flops * threads / seconds);
    }
    double bestCopy = 0;
    size_t chunk = bytes / threads;
    for (int rep = 0; rep < 3; ++rep) {
      double seconds = timeOnThreads(threads, [&](unsigned th) {
        std::memcpy(dst.get() + th * chunk, src.get() + th * chunk, chunk);
      });
      bestCopy = std::max(bestCopy, 2.0 * chunk * threads / seconds);
    }
    peaks.cpu[threads] = {{best, FigureSource::Measured},
                          {bestCopy, FigureSource::Measured}};
    for (float s : sinks)
      sink += s;
  }

  // One thread's cache: its size as the system reports it, its bandwidth
  // a copy of a quarter of it, again and again.
  long l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
  double cacheBytes = l2 > 0 ? double(l2) : 512.0 * 1024;
  peaks.cacheBytes = {cacheBytes, l2 > 0 ? FigureSource::Datasheet
                                         : FigureSource::Estimate};
  size_t piece = size_t(cacheBytes) / 4;
  double bestCache = 0;
  for (int rep = 0; rep < 3; ++rep) {
    const int copies = 2000;
    double seconds = timeOnThreads(1, [&](unsigned) {
      for (int i = 0; i < copies; ++i) {
        std::memcpy(dst.get(), src.get() + (i & 1) * 64, piece);
        __asm__ volatile("" ::"r"(dst.get()) : "memory");
      }
    });
    bestCache = std::max(bestCache, 2.0 * piece * copies / seconds);
  }
  peaks.cacheBandwidth = {bestCache, FigureSource::Measured};
  // Keeps the FMA chains' results alive.
  __asm__ volatile("" : : "g"(sink) : "memory");
  return peaks;
}

/// Replaces the built-in efficiency of the kernel classes named in
/// `given`.
static void applyEfficiency(const std::map<std::string, double> &given,
                            DevicePeaks &device) {
  for (const auto &[name, value] : given)
    for (size_t k = 0; k < device.efficiency.size(); ++k)
      if (kernelKindName(KernelKind(k)) == name)
        device.efficiency[k] = value;
}

/// Reads an "efficiency" object (kernel class -> fraction of the peak).
static bool readEfficiency(const json::Object &object,
                           std::map<std::string, double> &out,
                           std::string &error) {
  const json::Value *value = object.get("efficiency");
  if (!value)
    return true;
  const json::Object *map = value->getAsObject();
  if (!map) {
    error = "'efficiency' must be an object of kernel classes";
    return false;
  }
  for (const auto &[key, v] : *map) {
    std::optional<double> number = v.getAsNumber();
    bool known = false;
    for (int k = 0; k <= int(KernelKind::Other); ++k)
      known |= kernelKindName(KernelKind(k)) == key.str();
    if (!known) {
      error = "'efficiency' has an unknown kernel class '" + key.str() +
              "' (convolution, contraction, reduction, elementwise, data "
              "movement, other)";
      return false;
    }
    if (!number || !(*number > 0) || *number > 1) {
      error = "'efficiency." + key.str() + "' must be a number in (0, 1]";
      return false;
    }
    out[key.str()] = *number;
  }
  return true;
}

DevicePeaks dlc::cpuPeaksAt(const MachinePeaks &peaks, unsigned threads,
                            unsigned vectorLanes) {
  DevicePeaks cpu = estimatedCpuPeaks(vectorLanes, threads);
  if (!peaks.cpuName.empty())
    cpu.name = peaks.cpuName;
  auto it = peaks.cpu.find(threads);
  if (it != peaks.cpu.end()) {
    if (it->second.flops.value > 0)
      cpu.flops = it->second.flops;
    if (it->second.bandwidth.value > 0)
      cpu.bandwidth = it->second.bandwidth;
  } else if (it = peaks.cpu.upper_bound(threads); it != peaks.cpu.begin()) {
    // Not measured at this count: the largest count below, its FLOP rate
    // scaled by the threads, its bandwidth as it is (estimates).
    --it;
    if (it->second.flops.value > 0)
      cpu.flops = {it->second.flops.value * threads / it->first,
                   FigureSource::Estimate};
    if (it->second.bandwidth.value > 0)
      cpu.bandwidth = {it->second.bandwidth.value, FigureSource::Estimate};
  }
  if (peaks.cpuLaunch)
    cpu.launch = *peaks.cpuLaunch;
  if (peaks.cpuRunCost)
    cpu.runCost = *peaks.cpuRunCost;
  applyEfficiency(peaks.cpuEfficiency, cpu);
  auto one = peaks.cpu.find(1);
  if (one != peaks.cpu.end()) {
    if (one->second.flops.value > 0)
      cpu.serialFlops = one->second.flops;
    if (one->second.bandwidth.value > 0)
      cpu.serialBandwidth = one->second.bandwidth;
  } else if (threads == 1) {
    cpu.serialFlops = cpu.flops;
    cpu.serialBandwidth = cpu.bandwidth;
  }
  if (peaks.cacheBytes)
    cpu.cacheBytes = *peaks.cacheBytes;
  if (peaks.cacheBandwidth)
    cpu.cacheBandwidth = *peaks.cacheBandwidth;
  return cpu;
}

json::Value dlc::figureToJson(const Figure &figure) {
  return json::Object{{"value", figure.value},
                      {"source", figureSourceName(figure.source)}};
}

void dlc::printPeaks(raw_ostream &os, const MachinePeaks &peaks,
                     StringRef gpuWhy) {
  os << "dlc: " << peaks.cpuName << " (" << peaks.cpuIsa << "), measured:\n";
  for (const auto &[count, figures] : peaks.cpu)
    os << formatv("  {0} thread(s): {1:f1} GFLOP/s fp32 FMA, {2:f1} "
                  "GB/s copy (bytes read + written)\n",
                  count, figures.flops.value / 1e9,
                  figures.bandwidth.value / 1e9);
  os << formatv("  one thread's cache: {0} KiB, {1:f1} GB/s copy\n",
                int64_t(peaks.cacheBytes->value / 1024),
                peaks.cacheBandwidth->value / 1e9);
  if (const auto &g = peaks.gpu) {
    auto fig = [](const Figure &f, double scale, const char *unit) {
      return f.source == FigureSource::Measured
                 ? formatv("{0:f1} {1}", f.value / scale, unit).str()
                 : std::string("not measured");
    };
    os << "dlc: " << g->name << ", measured:\n"
       << "  " << fig(g->flops, 1e12, "TFLOP/s") << " fp32 FMA, "
       << fig(g->tensorFlops, 1e12, "TFLOP/s")
       << " fp16 tensor cores (mma.sync, fp32 accumulation)\n"
       << "  " << fig(g->bandwidth, 1e9, "GB/s")
       << " device copy (bytes read + written), "
       << fig(g->memory, double(1u << 30), "GiB") << " memory\n"
       << "  host to device " << fig(g->link, 1e9, "GB/s") << " page-locked, "
       << fig(g->linkPageable, 1e9, "GB/s") << " pageable, "
       << fig(g->linkLatency, 1e-6, "us") << " per small copy; "
       << fig(g->launch, 1e-6, "us") << " per kernel launch\n";
    if (!gpuWhy.empty())
      os << "  (" << gpuWhy << ")\n";
  } else {
    os << "dlc: no GPU measured: " << gpuWhy << "\n";
  }
}

json::Value dlc::peaksToJson(const MachinePeaks &peaks) {
  json::Object cpu{{"name", peaks.cpuName}, {"isa", peaks.cpuIsa}};
  json::Object threads;
  for (const auto &[count, figures] : peaks.cpu)
    threads[std::to_string(count)] =
        json::Object{{"flops", figureToJson(figures.flops)},
                     {"bandwidth", figureToJson(figures.bandwidth)}};
  cpu["threads"] = std::move(threads);
  if (peaks.cpuLaunch)
    cpu["launch"] = figureToJson(*peaks.cpuLaunch);
  if (peaks.cpuRunCost)
    cpu["run_cost"] = figureToJson(*peaks.cpuRunCost);
  if (peaks.cacheBytes)
    cpu["cache_bytes"] = figureToJson(*peaks.cacheBytes);
  if (peaks.cacheBandwidth)
    cpu["cache_bandwidth"] = figureToJson(*peaks.cacheBandwidth);
  json::Object top{{"cpu", std::move(cpu)}};
  if (peaks.gpu) {
    const DevicePeaks &g = *peaks.gpu;
    json::Object cuda{{"name", g.name},
                      {"flops", figureToJson(g.flops)},
                      {"bandwidth", figureToJson(g.bandwidth)},
                      {"memory", figureToJson(g.memory)},
                      {"link", figureToJson(g.link)},
                      {"link_latency", figureToJson(g.linkLatency)},
                      {"launch", figureToJson(g.launch)},
                      {"run_cost", figureToJson(g.runCost)},
                      {"saturation", figureToJson(g.saturation)}};
    if (g.tensorFlops.value > 0)
      cuda["tensor_flops"] = figureToJson(g.tensorFlops);
    if (g.linkPageable.value > 0)
      cuda["link_pageable"] = figureToJson(g.linkPageable);
    top["cuda"] = std::move(cuda);
  }
  return top;
}

/// A figure in a peaks file: a number (given) or {"value", "source"}.
static bool readFigure(const json::Object &object, StringRef key,
                       Figure &figure, std::string &error) {
  const json::Value *value = object.get(key);
  if (!value)
    return true;
  if (std::optional<double> number = value->getAsNumber()) {
    figure = {*number, FigureSource::Given};
  } else if (const json::Object *o = value->getAsObject()) {
    std::optional<double> number = o->getNumber("value");
    if (!number) {
      error = "'" + key.str() + "' has no number 'value'";
      return false;
    }
    figure = {*number, FigureSource::Given};
    if (std::optional<StringRef> source = o->getString("source")) {
      if (*source == "measured")
        figure.source = FigureSource::Measured;
      else if (*source == "datasheet")
        figure.source = FigureSource::Datasheet;
      else if (*source == "estimate")
        figure.source = FigureSource::Estimate;
    }
  } else {
    error = "'" + key.str() + "' is neither a number nor {\"value\": ...}";
    return false;
  }
  if (!(figure.value > 0)) {
    error = "'" + key.str() + "' must be a positive number";
    return false;
  }
  return true;
}

bool dlc::readPeaksFile(StringRef path, MachinePeaks &peaks,
                        std::string &error) {
  auto buffer = MemoryBuffer::getFile(path);
  if (!buffer) {
    error = path.str() + ": " + buffer.getError().message();
    return false;
  }
  Expected<json::Value> parsed = json::parse((*buffer)->getBuffer());
  if (!parsed) {
    error = path.str() + ": not JSON: " + toString(parsed.takeError());
    return false;
  }
  const json::Object *top = parsed->getAsObject();
  if (!top) {
    error = path.str() + ": expected an object with 'cpu' and/or 'cuda'";
    return false;
  }
  auto fail = [&](StringRef where) {
    error = path.str() + ": " + where.str() + ": " + error;
    return false;
  };
  if (const json::Object *cpu = top->getObject("cpu")) {
    if (auto name = cpu->getString("name"))
      peaks.cpuName = name->str();
    if (auto isa = cpu->getString("isa"))
      peaks.cpuIsa = isa->str();
    if (const json::Object *threads = cpu->getObject("threads"))
      for (const auto &[key, value] : *threads) {
        unsigned count = 0;
        const json::Object *figures = value.getAsObject();
        if (StringRef(key).getAsInteger(10, count) || count < 1 || !figures) {
          error = "'" + key.str() +
                  "' must be a thread count with an object of figures";
          return fail("cpu.threads");
        }
        CpuThreadPeaks p;
        if (!readFigure(*figures, "flops", p.flops, error) ||
            !readFigure(*figures, "bandwidth", p.bandwidth, error))
          return fail("cpu.threads." + key.str());
        peaks.cpu[count] = p;
      }
    Figure launch, runCost, cacheBytes, cacheBandwidth;
    if (!readFigure(*cpu, "launch", launch, error) ||
        !readFigure(*cpu, "run_cost", runCost, error) ||
        !readFigure(*cpu, "cache_bytes", cacheBytes, error) ||
        !readFigure(*cpu, "cache_bandwidth", cacheBandwidth, error))
      return fail("cpu");
    if (launch.value > 0)
      peaks.cpuLaunch = launch;
    if (runCost.value > 0)
      peaks.cpuRunCost = runCost;
    if (!readEfficiency(*cpu, peaks.cpuEfficiency, error))
      return fail("cpu");
    if (cacheBytes.value > 0)
      peaks.cacheBytes = cacheBytes;
    if (cacheBandwidth.value > 0)
      peaks.cacheBandwidth = cacheBandwidth;
  }
  if (const json::Object *cuda = top->getObject("cuda")) {
    DevicePeaks gpu = *datasheetGpuPeaks("h200");
    if (auto name = cuda->getString("name"))
      gpu.name = name->str();
    if (!readFigure(*cuda, "flops", gpu.flops, error) ||
        !readFigure(*cuda, "bandwidth", gpu.bandwidth, error) ||
        !readFigure(*cuda, "memory", gpu.memory, error) ||
        !readFigure(*cuda, "link", gpu.link, error) ||
        !readFigure(*cuda, "link_latency", gpu.linkLatency, error) ||
        !readFigure(*cuda, "launch", gpu.launch, error) ||
        !readFigure(*cuda, "run_cost", gpu.runCost, error) ||
        !readFigure(*cuda, "saturation", gpu.saturation, error) ||
        !readFigure(*cuda, "tensor_flops", gpu.tensorFlops, error) ||
        !readFigure(*cuda, "link_pageable", gpu.linkPageable, error))
      return fail("cuda");
    std::map<std::string, double> efficiency;
    if (!readEfficiency(*cuda, efficiency, error))
      return fail("cuda");
    applyEfficiency(efficiency, gpu);
    peaks.gpu = gpu;
  }
  return true;
}

std::optional<DevicePeaks> dlc::measureGpuPeaks(std::string &why) {
  dlc_gpu_peaks m;
  if (dlc_measure_gpu_peaks(0, &m) != 0) {
    why = m.error;
    return std::nullopt;
  }
  StringRef name(m.name);
  DevicePeaks gpu =
      *datasheetGpuPeaks(name.contains_insensitive("a100")   ? "a100"
                         : name.contains_insensitive("h100") ? "h100"
                                                             : "h200");
  gpu.name = name.empty() ? "GPU 0" : name.str();
  auto set = [](Figure &figure, double value) {
    if (value > 0)
      figure = {value, FigureSource::Measured};
  };
  set(gpu.flops, m.fp32_flops);
  set(gpu.tensorFlops, m.fp16_tensor_flops);
  set(gpu.bandwidth, m.bandwidth);
  set(gpu.memory, m.memory_bytes);
  set(gpu.link, m.link_pinned);
  set(gpu.linkPageable, m.link_pageable);
  set(gpu.linkLatency, m.link_latency);
  set(gpu.launch, m.launch);
  why = m.error;
  return gpu;
}
