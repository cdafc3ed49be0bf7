//===- SequenceImport.cpp - ONNX sequences as compile-time lists ----------===//
//
// A sequence whose length and element positions are known at compile time
// (built by SequenceEmpty/Construct/Insert/Erase and SplitToSequence, with
// constant positions and splits) is a list of tensor values in the
// importer: SequenceAt picks one, SequenceLength is a constant and
// ConcatFromSequence a Concat. Nothing of it exists at run time. Sequences
// as graph inputs or outputs are refused by the graph import.
//
//===----------------------------------------------------------------------===//
#include "frontend/GraphImporter.h"

#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace dlc;

bool GraphImporter::isGraphLevelOp(StringRef opType) {
  static const llvm::StringSet<> ops = {"SequenceEmpty",
                                        "SequenceConstruct",
                                        "SequenceInsert",
                                        "SequenceAt",
                                        "SequenceErase",
                                        "SequenceLength",
                                        "SplitToSequence",
                                        "ConcatFromSequence",
                                        "If",
                                        "Loop",
                                        "Scan"};
  return ops.contains(opType);
}

std::unique_ptr<NodeContext>
GraphImporter::graphLevelContext(const onnx::NodeProto &node, Location loc,
                                 SmallVectorImpl<Value> &operands) {
  // Initializers are read from values; the protos are those of inputs with
  // known values (for operands that must be constants, such as a Loop
  // condition that decides the length of scan outputs).
  SmallVector<const onnx::TensorProto *> &protos =
      graphLevelProtos.emplace_back();
  for (const std::string &name : node.input()) {
    auto it = constants.find(name);
    bool input = it != constants.end() && values.count(name) &&
                 isa<BlockArgument>(values.lookup(name));
    protos.push_back(input ? it->second : nullptr);
  }
  auto nc = std::make_unique<NodeContext>(builder, loc, node, opset, operands,
                                          protos);
  nc->onnxTypes = &onnxElemTypes;
  nc->readAttributes = readAttributes;
  if (options.evaluateConstants)
    nc->evaluate = [this, loc](Value v) { return evaluateValue(v, loc); };
  nc->specialize = [this](Value v) { return specializeKnownInputs(v); };
  return nc;
}

NodeResults GraphImporter::importSynthetic(StringRef opType,
                                           ArrayRef<Value> operands,
                                           ArrayRef<onnx::AttributeProto> attrs,
                                           size_t numOutputs, Location loc) {
  std::function<Value(Value)> evaluate;
  if (options.evaluateConstants)
    evaluate = [this, loc](Value v) { return evaluateValue(v, loc); };
  return importWith(builder, loc, evaluate, opType, operands, attrs,
                    numOutputs);
}

LogicalResult GraphImporter::importSequenceNode(const onnx::NodeProto &node,
                                                Location loc) {
  StringRef op = node.op_type();
  // Tensor operands (null for sequences and absent ones) and sequences.
  SmallVector<Value> operands;
  SmallVector<const SmallVector<Value> *> seqs;
  for (const std::string &name : node.input()) {
    auto seq = sequences.find(name);
    auto value = values.find(name);
    seqs.push_back(seq == sequences.end() ? nullptr : &seq->second);
    operands.push_back(value == values.end() ? Value() : value->second);
    if (!name.empty() && seq == sequences.end() && value == values.end())
      return emitError(loc)
             << op << ": input '" << name << "' is not defined before its use";
  }
  std::unique_ptr<NodeContext> nc = graphLevelContext(node, loc, operands);
  auto sequenceInput = [&](size_t i) -> const SmallVector<Value> * {
    if (i < seqs.size() && seqs[i])
      return seqs[i];
    nc->error() << "input " << i << " must be a sequence";
    return nullptr;
  };
  auto tensorInput = [&](size_t i) -> Value {
    if (i < operands.size() && operands[i])
      return operands[i];
    nc->error() << "input " << i << " must be a tensor";
    return Value();
  };
  // A position operand i (constant, possibly negative) into a sequence of
  // `n` elements, valid in [-n, n - 1], or [-n, n] with `orEnd`.
  auto position = [&](size_t i, int64_t n, bool orEnd) -> FailureOr<int64_t> {
    std::optional<SmallVector<int64_t>> p = nc->constantInts(i);
    if (!p || p->size() != 1)
      return nc->error() << "the position must be a constant scalar (a "
                            "position computed from data needs sequences at "
                            "run time, not supported yet)",
             failure();
    int64_t at = (*p)[0];
    int64_t limit = orEnd ? n : n - 1;
    if (at < -n || at > limit)
      return nc->error() << "position " << at << " is out of range for a "
                         << "sequence of " << n << " tensors",
             failure();
    return at < 0 ? at + n : at;
  };
  auto bindSequence = [&](SmallVector<Value> elements) {
    const std::string &name = node.output(0);
    values.erase(name);
    constants.erase(name);
    sequences[name] = std::move(elements);
    return success();
  };
  auto bindTensor = [&](Value v) {
    bindOutput(node.output(0), v);
    return success();
  };
  if (node.output_size() < 1 || node.output(0).empty())
    return success();

  if (op == "SequenceEmpty")
    return bindSequence({});
  if (op == "SequenceConstruct") {
    SmallVector<Value> elements;
    for (size_t i = 0; i < operands.size(); ++i) {
      Value v = tensorInput(i);
      if (!v)
        return failure();
      elements.push_back(v);
    }
    return bindSequence(elements);
  }
  if (op == "SequenceInsert") {
    const SmallVector<Value> *seq = sequenceInput(0);
    Value tensor = seq ? tensorInput(1) : Value();
    if (!tensor)
      return failure();
    SmallVector<Value> elements(*seq);
    int64_t at = elements.size();
    if (operands.size() > 2 && operands[2]) {
      FailureOr<int64_t> p = position(2, elements.size(), /*orEnd=*/true);
      if (failed(p))
        return failure();
      at = *p;
    }
    elements.insert(elements.begin() + at, tensor);
    return bindSequence(elements);
  }
  if (op == "SequenceErase") {
    const SmallVector<Value> *seq = sequenceInput(0);
    if (!seq)
      return failure();
    if (seq->empty())
      return nc->error() << "erase from an empty sequence", failure();
    SmallVector<Value> elements(*seq);
    int64_t at = elements.size() - 1;
    if (operands.size() > 1 && operands[1]) {
      FailureOr<int64_t> p = position(1, elements.size(), /*orEnd=*/false);
      if (failed(p))
        return failure();
      at = *p;
    }
    elements.erase(elements.begin() + at);
    return bindSequence(elements);
  }
  if (op == "SequenceAt") {
    const SmallVector<Value> *seq = sequenceInput(0);
    if (!seq)
      return failure();
    FailureOr<int64_t> p = position(1, seq->size(), /*orEnd=*/false);
    if (failed(p))
      return failure();
    return bindTensor((*seq)[*p]);
  }
  if (op == "SequenceLength") {
    const SmallVector<Value> *seq = sequenceInput(0);
    if (!seq)
      return failure();
    return bindTensor(int64Constant(builder, loc, {}, {(int64_t)seq->size()}));
  }
  if (op == "ConcatFromSequence") {
    const SmallVector<Value> *seq = sequenceInput(0);
    if (!seq)
      return failure();
    if (seq->empty())
      return nc->error() << "concatenation of an empty sequence", failure();
    int64_t axis = nc->intAttr("axis", 0);
    bool newAxis = nc->intAttr("new_axis", 0) != 0;
    int64_t rank = typeOf((*seq)[0]).getRank() + (newAxis ? 1 : 0);
    FailureOr<int64_t> a = normalizeAxis(*nc, axis, rank);
    if (failed(a))
      return failure();
    SmallVector<Value> parts;
    for (Value v : *seq) {
      if (newAxis) {
        Value axes = int64Constant(builder, loc, {1}, {*a});
        v = one(importSynthetic("Unsqueeze", {v, axes}, {}, 1, loc));
        if (!v)
          return failure();
      }
      parts.push_back(v);
    }
    Value result = one(
        importSynthetic("Concat", parts, {intAttribute("axis", *a)}, 1, loc));
    return result ? bindTensor(result) : failure();
  }
  if (op == "SplitToSequence") {
    Value input = tensorInput(0);
    if (!input)
      return failure();
    RankedTensorType type = typeOf(input);
    FailureOr<int64_t> axis =
        normalizeAxis(*nc, nc->intAttr("axis", 0), type.getRank());
    if (failed(axis))
      return failure();
    int64_t size = type.getDimSize(*axis);
    if (ShapedType::isDynamic(size))
      return nc->error() << "the split axis " << *axis << " of " << type
                         << " must be static",
             failure();
    SmallVector<int64_t> sizes;
    bool squeeze = false;
    if (operands.size() > 1 && operands[1]) {
      std::optional<SmallVector<int64_t>> split = nc->constantInts(1);
      if (!split)
        return nc->error() << "the split must be a constant", failure();
      if (typeOf(operands[1]).getRank() == 0) {
        int64_t chunk = (*split)[0];
        if (chunk <= 0)
          return nc->error() << "split size " << chunk << " must be positive",
                 failure();
        for (int64_t at = 0; at < size; at += chunk)
          sizes.push_back(std::min(chunk, size - at));
      } else {
        sizes = *split;
      }
    } else {
      sizes.assign(size, 1);
      squeeze = nc->intAttr("keepdims", 1) == 0;
    }
    // Each size in [0, size] (a static dimension) first, so that their sum
    // stays far from overflowing.
    if (llvm::any_of(sizes, [&](int64_t s) { return s < 0 || s > size; }) ||
        llvm::sum_of(sizes) != size)
      return nc->error() << "split sizes do not add up to " << size
                         << " along axis " << *axis,
             failure();
    SmallVector<Value> elements;
    if (sizes.size() == 1) {
      elements.push_back(input);
    } else if (!sizes.empty()) {
      Value splitValue =
          int64Constant(builder, loc, {(int64_t)sizes.size()}, sizes);
      NodeResults parts =
          importSynthetic("Split", {input, splitValue},
                          {intAttribute("axis", *axis)}, sizes.size(), loc);
      if (failed(parts))
        return failure();
      elements = *parts;
    }
    if (squeeze)
      for (Value &v : elements) {
        Value axes = int64Constant(builder, loc, {1}, {*axis});
        v = one(importSynthetic("Squeeze", {v, axes}, {}, 1, loc));
        if (!v)
          return failure();
      }
    return bindSequence(elements);
  }
  return emitError(loc) << op << ": not a sequence op";
}
