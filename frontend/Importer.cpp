//===- Importer.cpp - ONNX graph -> dlc dialect ---------------------------===//
#include "frontend/Importer.h"
#include "frontend/AttributeCheck.h"
#include "frontend/ConstantFolding.h"
#include "frontend/DynamicBatch.h"
#include "frontend/GraphImporter.h"
#include "frontend/ModelLoader.h"
#include "frontend/NodeImporter.h"
#include "frontend/OpVersions.h"
#include "frontend/ShapeValues.h"
#include "ir/DlcAttrs.h"
#include "ir/DlcDialect.h"
#include "ir/DlcOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/SaveAndRestore.h"

#include <functional>

using namespace mlir;

/// A type as a diagnostic prints it ("'tensor<1x3xf32>'").
static std::string typeText(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "'" << type << "'";
  return text;
}

using dlc::GraphImporter;

std::optional<std::string> dlc::tensorSizeProblem(RankedTensorType type) {
  uint64_t elements = 1;
  for (int64_t d : type.getShape()) {
    if (ShapedType::isDynamic(d))
      continue;
    if (d < 0)
      return "has the negative dimension " + std::to_string(d);
    if (__builtin_mul_overflow(elements, static_cast<uint64_t>(d), &elements))
      return std::string("has more elements than 2^64");
  }
  uint64_t bits = type.getElementType().isIntOrFloat()
                      ? type.getElementType().getIntOrFloatBitWidth()
                      : 64;
  uint64_t bytes = 0;
  if (__builtin_mul_overflow(elements, (bits + 7) / 8, &bytes) ||
      bytes > kMaxTensorBytes)
    return "needs more than 2^48 bytes (256 TiB), dlc's limit for one "
           "tensor (" +
           std::to_string(elements) + " elements)";
  return std::nullopt;
}

FailureOr<RankedTensorType>
GraphImporter::valueType(const onnx::ValueInfoProto &info) {
  if (!info.type().has_tensor_type()) {
    emitError(fileLoc) << "graph value '" << info.name()
                       << "' is not a tensor (sequence, map and optional "
                          "values are not supported)";
    return failure();
  }
  const auto &tt = info.type().tensor_type();
  Type et = dlc::convertElementType(&ctx, tt.elem_type());
  if (!et) {
    emitError(fileLoc) << "graph value '" << info.name()
                       << "' has unsupported element type "
                       << dlc::onnxTypeName(tt.elem_type());
    return failure();
  }
  if (!tt.has_shape()) {
    emitError(fileLoc) << "graph value '" << info.name()
                       << "' has unknown rank; dlc needs ranked inputs";
    return failure();
  }
  SmallVector<int64_t> shape;
  for (const auto &dim : tt.shape().dim())
    shape.push_back(dim.has_dim_value() ? dim.dim_value()
                                        : ShapedType::kDynamic);
  // Sizes are checked before anything is built or allocated from them.
  for (int64_t d : shape)
    if (d < 0 && !ShapedType::isDynamic(d)) {
      emitError(fileLoc) << "graph value '" << info.name()
                         << "' has the negative dimension " << d;
      return failure();
    }
  auto type = RankedTensorType::get(shape, et);
  if (std::optional<std::string> problem = dlc::tensorSizeProblem(type)) {
    emitError(fileLoc) << "graph value '" << info.name() << "' of type " << type
                       << " " << *problem;
    return failure();
  }
  return type;
}

/// Notes the constants (other than the node's outputs) and clamped slices
/// that importing `node` made: the ops from `first` to the block's end.
void GraphImporter::recordNode(const onnx::NodeProto &node,
                               dlc::NodeRecord &record, Block *block,
                               Block::iterator first) {
  if (node.input_size() > 0)
    if (auto it = values.find(node.input(0)); it != values.end())
      if (auto type = dyn_cast<RankedTensorType>(it->second.getType()))
        record.firstInput = llvm::to_vector(type.getShape());
  llvm::SmallPtrSet<Operation *, 4> outputs;
  for (const std::string &name : node.output())
    if (auto it = values.find(name); !name.empty() && it != values.end())
      if (Operation *def = it->second.getDefiningOp())
        outputs.insert(def);
  for (Operation &op : llvm::make_range(first, block->end())) {
    if (isa<dlc::SliceOp>(op)) {
      dlc::NodeRecord::Slice slice;
      slice.input = llvm::to_vector(
          cast<RankedTensorType>(op.getOperand(0).getType()).getShape());
      if (auto axes = op.getAttrOfType<DenseI64ArrayAttr>(dlc::kClampedAxesAttr))
        slice.clamped = llvm::to_vector(axes.asArrayRef());
      op.removeAttr(dlc::kClampedAxesAttr);
      record.slices.push_back(slice);
    }
    auto cst = dyn_cast<dlc::ConstantOp>(op);
    if (!cst || outputs.contains(&op) || plan.dim.empty())
      continue;
    if (auto dense = dyn_cast<DenseElementsAttr>(cst.getValue())) {
      record.constants.push_back(dense);
      record.constantOps.push_back(&op);
    }
  }
}

bool GraphImporter::checkSupported(const onnx::GraphProto &graph) {
  unsigned unsupported = 0;
  // Subgraphs (If branches, Loop and Scan bodies) are checked too, their
  // nodes named under the node that holds them.
  std::function<void(const onnx::GraphProto &, const std::string &)> check =
      [&](const onnx::GraphProto &g, const std::string &scope) {
        for (auto [i, node] : llvm::enumerate(g.node())) {
          std::string saved = scopePrefix;
          scopePrefix = scope;
          Location loc = nodeLoc(node, i);
          scopePrefix = saved;
          for (const auto &attr : node.attribute())
            if (attr.has_g())
              check(attr.g(), cast<NameLoc>(loc).getName().str() + "/" +
                                  attr.name() + "/");
          bool known = dlc::lookupNodeImporter(node) ||
                       ((node.domain().empty() || node.domain() == "ai.onnx") &&
                        isGraphLevelOp(node.op_type())) ||
                       (node.domain() == "ai.onnx.preview.training" &&
                        node.op_type() == "Gradient");
          bool defaultDomain =
              node.domain().empty() || node.domain() == "ai.onnx";
          if (known && defaultDomain) {
            if (std::optional<OpVersionChange> change =
                    unimplementedOpVersion(node.op_type(), opset)) {
              ++unsupported;
              emitError(loc) << node.op_type() << " (opset " << opset
                             << "): ONNX changed the op in " << change->op
                             << "-" << change->version << " (" << change->change
                             << "); dlc implements it as of earlier opsets "
                                "only";
              continue;
            }
          }
          if (known)
            continue;
          ++unsupported;
          InFlightDiagnostic diag = emitError(loc);
          diag << "unsupported ONNX op '" << node.op_type() << "'";
          if (!node.domain().empty() && node.domain() != "ai.onnx")
            diag << " of domain '" << node.domain() << "'";
          diag << " (node '"
               << (node.name().empty() ? "<unnamed>" : node.name())
               << "', opset " << opset << ")";
        }
      };
  check(graph, "");
  unsupportedNodes = unsupported;
  if (unsupported)
    emitError(fileLoc) << unsupported << " unsupported node"
                       << (unsupported == 1 ? "" : "s")
                       << "; dlc cannot compile this model";
  return unsupported == 0;
}

LogicalResult GraphImporter::importConstant(const onnx::TensorProto &tensor,
                                            Location loc) {
  std::string error;
  ElementsAttr attr = dlc::convertTensor(&ctx, tensor, error);
  if (!attr)
    return emitError(loc) << error;
  values[tensor.name()] = dlc::ConstantOp::create(builder, loc, attr);
  constants[tensor.name()] = &tensor;
  return success();
}

/// Whether `node`'s import and lowering handle operands with dynamic
/// dimensions (sizes read at run time).
static bool supportsDynamicShapes(const onnx::NodeProto &node) {
  static const llvm::StringSet<> kDynamicOk = {
      // Elementwise ops (numpy broadcasting).
      "Identity", "Cast", "CastLike", "Add", "Sub", "Mul", "Div", "Relu",
      "Sigmoid", "Tanh", "Exp", "Log", "Sqrt", "Reciprocal", "Floor", "Ceil",
      "Round", "Sin", "Cos", "Tan", "Asin", "Acos", "Atan", "Sinh", "Cosh",
      "Asinh", "Acosh", "Atanh", "Erf", "Softplus", "Softsign", "HardSwish",
      "Abs", "Neg", "Sign", "Not", "LeakyRelu", "Elu", "Selu", "HardSigmoid",
      "ThresholdedRelu", "Celu", "Shrink", "Pow", "Mod", "PRelu", "And", "Or",
      "Xor", "Equal", "Less", "LessOrEqual", "Greater", "GreaterOrEqual", "Max",
      "Min", "Sum", "Mean", "IsNaN", "IsInf", "Where", "BitShift", "Clip",
      // Reductions, normalizations, data movement.
      "ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd",
      "ReduceL1", "ReduceL2", "ReduceLogSum", "ReduceLogSumExp",
      "ReduceSumSquare", "ArgMax", "ArgMin", "Softmax", "LogSoftmax", "CumSum",
      "Transpose", "Concat", "Reshape", "Flatten", "Squeeze", "Unsqueeze",
      "Slice", "Split", "Gather", "GatherElements", "NegativeLogLikelihoodLoss",
      "SoftmaxCrossEntropyLoss", "Trilu", "Dropout", "Hardmax", "Expand",
      "OneHot", "InstanceNormalization", "MeanVarianceNormalization",
      // Decompositions into the ops above.
      "DynamicQuantizeLinear", "ConvInteger", "MatMulInteger", "QLinearConv",
      "QLinearMatMul", "EyeLike", "GatherND", "TopK",
      // Data-dependent result sizes.
      "NonZero", "NonMaxSuppression", "Compress", "Unique",
      // Resizing (taps computed at run time along dynamic axes).
      "Resize", "Upsample",
      // Padding, tiling, block rearrangements.
      "Pad", "Tile", "DepthToSpace", "SpaceToDepth", "LRN",
      // Contractions, convolutions, pooling.
      "MatMul", "Gemm", "Einsum", "Conv", "ConvTranspose", "BatchNormalization",
      "MaxPool", "RNN", "GRU", "LSTM", "GlobalAveragePool", "GlobalMaxPool",
      "AveragePool",
      // Normalizations, quantization, ranges.
      "LayerNormalization", "QuantizeLinear", "DequantizeLinear", "Range",
      "ConstantOfShape", "Shape", "Size",
      // Control flow: the branches' and bodies' nodes are checked as
      // they are imported; carried values and selected branches must be
      // known to keep their sizes.
      "If", "Loop"};
  // The optimizers of ai.onnx.preview.training are elementwise.
  if (node.domain() == "ai.onnx.preview.training")
    return node.op_type() == "Adagrad" || node.op_type() == "Adam" ||
           node.op_type() == "Momentum";
  return (node.domain().empty() || node.domain() == "ai.onnx") &&
         kDynamicOk.contains(node.op_type());
}

LogicalResult GraphImporter::importNode(const onnx::NodeProto &node,
                                        size_t index) {
  // The attributes the node's importer reads (NodeContext::attr); any
  // other must hold its schema default.
  llvm::StringSet<> read;
  llvm::SaveAndRestore<llvm::StringSet<> *> restore(readAttributes, &read);
  if (failed(importNodeOps(node, index)))
    return failure();
  return dlc::checkAttributesHandled(node, opset, read, nodeLoc(node, index));
}

LogicalResult GraphImporter::importNodeOps(const onnx::NodeProto &node,
                                           size_t index) {
  Location loc = nodeLoc(node, index);
  ++importedNodes;
  // Values with dynamic dimensions (symbolic input dimensions compiled
  // as such, data-dependent shapes of NonZero, Unique, ...) may be graph
  // outputs and operands of the ops whose import and lowering size them at
  // run time (Dlc_LowersDynamicShapes), so far.
  if (!supportsDynamicShapes(node)) {
    for (const std::string &name : node.input()) {
      auto it = values.find(name);
      if (name.empty() || it == values.end())
        continue;
      auto type = dyn_cast<RankedTensorType>(it->second.getType());
      if (type && !type.hasStaticShape())
        return emitError(loc)
               << node.op_type() << ": input '" << name << "' has the "
               << "dynamic shape " << type << "; dlc does not support dynamic "
               << "dimensions (symbolic or data-dependent) for "
               << node.op_type() << " yet";
    }
  }
  if (node.domain() == "ai.onnx.preview.training" &&
      node.op_type() == "Gradient")
    return importGradient(node, index, loc);
  if ((node.domain().empty() || node.domain() == "ai.onnx") &&
      isGraphLevelOp(node.op_type()))
    return node.op_type() == "If" || node.op_type() == "Loop" ||
                   node.op_type() == "Scan"
               ? importControlFlowNode(node, loc)
               : importSequenceNode(node, loc);
  SmallVector<Value> operands;
  SmallVector<const onnx::TensorProto *> constOperands;
  for (const std::string &name : node.input()) {
    if (name.empty()) {
      operands.push_back(Value());
      constOperands.push_back(nullptr);
      continue;
    }
    auto it = values.find(name);
    if (it == values.end() && options.keepGoing)
      return failure(); // produced by a node that already failed
    if (it == values.end() && sequences.count(name))
      return emitError(loc) << node.op_type() << ": input '" << name
                            << "' is a sequence; this op takes tensors";
    if (it == values.end())
      return emitError(loc) << node.op_type() << ": input '" << name
                            << "' is not defined before its use";
    operands.push_back(it->second);
    auto cit = constants.find(name);
    constOperands.push_back(cit == constants.end() ? nullptr : cit->second);
  }
  // Constant nodes are constants too: other nodes may read their values.
  if (node.op_type() == "Constant") {
    for (const auto &attr : node.attribute())
      if (attr.name() == "value") {
        readAttributes->insert("value");
        onnx::TensorProto tensor = attr.t();
        tensor.set_name(node.output(0));
        auto *owned = new onnx::TensorProto(std::move(tensor));
        ownedTensors.emplace_back(owned);
        return importConstant(*owned, loc);
      }
  }
  // Errors from the ops' own shape inference name the op but not the
  // opset: add it.
  std::string context =
      node.op_type() + " node, opset " + std::to_string(opset);
  ScopedDiagnosticHandler addOpset(&ctx, [&](Diagnostic &diag) {
    if (diag.getSeverity() == DiagnosticSeverity::Error &&
        diag.getLocation() == loc && !StringRef(diag.str()).contains("(opset"))
      diag << " (" << context << ")";
    return failure(); // not handled: pass it on
  });
  dlc::NodeContext nc(builder, loc, node, opset, operands, constOperands);
  nc.onnxTypes = &onnxElemTypes;
  nc.readAttributes = readAttributes;
  if (options.evaluateConstants)
    nc.evaluate = [&](Value v) { return evaluateValue(v, loc); };
  nc.specialize = [&](Value v) { return specializeKnownInputs(v); };
  nc.dims = &symbolicDims;
  dlc::NodeImportFn importFn = dlc::lookupNodeImporter(node);
  if (!importFn)
    return failure(); // reported by checkSupported
  // Arithmetic on shapes known at run time only stays on their elements.
  std::optional<dlc::NodeResults> shapeResults = dlc::importShapeArithmetic(nc);
  FailureOr<SmallVector<Value>> results =
      shapeResults ? *shapeResults : importFn(nc);
  if (failed(results))
    return failure();
  // A builder chain that stopped at a failure its importer did not turn
  // into a failed node: the node fails (any earlier error said why).
  if (llvm::is_contained(*results, Value()))
    return emitError(loc) << node.op_type()
                          << ": the node's inputs do not fit the op (see "
                             "any error above)";
  for (auto [i, v] : llvm::enumerate(*results))
    if (auto type = dyn_cast<RankedTensorType>(v.getType()))
      if (std::optional<std::string> problem = dlc::tensorSizeProblem(type))
        return emitError(loc) << node.op_type() << ": output " << i
                              << " of type " << type << " " << *problem;
  symbolicDims.recordNode(node, operands, *results);
  if (!plan.dim.empty())
    for (Value v : *results)
      if (!cast<RankedTensorType>(v.getType()).hasStaticShape())
        return dlc::reportBatchDependence(
            emitError(loc), loc, plan.dim,
            node.op_type() + ": dynamic batch '" + plan.dim +
                "': outputs of data-dependent shape are not "
                "supported with a dynamic batch",
            dlc::BatchAdvice::FixLater, /*prefixed=*/false,
            options.onBatchDependence);
  for (auto [i, name] : llvm::enumerate(node.output())) {
    if (name.empty())
      continue;
    if (i >= results->size())
      return emitError(loc) << node.op_type() << ": output " << i << " ('"
                            << name << "') is not supported";
    bindOutput(name, (*results)[i]);
  }
  return success();
}

void GraphImporter::bindOutput(const std::string &name, Value v) {
  values[name] = v;
  constants.erase(name);
  sequences.erase(name);
  if (auto cst = v.getDefiningOp<dlc::ConstantOp>())
    if (auto dense = dyn_cast<DenseElementsAttr>(cst.getValue()))
      folded[name] = dense;
}

/// Points the graph's names for `old` at `replacement` (an evaluated
/// constant).
void GraphImporter::replaceValue(Value old, Value replacement) {
  auto dense = dyn_cast<DenseElementsAttr>(
      replacement.getDefiningOp<dlc::ConstantOp>().getValue());
  for (auto &entry : values) {
    if (entry.second != old)
      continue;
    entry.second = replacement;
    if (dense)
      folded[entry.first()] = dense;
  }
}

/// Evaluates `v` (computed from constants) now, for a node at `loc` that
/// needs its value; null after a diagnostic.
Value GraphImporter::evaluateValue(Value v, Location loc) {
  FailureOr<SmallVector<Value>> constants = dlc::evaluateToConstants(
      {v}, options.evaluateConstants, loc, evaluatedFrom);
  if (failed(constants))
    return Value();
  replaceValue(v, (*constants)[0]);
  return (*constants)[0];
}

Value GraphImporter::specializeKnownInputs(Value v) {
  std::optional<SmallVector<BlockArgument>> args =
      dlc::argumentsOfComputation(v);
  if (!args || !llvm::all_of(*args, [&](BlockArgument a) {
        return knownArguments.count(a);
      }))
    return Value();
  // The computation of `v`, in program order (one block: subgraphs are
  // imported in place).
  Block *block = v.getDefiningOp()->getBlock();
  llvm::SmallPtrSet<Operation *, 16> slice;
  SmallVector<Operation *> work{v.getDefiningOp()};
  while (!work.empty()) {
    Operation *op = work.pop_back_val();
    if (!op || isa<dlc::ConstantOp>(op) || !slice.insert(op).second)
      continue;
    if (op->getBlock() != block)
      return Value();
    for (Value operand : op->getOperands())
      work.push_back(operand.getDefiningOp());
  }
  IRMapping map;
  for (BlockArgument arg : *args) {
    std::string error;
    auto attr = dyn_cast_or_null<DenseElementsAttr>(
        dlc::convertTensor(&ctx, *knownArguments[arg], error));
    if (!attr || attr.getType() != arg.getType())
      return Value();
    map.map(arg, dlc::ConstantOp::create(builder, arg.getLoc(), attr));
  }
  SmallVector<Operation *> ordered;
  for (Operation &op : *block)
    if (slice.contains(&op))
      ordered.push_back(&op);
  for (Operation *op : ordered)
    builder.clone(*op, map);
  return map.lookup(v);
}

/// Evaluates, in one batch, every value left that is computed from
/// constants and read by the rest of the program, and erases what computed
/// them.
LogicalResult GraphImporter::evaluateRemainingConstants(Block &block) {
  SmallVector<Value> frontier = dlc::constantFrontier(block);
  if (!frontier.empty()) {
    FailureOr<SmallVector<Value>> constants = dlc::evaluateToConstants(
        frontier, options.evaluateConstants, fileLoc, evaluatedFrom);
    if (failed(constants))
      return failure();
    for (auto [old, replacement] : llvm::zip(frontier, *constants))
      replaceValue(old, replacement);
  }
  // Names of the values about to be erased leave the graph's map first.
  llvm::DenseMap<Operation *, SmallVector<std::string, 1>> namesOf;
  for (auto &entry : values)
    if (Operation *def = entry.second.getDefiningOp())
      namesOf[def].push_back(entry.first().str());
  dlc::eraseDeadComputations(block, [&](Operation *op) {
    for (const std::string &name : namesOf.lookup(op))
      values.erase(name);
  });
  return success();
}

OwningOpRef<ModuleOp> GraphImporter::import(const onnx::GraphProto &graph) {
  if (!checkSupported(graph) && !options.keepGoing)
    return nullptr;
  for (const auto &info : graph.value_info())
    inferredTypes[info.name()] = &info;
  for (const auto &info : graph.output())
    inferredTypes[info.name()] = &info;
  for (const auto &list : {graph.value_info(), graph.output(), graph.input()})
    for (const auto &info : list)
      if (info.type().has_tensor_type())
        onnxElemTypes[info.name()] = info.type().tensor_type().elem_type();
  for (const auto &init : graph.initializer())
    onnxElemTypes[init.name()] = init.data_type();
  for (const auto &node : graph.node())
    if (node.op_type() == "Constant")
      for (const auto &attr : node.attribute())
        if (attr.name() == "value" && node.output_size() == 1)
          onnxElemTypes[node.output(0)] = attr.t().data_type();
  OwningOpRef<ModuleOp> module = ModuleOp::create(fileLoc);
  builder.setInsertionPointToEnd(module->getBody());

  llvm::StringSet<> initNames;
  for (const auto &init : graph.initializer())
    initNames.insert(init.name());
  SmallVector<Type> argTypes;
  SmallVector<const onnx::ValueInfoProto *> inputs;
  for (const auto &input : graph.input()) {
    if (initNames.contains(input.name()))
      continue;
    FailureOr<RankedTensorType> type = valueType(input);
    if (failed(type))
      return nullptr;
    argTypes.push_back(*type);
    inputs.push_back(&input);
  }
  bool planned =
      succeeded(dlc::planBatch(inputs, options.dimValues, options.dimRanges,
                               batchSize, fileLoc, argTypes, plan));
  if (!planned && !options.keepGoing)
    return nullptr;

  auto func = func::FuncOp::create(builder, fileLoc, "main",
                                   builder.getFunctionType(argTypes, {}));
  Block *entry = func.addEntryBlock();
  builder.setInsertionPointToStart(entry);
  for (auto [i, input] : llvm::enumerate(inputs)) {
    values[input->name()] = entry->getArgument(i);
    if (i < options.knownInputs.size() && options.knownInputs[i] &&
        (i >= plan.inputAxes.size() || plan.inputAxes[i] < 0)) {
      constants[input->name()] = options.knownInputs[i];
      knownArguments[entry->getArgument(i)] = options.knownInputs[i];
    }
    func.setArgAttr(i, dlc::kNameAttr, builder.getStringAttr(input->name()));
    // Dimensions of one name are one size.
    auto argType = cast<RankedTensorType>(entry->getArgument(i).getType());
    const auto &dims = input->type().tensor_type().shape().dim();
    for (int64_t d = 0; d < argType.getRank() && d < dims.size(); ++d)
      if (argType.isDynamicDim(d) && !dims[d].dim_param().empty())
        symbolicDims.addInput(entry->getArgument(i), d, dims[d].dim_param());
    if (i < plan.symbolic.size() && !plan.symbolic[i].empty()) {
      SmallVector<Attribute> dims;
      for (const std::string &name : plan.symbolic[i]) {
        const dlc::DimRange &range = options.dimRanges.at(name);
        dims.push_back(
            dlc::SymbolicDimAttr::get(&ctx, name, range.min, range.max));
      }
      func.setArgAttr(i, dlc::kSymbolicDimsAttrName,
                      builder.getArrayAttr(dims));
    }
    func.setArgAttr(i, dlc::kDtypeAttr,
                    builder.getI32IntegerAttr(dlc::toDlcDtype(
                        input->type().tensor_type().elem_type())));
  }
  // Small integer inputs with known values (sizes, counts, axes) become
  // constants so that shape arithmetic on them folds; the model is then
  // specialized to those values (see ImportOptions::knownInputs).
  for (auto [i, input] : llvm::enumerate(inputs)) {
    if (i >= options.knownInputs.size() || !options.knownInputs[i])
      continue;
    const onnx::TensorProto &known = *options.knownInputs[i];
    int64_t n = 1;
    for (int64_t d : known.dims())
      n *= d;
    auto argType = cast<RankedTensorType>(entry->getArgument(i).getType());
    // A batched input is data of each sample, never a compile-time value.
    if (n > 8 || !isa<IntegerType>(argType.getElementType()) ||
        argType.getElementType().isInteger(1) ||
        (i < plan.inputAxes.size() && plan.inputAxes[i] >= 0))
      continue;
    std::string error;
    auto attr = dyn_cast_or_null<DenseElementsAttr>(
        dlc::convertTensor(&ctx, known, error));
    if (attr && attr.getType() == argType)
      values[input->name()] = dlc::ConstantOp::create(builder, fileLoc, attr);
  }
  for (const auto &init : graph.initializer())
    if (failed(importConstant(init, NameLoc::get(
                                        builder.getStringAttr(init.name()),
                                        fileLoc))))
      return nullptr;
  unsigned failedNodes = 0;
  mainGraph = &graph;
  records.assign(graph.node_size(), {});
  for (auto [i, node] : llvm::enumerate(graph.node())) {
    Block *block = builder.getInsertionBlock();
    Operation *before = block->empty() ? nullptr : &block->back();
    if (succeeded(importNode(node, i))) {
      recordNode(node, records[i], block,
                 before ? std::next(before->getIterator()) : block->begin());
      continue;
    }
    if (!options.keepGoing)
      return nullptr;
    ++failedNodes;
    addPlaceholders(node);
  }
  if (options.keepGoing) {
    if (failedNodes || unsupportedNodes || !planned)
      return nullptr;
  }

  SmallVector<Value> results;
  SmallVector<Type> resultTypes;
  for (const auto &output : graph.output()) {
    auto it = values.find(output.name());
    if (it == values.end()) {
      emitError(fileLoc) << "graph output '" << output.name()
                         << "' is not produced by any node";
      return nullptr;
    }
    FailureOr<RankedTensorType> declared = valueType(output);
    if (failed(declared))
      return nullptr;
    auto actual = cast<RankedTensorType>(it->second.getType());
    if (declared->getElementType() != actual.getElementType() ||
        (declared->hasStaticShape() && actual.hasStaticShape() &&
         declared->getShape() != actual.getShape() &&
         declared->getRank() != 0)) {
      emitError(fileLoc) << "graph output '" << output.name()
                         << "' is declared as " << *declared
                         << " but dlc computes " << actual;
      return nullptr;
    }
    results.push_back(it->second);
    resultTypes.push_back(actual);
    outputTypes.push_back(actual);
  }
  SmallVector<std::pair<std::string, int>> names; // result name, dlc dtype
  for (const auto &output : graph.output())
    names.push_back({output.name(), dlc::toDlcDtype(
                                        output.type().tensor_type().elem_type())});
  if (options.exposeNodeOutputs) {
    // Each value once (a value returned twice, or an argument returned,
    // would alias another output's buffer).
    llvm::DenseSet<Value> returned(results.begin(), results.end());
    for (auto [i, node] : llvm::enumerate(graph.node()))
      for (const std::string &name : node.output()) {
        auto it = values.find(name);
        auto type = it == values.end()
                        ? RankedTensorType()
                        : dyn_cast<RankedTensorType>(it->second.getType());
        auto elem = onnxElemTypes.find(name);
        if (!type || !type.hasStaticShape() || elem == onnxElemTypes.end() ||
            dlc::toDlcDtype(elem->second) == 0 ||
            isa<BlockArgument>(it->second) || !returned.insert(it->second).second)
          continue;
        std::string nodeName =
            node.name().empty() ? "#" + std::to_string(i) : node.name();
        names.push_back({nodeName + " (" + node.op_type() + "): " + name,
                         dlc::toDlcDtype(elem->second)});
        results.push_back(it->second);
        resultTypes.push_back(type);
      }
  }
  func::ReturnOp::create(builder, fileLoc, results);
  func.setType(builder.getFunctionType(argTypes, resultTypes));
  if (options.evaluateConstants && failed(evaluateRemainingConstants(*entry)))
    return nullptr;
  for (dlc::NodeRecord &record : records)
    for (Operation *op : record.constantOps)
      record.constantRead.push_back(!op->use_empty() ||
                                    evaluatedFrom.contains(op));
  for (auto [i, name] : llvm::enumerate(names)) {
    func.setResultAttr(i, dlc::kNameAttr, builder.getStringAttr(name.first));
    func.setResultAttr(i, dlc::kDtypeAttr,
                       builder.getI32IntegerAttr(name.second));
  }
  if (!plan.dim.empty()) {
    (*module)->setAttr(dlc::kBatchDimAttr, builder.getStringAttr(plan.dim));
    (*module)->setAttr(dlc::kInputBatchAxesAttr,
                       builder.getDenseI64ArrayAttr(plan.inputAxes));
  }
  return module;
}

/// The axis along which `at2` (a type at batch 2) is twice `at1` (at batch
/// 1); -1 when they are equal, -2 when neither.
static int64_t batchAxisBetween(RankedTensorType at1, RankedTensorType at2) {
  if (at1 == at2)
    return -1;
  if (at1.getRank() != at2.getRank())
    return -2;
  int64_t axis = -1;
  for (int64_t d = 0; d < at1.getRank(); ++d) {
    if (at1.getDimSize(d) == at2.getDimSize(d))
      continue;
    if (axis >= 0 || at2.getDimSize(d) != 2 * at1.getDimSize(d))
      return -2;
    axis = d;
  }
  return axis;
}

LogicalResult GraphImporter::addBatchHints(const onnx::GraphProto &graph,
                                           GraphImporter &second) {
  bool ok = true;
  for (auto [i, node] : llvm::enumerate(graph.node())) {
    for (const std::string &name : node.output()) {
      auto v1 = values.find(name), v2 = second.values.find(name);
      if (name.empty() || v1 == values.end() || v2 == second.values.end() ||
          isa<BlockArgument>(v1->second))
        continue;
      Value v = v1->second;
      bool c1 = v.getDefiningOp<dlc::ConstantOp>() != nullptr,
           c2 = v2->second.getDefiningOp<dlc::ConstantOp>() != nullptr;
      if (c1 != c2) {
        (void)dlc::reportBatchDependence(
            emitError(nodeLoc(node, i)), nodeLoc(node, i), plan.dim,
            node.op_type() + ": output '" + name +
                "' is a constant at one batch size only: it depends on the "
                "size of the dynamic batch '" +
                plan.dim + "'",
            dlc::BatchAdvice::Fix, /*prefixed=*/false,
            options.onBatchDependence);
        ok = false;
        continue;
      }
      if (c1)
        continue; // see checkBatchSizeUses
      auto t1 = cast<RankedTensorType>(v.getType()),
           t2 = cast<RankedTensorType>(v2->second.getType());
      int64_t axis = batchAxisBetween(t1, t2);
      if (axis == -2) {
        (void)dlc::reportBatchDependence(
            emitError(nodeLoc(node, i)), nodeLoc(node, i), plan.dim,
            node.op_type() + ": output '" + name + "' is " + typeText(t1) +
                " at batch 1 and " + typeText(t2) +
                " at batch 2, not one batch axis",
            dlc::BatchAdvice::OneSample, /*prefixed=*/false,
            options.onBatchDependence);
        ok = false;
        continue;
      }
      OpBuilder::InsertionGuard guard(builder);
      builder.setInsertionPointAfterValue(v);
      auto hint = dlc::BatchAxisOp::create(builder, nodeLoc(node, i), v,
                                           builder.getI64IntegerAttr(axis));
      v.replaceAllUsesExcept(hint.getResult(), hint);
    }
  }
  return success(ok);
}

/// A dynamic-batch model is imported a second time with the batch at 2: the
/// outputs' batch axes are where their shapes grow, and constants that
/// change with the batch size show where it turns into data.
static LogicalResult checkAtBatchTwo(MLIRContext &context, Location fileLoc,
                                     StringRef path,
                                     const onnx::ModelProto &model,
                                     const dlc::ImportOptions &options,
                                     GraphImporter &first, ModuleOp module) {
  GraphImporter second(context, path, dlc::getOnnxOpset(model), options, 2);
  std::string firstError;
  OwningOpRef<ModuleOp> other;
  {
    ScopedDiagnosticHandler quiet(&context, [&](Diagnostic &diag) {
      if (diag.getSeverity() == DiagnosticSeverity::Error && firstError.empty())
        firstError = diag.str();
      return success();
    });
    other = second.import(model.graph());
  }
  if (!other)
    return dlc::reportBatchDependence(
        emitError(fileLoc), fileLoc, first.plan.dim,
        "the model does not import with the batch at 2 (" + firstError + ")",
        dlc::BatchAdvice::FixLater, /*prefixed=*/true,
        options.onBatchDependence);
  SmallVector<int64_t> axes;
  for (auto [i, output] : llvm::enumerate(model.graph().output())) {
    int64_t axis =
        batchAxisBetween(first.outputTypes[i], second.outputTypes[i]);
    if (axis == -2)
      return dlc::reportBatchDependence(
          emitError(fileLoc), fileLoc, first.plan.dim,
          "graph output '" + output.name() + "' is " +
              typeText(first.outputTypes[i]) + " at batch 1 and " +
              typeText(second.outputTypes[i]) +
              " at batch 2, not one batch axis",
          dlc::BatchAdvice::FixLater, /*prefixed=*/true,
          options.onBatchDependence);
    // The runtime writes one sample per run along the batch axis, which must
    // then be an axis of its own (size 1 per sample).
    if (axis >= 0 && first.outputTypes[i].getDimSize(axis) != 1)
      return dlc::reportBatchDependence(
          emitError(fileLoc), fileLoc, first.plan.dim,
          "graph output '" + output.name() +
              "' merges the batch into dimension " + Twine(axis) + " (" +
              typeText(first.outputTypes[i]) + " at batch 1, " +
              typeText(second.outputTypes[i]) +
              " at batch 2); outputs need the batch as a dimension "
              "of its own",
          dlc::BatchAdvice::Fix, /*prefixed=*/true, options.onBatchDependence);
    axes.push_back(axis);
  }
  // Node outputs returned for --per-node are compared as they come.
  auto results = module.lookupSymbol<func::FuncOp>("main").getNumResults();
  axes.resize(results, -3);
  module->setAttr(dlc::kDeclaredOutputBatchAxesAttr,
                  Builder(&context).getDenseI64ArrayAttr(axes));
  if (failed(first.addBatchHints(model.graph(), second)))
    return failure();
  // Constants are also compared at batch 3 (see dlc::checkBatchSizeUses).
  GraphImporter third(context, path, dlc::getOnnxOpset(model), options, 3);
  OwningOpRef<ModuleOp> atThree;
  {
    ScopedDiagnosticHandler quiet(&context,
                                  [](Diagnostic &) { return success(); });
    atThree = third.import(model.graph());
  }
  if (!atThree)
    return dlc::reportBatchDependence(
        emitError(fileLoc), fileLoc, first.plan.dim,
        "the model does not import with the batch at 3",
        dlc::BatchAdvice::FixLater, /*prefixed=*/true,
        options.onBatchDependence);
  return dlc::checkBatchSizeUses(
      model.graph(), first.plan.dim, first.folded, second.folded, third.folded,
      first.records, second.records, third.records,
      [&](const onnx::NodeProto &node, size_t i) {
        return first.nodeLoc(node, i);
      },
      fileLoc, options.onBatchDependence);
}

OwningOpRef<ModuleOp> dlc::importOnnxFile(MLIRContext &context, StringRef path,
                                          const ImportOptions &options) {
  Location fileLoc = FileLineColLoc::get(&context, path, 0, 0);
  onnx::ModelProto model;
  std::string error;
  if (!loadModel(path.str(), model, error)) {
    emitError(fileLoc) << error;
    return nullptr;
  }
  return importOnnxModel(context, path, model, options);
}

OwningOpRef<ModuleOp> dlc::importOnnxModel(MLIRContext &context,
                                           StringRef path,
                                           const onnx::ModelProto &model,
                                           const ImportOptions &options) {
  // Sizes of dynamic dimensions are index values (tensor.dim, arith).
  // Loops whose trip count is data are scf.while.
  context.loadDialect<dlc::DlcDialect, func::FuncDialect, tensor::TensorDialect,
                      arith::ArithDialect, scf::SCFDialect>();
  Location fileLoc = FileLineColLoc::get(&context, path, 0, 0);
  GraphImporter importer(context, path, getOnnxOpset(model), options);
  OwningOpRef<ModuleOp> module = importer.import(model.graph());
  // An op an importer built without checking what its verifier checks
  // (found by fuzzing) is an error at its node, not invalid IR for the
  // passes.
  if (module && failed(verify(*module)))
    return nullptr;
  if (module && !importer.plan.dim.empty() && options.exposeNodeOutputs) {
    emitError(fileLoc) << "comparing node by node (--per-node) needs a "
                          "static batch: add --dim "
                       << importer.plan.dim << "=SIZE";
    return nullptr;
  }
  if (module && !importer.plan.dim.empty() &&
      failed(checkAtBatchTwo(context, fileLoc, path, model, options, importer,
                             *module)))
    return nullptr;
  return module;
}
