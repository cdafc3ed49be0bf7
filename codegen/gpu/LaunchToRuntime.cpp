//===- LaunchToRuntime.cpp - gpu.launch_func -> dlc CUDA runtime calls ----===//
#include "codegen/gpu/LaunchParams.h"
#include "codegen/gpu/Passes.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

namespace dlc {
#define GEN_PASS_DEF_LAUNCHTORUNTIME
#include "codegen/gpu/Passes.h.inc"
} // namespace dlc

using namespace mlir;

static constexpr const char *kLaunchFn = "dlcrt_cuda_launch";

/// The `dlc.cuda_context` argument of `func`.
static FailureOr<Value> contextArgument(LLVM::LLVMFuncOp func) {
  for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
    if (func.getArgAttr(i, "dlc.cuda_context"))
      return Value(func.getArgument(i));
  return failure();
}

/// Byte sizes of the parameters of each `.entry` in `ptx`.
static llvm::StringMap<SmallVector<unsigned>> ptxEntryParams(StringRef ptx) {
  llvm::StringMap<SmallVector<unsigned>> entries;
  size_t pos = 0;
  while ((pos = ptx.find(".entry ", pos)) != StringRef::npos) {
    pos += 7;
    size_t open = ptx.find('(', pos), close = ptx.find(')', pos);
    if (open == StringRef::npos || close == StringRef::npos || close < open)
      break;
    StringRef name = ptx.slice(pos, open).trim();
    SmallVector<StringRef> params;
    ptx.slice(open + 1, close).split(params, ',', -1, /*KeepEmpty=*/false);
    SmallVector<unsigned> sizes;
    for (StringRef param : params) {
      if (param.trim().empty())
        continue;
      // ".param .TYPE [.ptr .align N] NAME", TYPE one of [ubsf]BITS.
      StringRef type =
          param.trim().drop_front(strlen(".param")).trim().split(' ').first;
      unsigned bits = 0;
      if (type.consume_front(".") && !type.empty() &&
          StringRef("ubsf").contains(type.front()) &&
          type.drop_front().getAsInteger(10, bits))
        bits = 0;
      sizes.push_back(bits / 8);
    }
    entries[name] = sizes;
    pos = close;
  }
  return entries;
}

static unsigned hostParamSize(Type type) {
  if (isa<LLVM::LLVMPointerType>(type))
    return 8;
  if (type.isIntOrFloat())
    return (type.getIntOrFloatBitWidth() + 7) / 8;
  return 0;
}

namespace {
struct LaunchToRuntimePass
    : dlc::impl::LaunchToRuntimeBase<LaunchToRuntimePass> {

  LogicalResult recordBinaries(ModuleOp module) {
    SmallVector<gpu::BinaryOp> binaries(module.getOps<gpu::BinaryOp>());
    if (binaries.size() > 1)
      return binaries[1].emitError("expected one gpu.binary (all kernels in "
                                   "one module)");
    SmallVector<NamedAttribute> ptx;
    for (gpu::BinaryOp binary : binaries) {
      for (Attribute attr : binary.getObjects()) {
        auto object = cast<gpu::ObjectAttr>(attr);
        auto target = dyn_cast<NVVM::NVVMTargetAttr>(object.getTarget());
        if (!target || object.getFormat() != gpu::CompilationTarget::Assembly)
          return binary.emitError("expected NVVM targets compiled to PTX");
        ptx.push_back(NamedAttribute(
            StringAttr::get(module.getContext(), target.getChip()),
            object.getObject()));
      }
      binary.erase();
    }
    module->setAttr("dlc.cuda_ptx",
                    DictionaryAttr::get(module.getContext(), ptx));
    return success();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = &getContext();
    if (failed(recordBinaries(module)))
      return signalPassFailure();

    OpBuilder b(ctx);
    auto ptrTy = LLVM::LLVMPointerType::get(ctx);
    auto i32 = b.getI32Type(), i64 = b.getI64Type();
    auto voidTy = LLVM::LLVMVoidType::get(ctx);
    b.setInsertionPointToEnd(module.getBody());
    auto launchFn = LLVM::LLVMFuncOp::create(
        b, module.getLoc(), kLaunchFn,
        LLVM::LLVMFunctionType::get(
            voidTy, {ptrTy, i32, i64, i64, i64, i64, i64, i64, ptrTy}));

    SmallVector<Attribute> kernelNames;
    SmallVector<int64_t> kernelShared;
    // Per kernel, the ONNX nodes its launches compute (their locations'
    // names), for per-kernel profiles.
    SmallVector<llvm::SetVector<StringRef>> kernelNodes;
    llvm::StringMap<unsigned> kernelIndex;
    SmallVector<gpu::LaunchFuncOp> launches;
    module.walk([&](gpu::LaunchFuncOp l) { launches.push_back(l); });
    // The host must pass exactly the parameters each PTX entry declares
    // (a mismatch would only show on a GPU, as garbage or a fault).
    auto ptxAttr = module->getAttrOfType<DictionaryAttr>("dlc.cuda_ptx");
    for (NamedAttribute image : ptxAttr) {
      // Functions the driver cannot resolve when it loads the module.
      StringRef text = cast<StringAttr>(image.getValue()).getValue();
      size_t ext = text.find(".extern .func");
      if (ext != StringRef::npos) {
        StringRef line = text.substr(ext).split('\n').first;
        StringRef name = line.contains(')') ? line.rsplit(')').second
                                            : line.drop_front(13);
        module.emitError("the kernels call '")
            << name.take_until([](char c) { return c == '('; }).trim()
            << "', a CUDA math library function, but no libdevice was linked: "
               "set CUDA_HOME to a CUDA toolkit (its nvvm/libdevice/"
               "libdevice.10.bc)";
        return signalPassFailure();
      }
      auto entries = ptxEntryParams(cast<StringAttr>(image.getValue()));
      for (gpu::LaunchFuncOp launch : launches) {
        auto it = entries.find(launch.getKernelName().getValue());
        SmallVector<unsigned> host;
        for (Value v : launch.getKernelOperands())
          host.push_back(hostParamSize(v.getType()));
        if (it == entries.end() || it->second != host) {
          launch.emitError("kernel '")
              << launch.getKernelName().getValue() << "': the host passes "
              << host.size() << " parameters that do not match its "
              << image.getName().getValue() << " PTX entry ("
              << (it == entries.end() ? 0 : it->second.size())
              << " parameters)";
          return signalPassFailure();
        }
      }
    }
    for (gpu::LaunchFuncOp launch : launches) {
      auto func = launch->getParentOfType<LLVM::LLVMFuncOp>();
      FailureOr<Value> context =
          func ? contextArgument(func) : FailureOr<Value>(failure());
      if (failed(context)) {
        launch.emitError("kernel launch outside a function with a "
                         "dlc.cuda_context argument");
        return signalPassFailure();
      }
      if (launch.getAsyncToken() || !launch.getAsyncDependencies().empty() ||
          launch.hasClusterSize()) {
        launch.emitError("async and clustered launches are not supported");
        return signalPassFailure();
      }
      StringRef name = launch.getKernelName().getValue();
      // Each kernel's dynamic shared memory, the same at every launch; the
      // runtime passes it (and allows it beyond 48 KB at load).
      int64_t shared = 0;
      if (Value size = launch.getDynamicSharedMemorySize()) {
        std::optional<int64_t> c = getConstantIntValue(size);
        if (!c) {
          launch.emitError("kernel '")
              << name << "': its dynamic shared memory size is not a constant";
          return signalPassFailure();
        }
        shared = *c;
      }
      auto [it, inserted] = kernelIndex.try_emplace(name, kernelNames.size());
      if (inserted) {
        kernelNames.push_back(b.getStringAttr(name));
        kernelShared.push_back(shared);
        kernelNodes.emplace_back();
      }
      launch.getLoc()->walk([&](Location l) {
        if (auto node = dyn_cast<NameLoc>(l))
          kernelNodes[it->second].insert(node.getName().getValue());
        return WalkResult::advance();
      });
      if (!inserted && kernelShared[it->second] != shared) {
        launch.emitError("kernel '")
            << name << "' is launched with different shared memory sizes";
        return signalPassFailure();
      }

      Location loc = launch.getLoc();
      b.setInsertionPoint(launch);
      Value params =
          dlc::packLaunchParams(b, loc, func, launch.getKernelOperands());
      auto toI64 = [&](Value v) -> Value {
        if (v.getType() == i64)
          return v;
        return LLVM::ZExtOp::create(b, loc, i64, v);
      };
      Value index = LLVM::ConstantOp::create(b, loc, i32, it->second);
      LLVM::CallOp::create(
          b, loc, launchFn,
          ValueRange{*context, index, toI64(launch.getGridSizeX()),
                     toI64(launch.getGridSizeY()), toI64(launch.getGridSizeZ()),
                     toI64(launch.getBlockSizeX()), toI64(launch.getBlockSizeY()),
                     toI64(launch.getBlockSizeZ()), params});
      launch.erase();
    }
    module->setAttr("dlc.cuda_kernels", b.getArrayAttr(kernelNames));
    SmallVector<Attribute> nodes;
    for (const llvm::SetVector<StringRef> &set : kernelNodes)
      nodes.push_back(b.getStringAttr(llvm::join(set.begin(), set.end(), " ")));
    module->setAttr("dlc.cuda_kernel_nodes", b.getArrayAttr(nodes));
    module->setAttr("dlc.cuda_kernel_shared",
                    b.getDenseI64ArrayAttr(kernelShared));
    module->removeAttr(gpu::GPUDialect::getContainerModuleAttrName());
  }
};
} // namespace

FailureOr<dlc::CudaImages> dlc::extractCudaImages(ModuleOp module) {
  auto ptx = module->getAttrOfType<DictionaryAttr>("dlc.cuda_ptx");
  auto kernels = module->getAttrOfType<ArrayAttr>("dlc.cuda_kernels");
  if (!ptx || !kernels)
    return failure();
  CudaImages images;
  for (NamedAttribute entry : ptx) {
    int sm = 0;
    StringRef chip = entry.getName().getValue();
    bool archSpecific = chip.consume_back("a");
    if (!chip.consume_front("sm_") || chip.getAsInteger(10, sm))
      return failure();
    if (archSpecific)
      sm = -sm;
    images.ptx.push_back({sm, cast<StringAttr>(entry.getValue()).str()});
  }
  for (Attribute name : kernels)
    images.kernels.push_back(cast<StringAttr>(name).str());
  auto shared = module->getAttrOfType<DenseI64ArrayAttr>("dlc.cuda_kernel_shared");
  if (!shared || shared.size() != static_cast<int64_t>(images.kernels.size()))
    return failure();
  for (int64_t bytes : shared.asArrayRef())
    images.kernelShared.push_back(static_cast<uint32_t>(bytes));
  if (auto nodes = module->getAttrOfType<ArrayAttr>("dlc.cuda_kernel_nodes"))
    for (Attribute n : nodes)
      images.kernelNodes.push_back(cast<StringAttr>(n).str());
  auto global = module.lookupSymbol<LLVM::GlobalOp>("dlc_constants");
  if (!global)
    return failure();
  images.constantsSize =
      cast<LLVM::LLVMArrayType>(global.getGlobalType()).getNumElements();
  return images;
}
