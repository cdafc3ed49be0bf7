//===- SelectPlacement.cpp - the device of each kernel of a CUDA model ----===//
//
// The placement heuristics of the CUDA target: which kernels run on the
// CPU, as host parts of the model, and why. The decision is a typed
// attribute on the kernels' ops (#dlc.placement); dlc-gpu-outline-host-parts
// carries it out.
//
//===----------------------------------------------------------------------===//
#include "codegen/common/CostModel.h"
#include "codegen/common/KernelCosts.h"
#include "codegen/gpu/Passes.h"
#include "ir/DlcAttrs.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <deque>
#include <limits>

namespace dlc {
#define GEN_PASS_DEF_GPUSELECTPLACEMENT
#include "codegen/gpu/Passes.h.inc"
} // namespace dlc

using namespace mlir;
using namespace dlc;

namespace {
constexpr double kInfinity = std::numeric_limits<double>::infinity();
/// Seconds standing for what cannot be (a kernel on a device it cannot run
/// on), and for a transfer over a link without bandwidth: finite, so that
/// the cut stays well defined, and apart, so that an impossible placement
/// never wins over any number of impossible transfers.
constexpr double kImpossible = 1e12, kNoLink = 1e6;

/// A flow network for a minimum s-t cut (Edmonds-Karp on adjacency lists:
/// a node per kernel, an edge per kernel and device and per tensor between
/// kernels).
class MinCut {
public:
  explicit MinCut(unsigned nodes) : adjacent(nodes) {}
  void add(unsigned from, unsigned to, double c) {
    if (c <= 0)
      return;
    adjacent[from].push_back(edges.size());
    edges.push_back({to, c});
    adjacent[to].push_back(edges.size());
    edges.push_back({from, 0});
  }
  /// The nodes on the source's side of a minimum cut.
  std::vector<bool> sourceSide(unsigned s, unsigned t) {
    unsigned n = adjacent.size();
    while (true) {
      std::vector<int> via(n, -1); // the edge reaching each node
      std::vector<bool> seen(n, false);
      seen[s] = true;
      std::deque<unsigned> queue{s};
      while (!queue.empty() && !seen[t]) {
        unsigned u = queue.front();
        queue.pop_front();
        for (unsigned e : adjacent[u])
          if (!seen[edges[e].to] && edges[e].capacity > 0) {
            seen[edges[e].to] = true;
            via[edges[e].to] = e;
            queue.push_back(edges[e].to);
          }
      }
      if (!seen[t])
        return seen;
      double flow = kInfinity;
      for (unsigned v = t; v != s; v = edges[via[v] ^ 1].to)
        flow = std::min(flow, edges[via[v]].capacity);
      for (unsigned v = t; v != s; v = edges[via[v] ^ 1].to) {
        edges[via[v]].capacity -= flow;
        edges[via[v] ^ 1].capacity += flow;
      }
    }
  }

private:
  struct Edge {
    unsigned to;
    double capacity;
  };
  std::vector<Edge> edges; // each followed by its reverse
  std::vector<std::vector<unsigned>> adjacent;
};

/// Why the ops of `kernel` cannot be a host part (empty: they can).
std::string whyNotOnCpu(const KernelCost &kernel, func::FuncOp func) {
  for (Operation *op : kernel.ops) {
    if (op->getParentOp() != func)
      return "it runs inside a loop or a branch";
    if (!isa<linalg::LinalgOp>(op))
      return ("'" + op->getName().getStringRef() + "' is not a linalg op")
          .str();
    for (Type t :
         llvm::concat<Type>(op->getOperandTypes(), op->getResultTypes()))
      if (auto shaped = dyn_cast<ShapedType>(t);
          shaped && !shaped.hasStaticShape())
        return "its shapes are known at run time only";
  }
  return "";
}

/// The bytes of a tensor value (0 for anything else).
double valueBytes(Value v) {
  auto t = dyn_cast<RankedTensorType>(v.getType());
  if (!t || !t.hasStaticShape() || !t.getElementType().isIntOrFloat())
    return 0;
  return double(t.getNumElements()) *
         std::max<unsigned>(1, t.getElementTypeBitWidth() / 8);
}

/// The value `v` is a view or reshape of (through ops that move no data).
Value viewSource(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp, tensor::CastOp>(
            def))
      v = def->getOperand(0);
    else
      break;
  }
  return v;
}

bool isConstant(Value v) {
  Operation *def = v.getDefiningOp();
  return def && (def->hasTrait<OpTrait::ConstantLike>() ||
                 isa<bufferization::ToTensorOp, tensor::EmptyOp>(def));
}

struct SelectPlacementPass
    : dlc::impl::GpuSelectPlacementBase<SelectPlacementPass> {
  using GpuSelectPlacementBase::GpuSelectPlacementBase;

  LogicalResult figures(DevicePeaks &cpu, DevicePeaks &gpu) {
    ModuleOp module = getOperation();
    // Host parts are plain loops on the calling thread.
    cpu = estimatedCpuPeaks(/*vectorLanes=*/1, /*threads=*/1);
    if (cpuGflops > 0)
      cpu.flops = cpu.serialFlops = {cpuGflops * 1e9, FigureSource::Given};
    if (cpuGbps > 0) {
      cpu.bandwidth =
          cpu.serialBandwidth = {cpuGbps * 1e9, FigureSource::Given};
      cpu.cacheBytes = {0, FigureSource::Given};
    }
    std::optional<DevicePeaks> sheet = datasheetGpuPeaks(gpuName);
    if (!sheet)
      return module.emitError("dlc-gpu-select-placement: unknown GPU '")
             << gpuName << "' (h100, h200 or a100)";
    gpu = *sheet;
    if (gpuGflops > 0)
      gpu.flops = {gpuGflops * 1e9, FigureSource::Given};
    if (gpuGbps > 0)
      gpu.bandwidth = {gpuGbps * 1e9, FigureSource::Given};
    if (gpuSaturation > 0)
      gpu.saturation = {gpuSaturation, FigureSource::Given};
    if (launchUs >= 0)
      gpu.launch = {launchUs * 1e-6, FigureSource::Given};
    if (linkGbps >= 0)
      gpu.link = {linkGbps * 1e9, FigureSource::Given};
    if (linkLatencyUs >= 0)
      gpu.linkLatency = {linkLatencyUs * 1e-6, FigureSource::Given};
    return success();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (mode != "auto" && mode != "gpu" && mode != "off") {
      module.emitError("dlc-gpu-select-placement: unknown mode '")
          << mode << "' (auto, gpu or off)";
      return signalPassFailure();
    }
    if (mode == "off" && !cpuNodes.empty()) {
      module.emitError("node '")
          << cpuNodes.front()
          << "' is named to run on the CPU but the CPU fallback is off";
      return signalPassFailure();
    }
    DevicePeaks cpu, gpu;
    if (failed(figures(cpu, gpu)))
      return signalPassFailure();
    llvm::StringSet<> found;
    for (auto func : module.getOps<func::FuncOp>())
      if (!func.isExternal() && failed(place(func, cpu, gpu, found)))
        return signalPassFailure();
    for (const std::string &name : cpuNodes)
      if (!found.contains(name)) {
        module.emitError("no kernel computes node '")
            << name
            << "' (named to run on the CPU; an unnamed ONNX node is "
               "OpType_index, its position in the graph)";
        return signalPassFailure();
      }
  }

  LogicalResult place(func::FuncOp func, const DevicePeaks &cpu,
                      const DevicePeaks &gpu, llvm::StringSet<> &found) {
    ProgramCosts costs = analyzeKernelCosts(func);
    std::vector<KernelCost> &kernels = costs.kernels;
    unsigned n = kernels.size();

    // Kernels computing the nodes of `cpu-nodes`.
    llvm::StringSet<> wanted;
    for (const std::string &name : cpuNodes)
      wanted.insert(name);
    std::vector<std::string> why(n);
    std::vector<bool> named(n, false);
    for (unsigned k = 0; k < n; ++k) {
      why[k] = whyNotOnCpu(kernels[k], func);
      for (Operation *op : kernels[k].ops) {
        llvm::SetVector<StringRef> names;
        collectNodeNames(op->getLoc(), names);
        for (StringRef name : names)
          if (wanted.contains(name)) {
            found.insert(name);
            named[k] = true;
            if (!why[k].empty()) {
              op->emitError("node '")
                  << name
                  << "' cannot run on the CPU inside a CUDA model: " << why[k];
              return failure();
            }
          }
      }
    }

    // Predicted times, and the tensors crossing between kernels.
    std::vector<double> tCpu(n), tGpu(n);
    llvm::DenseMap<Operation *, unsigned> kernelOf;
    for (unsigned k = 0; k < n; ++k) {
      for (Operation *op : kernels[k].ops)
        kernelOf[op] = k;
      KernelTime c = predictKernel(kernels[k], cpu, 1.0);
      KernelTime g = predictKernel(kernels[k], gpu, 1.0);
      tCpu[k] = c.known ? c.seconds : kImpossible;
      tGpu[k] = g.known ? g.seconds : 0;
    }
    auto transfer = [&](double bytes) {
      if (bytes <= 0)
        return 0.0;
      double link = gpu.link.value;
      return (link > 0 ? std::min(bytes / link, kNoLink) : kNoLink) +
             gpu.linkLatency.value;
    };
    // Nodes: kernels 0..n-1, the source (the CPU) n, the sink (the GPU)
    // n + 1. A kernel on the GPU side cuts source -> k (its GPU time); on
    // the CPU side k -> sink (its CPU time).
    unsigned source = n, sink = n + 1;
    MinCut cut(n + 2);
    std::vector<double> inCpu(n, 0), inGpu(n, 0);
    for (unsigned k = 0; k < n; ++k) {
      bool placeable = why[k].empty() && mode != "off";
      double onCpu = named[k] ? 0 : tCpu[k];
      double onGpu = named[k] ? kImpossible : tGpu[k];
      if (!placeable || (mode == "gpu" && !named[k]))
        onCpu = kImpossible;
      llvm::DenseSet<Value> seen;
      for (Operation *op : kernels[k].ops)
        for (Value operand : op->getOperands()) {
          Value v = viewSource(operand);
          if (!seen.insert(v).second || isConstant(v))
            continue;
          Operation *def = v.getDefiningOp();
          auto it = def ? kernelOf.find(def) : kernelOf.end();
          if (it != kernelOf.end() && it->second == k)
            continue;
          double c = transfer(valueBytes(v));
          if (it != kernelOf.end()) {
            cut.add(it->second, k, c);
            cut.add(k, it->second, c);
          } else if (isa<BlockArgument>(v) &&
                     v.getParentBlock() == &func.getBody().front()) {
            onGpu += c; // an input of the graph, in host memory
            inGpu[k] += c;
          } else {
            onCpu += c; // computed on the GPU outside any kernel
            inCpu[k] += c;
          }
        }
      // Results of the graph go to host memory; results that device code
      // outside any kernel uses (a loop's initial value) to the device.
      for (Operation *op : kernels[k].ops)
        for (Value r : op->getResults()) {
          bool toHost = false, toDevice = false;
          SmallVector<Value> worklist{r};
          while (!worklist.empty()) {
            Value v = worklist.pop_back_val();
            for (Operation *user : v.getUsers()) {
              if (isa<func::ReturnOp>(user))
                toHost = true;
              else if (isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp,
                           tensor::CastOp>(user))
                worklist.append(user->result_begin(), user->result_end());
              else if (!kernelOf.count(user))
                toDevice = true;
            }
          }
          double c = transfer(valueBytes(r));
          if (toHost) {
            onGpu += c;
            inGpu[k] += c;
          }
          if (toDevice) {
            onCpu += c;
            inCpu[k] += c;
          }
        }
      cut.add(source, k, onGpu);
      cut.add(k, sink, onCpu);
    }
    // Outside `auto` only the named kernels move: no cut to make.
    std::vector<bool> onCpuSide = named;
    if (mode == "auto")
      onCpuSide = cut.sourceSide(source, sink);

    MLIRContext *ctx = &getContext();
    auto ns = [](double seconds) -> int64_t {
      return seconds < kNoLink ? int64_t(std::llround(seconds * 1e9)) : -1;
    };
    for (unsigned k = 0; remarks && k < n; ++k) {
      bool cpuSide = onCpuSide[k] && why[k].empty() && mode != "off";
      kernels[k].root->emitRemark("kernel '")
          << kernels[k].rootNode << "': cpu " << ns(tCpu[k]) << " ns, gpu "
          << ns(tGpu[k]) << " ns, on the " << (cpuSide ? "cpu" : "gpu");
    }
    for (unsigned k = 0; k < n; ++k) {
      if (!onCpuSide[k] || !why[k].empty() || mode == "off")
        continue;
      std::string reason;
      if (named[k])
        reason = "named by --cpu-nodes";
      else
        reason =
            tGpu[k] + inGpu[k] >= kNoLink
                ? llvm::formatv("the cost model: {0:f2} us on the CPU; the "
                                "link to the GPU has no bandwidth",
                                (tCpu[k] + inCpu[k]) * 1e6)
                      .str()
                : llvm::formatv("the cost model: {0:f2} us on the CPU, {1:f2} "
                                "us on the GPU with transfers",
                                (tCpu[k] + inCpu[k]) * 1e6,
                                (tGpu[k] + inGpu[k]) * 1e6)
                      .str();
      auto attr =
          PlacementAttr::get(ctx, Device::Cpu, reason, ns(tCpu[k] + inCpu[k]),
                             ns(tGpu[k] + inGpu[k]));
      for (Operation *op : kernels[k].ops)
        op->setAttr(kPlacementAttrName, attr);
    }
    // Fills that only initialize the CPU's ops' buffers (a reduction's
    // accumulator) go with them rather than run as kernels of their own.
    for (auto fill : func.getBody().front().getOps<linalg::FillOp>()) {
      Attribute placement;
      for (Operation *user : fill->getUsers()) {
        Attribute p = isPlacedOnCpu(user) ? user->getAttr(kPlacementAttrName)
                                          : Attribute();
        if (!p || (placement && placement != p)) {
          placement = {};
          break;
        }
        placement = p;
      }
      if (placement && !fill->use_empty())
        fill->setAttr(kPlacementAttrName, placement);
    }
    return success();
  }
};
} // namespace
