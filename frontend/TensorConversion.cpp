//===- TensorConversion.cpp - ONNX TensorProto -> MLIR attributes ---------===//
#include "frontend/NodeImporter.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectResourceBlobManager.h"

#include "dlc/dlc_runtime.h"

#include <cstring>
#include <limits>

using namespace mlir;
using onnx::TensorProto;

/// Tensors with more elements than this become dense resources.
static constexpr int64_t kInlineElementLimit = 64;

Type dlc::convertElementType(MLIRContext *ctx, int t) {
  Builder b(ctx);
  switch (t) {
  case TensorProto::FLOAT: return b.getF32Type();
  case TensorProto::DOUBLE: return b.getF64Type();
  case TensorProto::FLOAT16: return b.getF16Type();
  case TensorProto::BFLOAT16: return b.getBF16Type();
  case TensorProto::INT8:
  case TensorProto::UINT8: return b.getIntegerType(8);
  case TensorProto::INT16:
  case TensorProto::UINT16: return b.getIntegerType(16);
  case TensorProto::INT32:
  case TensorProto::UINT32: return b.getIntegerType(32);
  case TensorProto::INT64:
  case TensorProto::UINT64: return b.getIntegerType(64);
  case TensorProto::BOOL: return b.getI1Type();
  default: return {};
  }
}

int dlc::toDlcDtype(int t) {
  switch (t) {
  case TensorProto::FLOAT:
    return DLC_DTYPE_F32;
  case TensorProto::DOUBLE:
    return DLC_DTYPE_F64;
  case TensorProto::FLOAT16:
    return DLC_DTYPE_F16;
  case TensorProto::INT8:
    return DLC_DTYPE_I8;
  case TensorProto::UINT8:
    return DLC_DTYPE_U8;
  case TensorProto::INT16:
    return DLC_DTYPE_I16;
  case TensorProto::INT32:
    return DLC_DTYPE_I32;
  case TensorProto::INT64:
    return DLC_DTYPE_I64;
  case TensorProto::BOOL:
    return DLC_DTYPE_BOOL;
  case TensorProto::BFLOAT16:
    return DLC_DTYPE_BF16;
  case TensorProto::UINT16:
    return DLC_DTYPE_U16;
  case TensorProto::UINT32:
    return DLC_DTYPE_U32;
  case TensorProto::UINT64:
    return DLC_DTYPE_U64;
  default:
    return DLC_DTYPE_INVALID;
  }
}

int dlc::toOnnxType(int dtype) {
  for (int t = 1; t <= TensorProto::DataType_MAX; ++t)
    if (toDlcDtype(t) == dtype)
      return t;
  return TensorProto::UNDEFINED;
}

std::string dlc::onnxTypeName(int t) {
  if (TensorProto::DataType_IsValid(t))
    return TensorProto::DataType_Name(static_cast<TensorProto::DataType>(t));
  return "type " + std::to_string(t);
}

static size_t storageBytes(int t) {
  switch (t) {
  case TensorProto::DOUBLE:
  case TensorProto::INT64:
  case TensorProto::UINT64: return 8;
  case TensorProto::FLOAT:
  case TensorProto::INT32:
  case TensorProto::UINT32: return 4;
  case TensorProto::FLOAT16:
  case TensorProto::BFLOAT16:
  case TensorProto::INT16:
  case TensorProto::UINT16: return 2;
  case TensorProto::INT8:
  case TensorProto::UINT8:
  case TensorProto::BOOL: return 1;
  default: return 0;
  }
}

bool dlc::tensorBytes(const TensorProto &tensor, std::string &bytes,
                        std::string &error) {
  int t = tensor.data_type();
  size_t elt = storageBytes(t);
  // The declared size is checked before anything is sized from it.
  int64_t n = 1;
  for (int64_t d : tensor.dims()) {
    if (d < 0) {
      error = "tensor '" + tensor.name() + "' has the negative dimension " +
              std::to_string(d);
      return false;
    }
    if (d != 0 && n > std::numeric_limits<int64_t>::max() / d) {
      error = "tensor '" + tensor.name() + "' has more elements than 2^63";
      return false;
    }
    n *= d;
  }
  if (elt && n > std::numeric_limits<int64_t>::max() / (int64_t)elt) {
    error = "tensor '" + tensor.name() + "' has more bytes than 2^63";
    return false;
  }
  if (tensor.has_raw_data()) {
    bytes = tensor.raw_data();
  } else {
    int64_t held = 0;
    auto fill = [&](const auto &field) {
      held = field.size();
      if ((int64_t)field.size() != n)
        return false;
      bytes.assign(n * elt, '\0');
      for (int64_t i = 0; i < n; ++i) {
        auto v = field.Get(i);
        if (t == TensorProto::FLOAT || t == TensorProto::DOUBLE ||
            t == TensorProto::INT64 || t == TensorProto::UINT64) {
          std::memcpy(&bytes[i * elt], &v, elt);
        } else { // narrower types stored in int32_data / uint64_data
          uint64_t wide = static_cast<uint64_t>(v);
          std::memcpy(&bytes[i * elt], &wide, elt);
        }
      }
      return true;
    };
    bool ok;
    switch (t) {
    case TensorProto::FLOAT: ok = fill(tensor.float_data()); break;
    case TensorProto::DOUBLE: ok = fill(tensor.double_data()); break;
    case TensorProto::INT64: ok = fill(tensor.int64_data()); break;
    case TensorProto::UINT64:
    case TensorProto::UINT32: ok = fill(tensor.uint64_data()); break;
    default: ok = fill(tensor.int32_data()); break;
    }
    if (!ok) {
      error = "tensor '" + tensor.name() + "' holds " + std::to_string(held) +
              " values, its shape has " + std::to_string(n) + " elements";
      return false;
    }
  }
  if (bytes.size() != n * elt) {
    error = "tensor '" + tensor.name() + "' has " +
            std::to_string(bytes.size()) + " bytes of data, expected " +
            std::to_string(n * elt);
    return false;
  }
  return true;
}

bool dlc::readIntTensor(const TensorProto &tensor,
                        SmallVectorImpl<int64_t> &values) {
  std::string bytes, error;
  if (!tensorBytes(tensor, bytes, error))
    return false;
  if (tensor.data_type() == TensorProto::INT64) {
    values.resize(bytes.size() / 8);
    std::memcpy(values.data(), bytes.data(), values.size() * 8);
  } else if (tensor.data_type() == TensorProto::INT32) {
    for (size_t i = 0; i < bytes.size(); i += 4) {
      int32_t v;
      std::memcpy(&v, &bytes[i], 4);
      values.push_back(v);
    }
  } else {
    return false;
  }
  return true;
}

ElementsAttr dlc::convertTensor(MLIRContext *ctx, const TensorProto &tensor,
                                std::string &error) {
  Type et = convertElementType(ctx, tensor.data_type());
  if (!et || tensor.data_location() == TensorProto::EXTERNAL) {
    error = "tensor '" + tensor.name() + "' has unsupported element type " +
            onnxTypeName(tensor.data_type());
    return {};
  }
  SmallVector<int64_t> shape(tensor.dims().begin(), tensor.dims().end());
  auto type = RankedTensorType::get(shape, et);
  std::string bytes;
  if (!tensorBytes(tensor, bytes, error))
    return {};
  if (et.isInteger(1)) {
    SmallVector<bool> bits;
    for (char c : bytes)
      bits.push_back(c != 0);
    return DenseElementsAttr::get(type, bits);
  }
  if (type.getNumElements() <= kInlineElementLimit)
    return DenseElementsAttr::getFromRawBuffer(type,
                                               ArrayRef(bytes.data(), bytes.size()));
  std::string key = tensor.name().empty() ? "tensor" : tensor.name();
  auto blob = HeapAsmResourceBlob::allocateAndCopyInferAlign(
      ArrayRef<char>(bytes.data(), bytes.size()));
  return DenseResourceElementsAttr::get(type, key, std::move(blob));
}
