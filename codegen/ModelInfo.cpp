//===- ModelInfo.cpp - model inputs, outputs and memory figures -----------===//
#include "codegen/ModelInfo.h"

#include "ir/DlcAttrs.h"
#include "ir/DlcDialect.h"
#include "ir/DlcOps.h"

#include "dlc/dlc_runtime.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

using namespace mlir;

uint64_t dlc::dtypeSize(int dtype) {
  return dlc_dtype_size(static_cast<dlc_dtype>(dtype));
}

const char *dlc::dtypeCName(int dtype) {
  switch (static_cast<dlc_dtype>(dtype)) {
  case DLC_DTYPE_F32:
    return "float";
  case DLC_DTYPE_F64:
    return "double";
  case DLC_DTYPE_F16:
    return "uint16_t /* f16 */";
  case DLC_DTYPE_I8:
    return "int8_t";
  case DLC_DTYPE_U8:
    return "uint8_t";
  case DLC_DTYPE_I16:
    return "int16_t";
  case DLC_DTYPE_I32:
    return "int32_t";
  case DLC_DTYPE_I64:
    return "int64_t";
  case DLC_DTYPE_BOOL:
    return "bool";
  case DLC_DTYPE_U16:
    return "uint16_t";
  case DLC_DTYPE_U32:
    return "uint32_t";
  case DLC_DTYPE_U64:
    return "uint64_t";
  case DLC_DTYPE_BF16:
    return "uint16_t /* bf16 */";
  case DLC_DTYPE_INVALID:
    break;
  }
  return "void";
}

/// Reads one input or output; `value` (an output's returned value) gives
/// the upper bounds of a data-dependent shape.
static LogicalResult readTensor(func::FuncOp func, Type type,
                                DictionaryAttr attrs, StringRef kind,
                                unsigned index, dlc::TensorInfo &info,
                                Value value = {}) {
  auto tt = cast<RankedTensorType>(type);
  auto name = attrs ? attrs.getAs<StringAttr>("dlc.name") : StringAttr();
  auto dtype = attrs ? attrs.getAs<IntegerAttr>("dlc.dtype") : IntegerAttr();
  info.name = name ? name.str() : (kind + std::to_string(index)).str();
  info.dtype = dtype ? dtype.getInt() : 0;
  std::optional<SmallVector<int64_t>> bounds;
  auto symbolic =
      attrs ? attrs.getAs<ArrayAttr>(dlc::kSymbolicDimsAttrName) : ArrayAttr();
  if (symbolic && (int64_t)symbolic.size() == tt.getNumDynamicDims()) {
    // An input with symbolic dimensions: their ranges and names.
    bounds = llvm::to_vector(tt.getShape());
    info.minShape.assign(tt.getShape().begin(), tt.getShape().end());
    info.dimNames.assign(tt.getRank(), "");
    unsigned k = 0;
    for (int64_t d = 0; d < tt.getRank(); ++d) {
      if (!tt.isDynamicDim(d))
        continue;
      auto dim = cast<dlc::SymbolicDimAttr>(symbolic[k++]);
      (*bounds)[d] = dim.getMax();
      info.minShape[d] = dim.getMin();
      info.dimNames[d] = dim.getName().str();
    }
  } else if (!tt.hasStaticShape() && value) {
    // An output: bounds of data-dependent shapes from the import, those
    // of shapes that follow symbolic inputs from the pipeline
    // (extractOutputBounds); both are replaced by the pipeline's.
    bounds = dlc::upperBoundShape(value);
    if (!bounds)
      bounds = SmallVector<int64_t>(tt.getRank(), 0);
  }
  if (!tt.hasStaticShape() && !bounds)
    return func.emitError() << kind << " '" << info.name << "' has type " << tt
                            << "; dynamic shapes are not supported yet";
  if (dlc::dtypeSize(info.dtype) == 0)
    return func.emitError() << kind << " '" << info.name
                            << "' has an unsupported element type "
                            << tt.getElementType();
  info.shape.assign(tt.getShape().begin(), tt.getShape().end());
  uint64_t elements = 1;
  if (bounds) {
    info.maxShape.assign(bounds->begin(), bounds->end());
    for (int64_t &d : info.shape)
      if (ShapedType::isDynamic(d))
        d = -1;
    for (int64_t d : *bounds)
      elements *= d;
  } else {
    elements = tt.getNumElements();
  }
  info.sizeBytes = elements * dlc::dtypeSize(info.dtype);
  return success();
}

FailureOr<dlc::ModelInfo> dlc::extractModelInfo(ModuleOp module,
                                                StringRef name) {
  auto func = module.lookupSymbol<func::FuncOp>("main");
  if (!func)
    return module.emitError("no @main function"), failure();
  ModelInfo info;
  info.name = name.str();
  FunctionType type = func.getFunctionType();
  for (unsigned i = 0; i < type.getNumInputs(); ++i) {
    TensorInfo t;
    if (failed(readTensor(func, type.getInput(i), func.getArgAttrDict(i),
                          "input", i, t)))
      return failure();
    info.numInputDynamicDims +=
        t.dimNames.empty() ? 0 : llvm::count(t.shape, -1);
    info.inputs.push_back(t);
  }
  Operation *ret =
      func.isExternal() ? nullptr : func.getBody().back().getTerminator();
  for (unsigned i = 0; i < type.getNumResults(); ++i) {
    TensorInfo t;
    Value value = ret ? ret->getOperand(i) : Value();
    if (failed(readTensor(func, type.getResult(i), func.getResultAttrDict(i),
                          "output", i, t, value)))
      return failure();
    info.numDynamicDims += llvm::count(t.shape, -1);
    info.outputs.push_back(t);
  }
  module.walk([&](Operation *op) {
    if (auto value = op->getAttrOfType<ElementsAttr>("value"))
      info.weightsSize += (value.getNumElements() *
                               value.getElementType().getIntOrFloatBitWidth() +
                           7) / 8;
  });
  return info;
}

static uint64_t largestAttr(ModuleOp module, StringRef name) {
  uint64_t size = 0;
  module.walk([&](Operation *op) {
    if (auto attr = op->getAttrOfType<IntegerAttr>(name))
      size = std::max<uint64_t>(size, attr.getInt());
  });
  return size;
}

uint64_t dlc::extractWorkspaceSize(ModuleOp module) {
  return largestAttr(module, "dlc.workspace_size");
}

void dlc::extractChecks(ModuleOp module, ModelInfo &info) {
  info.checks.clear();
  info.checkOffset = 0;
  // @main, a func.func or, lowered, an llvm.func.
  Operation *main = module.lookupSymbol("main");
  if (!main)
    return;
  auto checks = main->getAttrOfType<ArrayAttr>("dlc.checks");
  auto offset = main->getAttrOfType<IntegerAttr>("dlc.check_offset");
  if (!checks || !offset)
    return;
  for (Attribute a : checks)
    info.checks.push_back(cast<StringAttr>(a).str());
  info.checkOffset = offset.getInt();
}

void dlc::extractHostParts(ModuleOp module, ModelInfo &info) {
  info.hostParts.clear();
  info.hostWorkspaceSize = info.busBytesToHost = info.busBytesToDevice = 0;
  Operation *main = module.lookupSymbol("main");
  if (!main)
    return;
  auto number = [&](StringRef name) -> uint64_t {
    auto attr = main->getAttrOfType<IntegerAttr>(name);
    return attr ? attr.getInt() : 0;
  };
  info.hostWorkspaceSize = number("dlc.host_workspace_size");
  info.busBytesToHost = number("dlc.bus_bytes_to_host");
  info.busBytesToDevice = number("dlc.bus_bytes_to_device");
  auto parts = main->getAttrOfType<ArrayAttr>("dlc.host_parts");
  if (!parts)
    return;
  for (auto part : parts.getAsRange<DictionaryAttr>()) {
    ModelInfo::HostPart hostPart;
    if (auto nodes = part.getAs<ArrayAttr>("nodes"))
      for (auto node : nodes.getAsRange<StringAttr>())
        hostPart.nodes.push_back(node.str());
    if (auto placements = part.getAs<ArrayAttr>("placements"))
      for (auto p : placements.getAsRange<PlacementAttr>())
        if (!llvm::is_contained(hostPart.reasons, p.getReason()))
          hostPart.reasons.push_back(p.getReason().str());
    info.hostParts.push_back(std::move(hostPart));
  }
}

void dlc::extractState(ModuleOp module, ModelInfo &info) {
  info.stateSize = 0;
  if (Operation *main = module.lookupSymbol("main"))
    if (auto size = main->getAttrOfType<IntegerAttr>("dlc.state_size"))
      info.stateSize = size.getInt();
}

void dlc::extractProfile(ModuleOp module, ModelInfo &info) {
  info.profileKernels.clear();
  info.profileOffset = 0;
  Operation *main = module.lookupSymbol("main");
  if (!main)
    return;
  auto kernels = main->getAttrOfType<ArrayAttr>("dlc.profile_kernels");
  auto offset = main->getAttrOfType<IntegerAttr>("dlc.profile_offset");
  if (!kernels || !offset)
    return;
  for (Attribute a : kernels)
    info.profileKernels.push_back(cast<StringAttr>(a).str());
  info.profileOffset = offset.getInt();
}

uint64_t dlc::extractWorkspaceLiveSet(ModuleOp module) {
  return largestAttr(module, "dlc.workspace_live_set");
}

LogicalResult dlc::extractOutputBounds(ModuleOp module, ModelInfo &info) {
  auto bounds = module->getAttrOfType<ArrayAttr>(kOutputMaxShapesAttr);
  if (!bounds)
    return success();
  if (bounds.size() != info.outputs.size())
    return module.emitError() << "the pipeline bounded " << bounds.size()
                              << " outputs of " << info.outputs.size();
  for (auto [t, attr] : llvm::zip(info.outputs, bounds)) {
    auto shape = cast<DenseI64ArrayAttr>(attr).asArrayRef();
    if (shape.empty() && !t.maxShape.empty())
      return module.emitError()
             << "output '" << t.name << "' has no bound after the pipeline";
    if (shape.empty())
      continue;
    t.maxShape.assign(shape.begin(), shape.end());
    uint64_t elements = 1;
    for (int64_t d : shape)
      elements *= d;
    t.sizeBytes = elements * dlc::dtypeSize(t.dtype);
  }
  return success();
}

void dlc::extractBatchAxes(ModuleOp module, ModelInfo &info) {
  auto dim = module->getAttrOfType<StringAttr>(kBatchDimAttr);
  auto in = module->getAttrOfType<DenseI64ArrayAttr>(kInputBatchAxesAttr);
  auto out = module->getAttrOfType<DenseI64ArrayAttr>(kOutputBatchAxesAttr);
  if (!dim || !in || !out)
    return;
  info.batchDim = dim.str();
  for (auto [t, axis] : llvm::zip(info.inputs, in.asArrayRef()))
    t.batchAxis = axis;
  for (auto [t, axis] : llvm::zip(info.outputs, out.asArrayRef()))
    t.batchAxis = axis;
}
