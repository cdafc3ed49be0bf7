//===- ModelAbi.cpp - descriptor and C API of a generated model -----------===//
#include "codegen/ModelAbi.h"

#include "dlc/dlc_model_abi.h"

#include <cstddef>

#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"

using namespace llvm;

bool dlc::isValidModelName(StringRef name) {
  if (name.empty() || isDigit(name.front()))
    return false;
  return llvm::all_of(name, [](char c) { return isAlnum(c) || c == '_'; });
}

static Constant *cString(Module &m, StringRef s, const Twine &symbol) {
  Constant *init = ConstantDataArray::getString(m.getContext(), s);
  auto *gv = new GlobalVariable(m, init->getType(), true,
                                GlobalValue::PrivateLinkage, init, symbol);
  gv->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
  return gv;
}

/// dlc_tensor_desc { const char *name; i32 dtype; i32 rank;
///                   const int64_t *shape; u64 size_bytes; i32 batch_axis;
///                   u32 reserved; const int64_t *max_shape, *min_shape;
///                   const char *const *dim_names }; the shape holds
/// DLC_DIM_DYNAMIC (-1) at a dynamic batch axis, at data-dependent
/// dimensions and at symbolic ones (whose bounds max_shape and min_shape
/// hold; dim_names names the symbolic ones). batch_axis is the batch axis,
/// or the axis of a static batch split into sub-batches.
static Constant *tensorDescs(Module &m, StructType *descTy,
                             const std::vector<dlc::TensorInfo> &tensors,
                             StringRef prefix) {
  LLVMContext &ctx = m.getContext();
  Type *i32 = Type::getInt32Ty(ctx), *i64 = Type::getInt64Ty(ctx);
  SmallVector<Constant *> elems;
  for (auto [i, t] : llvm::enumerate(tensors)) {
    std::string base = (prefix + "_" + Twine(i)).str();
    SmallVector<Constant *> dims;
    for (auto [k, d] : llvm::enumerate(t.shape))
      dims.push_back(ConstantInt::get(
          i64, (int64_t)k == t.batchAxis ? DLC_DIM_DYNAMIC : d));
    auto *shapeTy = ArrayType::get(i64, dims.size());
    auto *shape = new GlobalVariable(m, shapeTy, true,
                                     GlobalValue::PrivateLinkage,
                                     ConstantArray::get(shapeTy, dims),
                                     base + "_shape");
    // Bounds of the shape: their own array where given, else the shape.
    auto boundsOf = [&](const std::vector<int64_t> &values,
                        StringRef suffix) -> Constant * {
      if (values.empty())
        return shape;
      SmallVector<Constant *> bounds;
      for (int64_t d : values)
        bounds.push_back(ConstantInt::get(i64, d));
      return new GlobalVariable(m, shapeTy, true, GlobalValue::PrivateLinkage,
                                ConstantArray::get(shapeTy, bounds),
                                base + suffix);
    };
    Constant *maxShape = boundsOf(t.maxShape, "_max_shape");
    Constant *minShape = boundsOf(t.minShape, "_min_shape");
    auto *ptrTy = PointerType::getUnqual(ctx);
    Constant *dimNames = ConstantPointerNull::get(ptrTy);
    if (!t.dimNames.empty()) {
      SmallVector<Constant *> names;
      for (auto [k, name] : llvm::enumerate(t.dimNames))
        names.push_back(name.empty()
                            ? ConstantPointerNull::get(ptrTy)
                            : cString(m, name, base + "_dim_" + Twine(k)));
      auto *namesTy = ArrayType::get(ptrTy, names.size());
      dimNames = new GlobalVariable(
          m, namesTy, true, GlobalValue::PrivateLinkage,
          ConstantArray::get(namesTy, names), base + "_dim_names");
    }
    elems.push_back(ConstantStruct::get(
        descTy,
        {cString(m, t.name, base + "_name"), ConstantInt::get(i32, t.dtype),
         ConstantInt::get(i32, t.shape.size()), shape,
         ConstantInt::get(i64, t.sizeBytes),
         ConstantInt::get(i32, t.batchAxis >= 0 ? t.batchAxis : t.splitAxis),
         ConstantInt::get(i32, 0), maxShape, minShape, dimNames}));
  }
  auto *arrTy = ArrayType::get(descTy, elems.size());
  return new GlobalVariable(m, arrTy, true, GlobalValue::PrivateLinkage,
                            ConstantArray::get(arrTy, elems), prefix);
}

/// The version of the structs this file lays out (the runtime refuses any
/// other); a change to dlc_model_abi.h's structs bumps it and this file.
static constexpr uint32_t kModelAbiVersion = DLC_MODEL_ABI_VERSION;
static_assert(kModelAbiVersion == 14,
              "dlc_model_abi.h changed: update the descriptors laid out here");
// The LLVM struct types below mirror the runtime's C structs field by field
// (LP64 targets: x86-64 and AArch64 Linux); these pin the layouts.
static_assert(sizeof(dlc_tensor_desc) == 64 &&
              offsetof(dlc_tensor_desc, size_bytes) == 24 &&
              offsetof(dlc_tensor_desc, max_shape) == 40);
static_assert(sizeof(dlc_cuda_image) == 24 &&
              offsetof(dlc_cuda_image, ptx) == 8);
static_assert(sizeof(dlc_cuda_desc) == 48 &&
              offsetof(dlc_cuda_desc, constants_size) == 40);
static_assert(sizeof(dlc_model_desc) == 128 &&
              offsetof(dlc_model_desc, model_name) == 16 &&
              offsetof(dlc_model_desc, host_workspace_size) == 112 &&
              offsetof(dlc_model_desc, state_size) == 120);

/// dlc_cuda_desc { u32 num_images, num_kernels; const dlc_cuda_image *images;
///                 const char *const *kernel_names;
///                 const u32 *kernel_shared_bytes; const void *constants;
///                 u64 constants_size }
static Constant *cudaDescriptor(Module &m, const dlc::CudaImages &images,
                                GlobalVariable *constants, StringRef name) {
  LLVMContext &ctx = m.getContext();
  Type *i32 = Type::getInt32Ty(ctx), *i64 = Type::getInt64Ty(ctx);
  Type *ptr = PointerType::getUnqual(ctx);
  auto *imageTy =
      StructType::create(ctx, {i32, i32, ptr, ptr}, "dlc_cuda_image");
  SmallVector<Constant *> imageElems, kernelElems;
  for (auto [i, image] : llvm::enumerate(images.ptx)) {
    Constant *cubin = ConstantPointerNull::get(PointerType::getUnqual(ctx));
    uint32_t cubinSize = 0;
    if (i < images.cubins.size() && !images.cubins[i].empty()) {
      const std::string &bytes = images.cubins[i];
      auto *gv = new GlobalVariable(
          m, ArrayType::get(Type::getInt8Ty(ctx), bytes.size()), true,
          GlobalValue::PrivateLinkage,
          ConstantDataArray::getRaw(bytes, bytes.size(), Type::getInt8Ty(ctx)),
          name + "_cubin_" + Twine(i));
      gv->setAlignment(Align(16));
      cubin = gv;
      cubinSize = static_cast<uint32_t>(bytes.size());
    }
    imageElems.push_back(ConstantStruct::get(
        imageTy,
        {ConstantInt::get(i32, image.first), ConstantInt::get(i32, cubinSize),
         cString(m, image.second, name + "_ptx_" + Twine(i)), cubin}));
  }
  for (auto [i, kernel] : llvm::enumerate(images.kernels))
    kernelElems.push_back(cString(m, kernel, name + "_kernel_" + Twine(i)));
  auto *imagesTy = ArrayType::get(imageTy, imageElems.size());
  auto *kernelsTy = ArrayType::get(ptr, kernelElems.size());
  auto *imagesGv = new GlobalVariable(m, imagesTy, true,
                                      GlobalValue::PrivateLinkage,
                                      ConstantArray::get(imagesTy, imageElems),
                                      name + "_cuda_images");
  auto *kernelsGv = new GlobalVariable(
      m, kernelsTy, true, GlobalValue::PrivateLinkage,
      ConstantArray::get(kernelsTy, kernelElems), name + "_cuda_kernels");
  SmallVector<Constant *> sharedElems;
  for (uint32_t bytes : images.kernelShared)
    sharedElems.push_back(ConstantInt::get(i32, bytes));
  auto *sharedTy = ArrayType::get(i32, sharedElems.size());
  auto *sharedGv = new GlobalVariable(
      m, sharedTy, true, GlobalValue::PrivateLinkage,
      ConstantArray::get(sharedTy, sharedElems), name + "_cuda_kernel_shared");
  auto *descTy = StructType::create(ctx, {i32, i32, ptr, ptr, ptr, ptr, i64},
                                    "dlc_cuda_desc");
  return new GlobalVariable(
      m, descTy, true, GlobalValue::PrivateLinkage,
      ConstantStruct::get(
          descTy, {ConstantInt::get(i32, imageElems.size()),
                   ConstantInt::get(i32, kernelElems.size()), imagesGv,
                   kernelsGv, sharedGv, constants,
                   ConstantInt::get(i64, images.constantsSize)}),
      name + "_cuda_desc");
}

/// Defines `name(params...)` as a call of the runtime function `target`
/// with `desc` prepended when given.
static void forward(Module &m, StringRef name, StringRef target, Type *ret,
                    ArrayRef<Type *> params, Constant *desc) {
  LLVMContext &ctx = m.getContext();
  SmallVector<Type *> targetParams;
  if (desc)
    targetParams.push_back(PointerType::getUnqual(ctx));
  targetParams.append(params.begin(), params.end());
  FunctionCallee callee =
      m.getOrInsertFunction(target, FunctionType::get(ret, targetParams, false));
  Function *f = Function::Create(FunctionType::get(ret, params, false),
                                 GlobalValue::ExternalLinkage, name, m);
  IRBuilder<> b(BasicBlock::Create(ctx, "entry", f));
  SmallVector<Value *> args;
  if (desc)
    args.push_back(desc);
  for (Argument &a : f->args())
    args.push_back(&a);
  CallInst *call = b.CreateCall(callee, args);
  call->setTailCall();
  if (ret->isVoidTy())
    b.CreateRetVoid();
  else
    b.CreateRet(call);
}

Error dlc::addModelAbi(Module &m, const ModelInfo &info, bool apiWrappers) {
  LLVMContext &ctx = m.getContext();
  const std::string &name = info.name;
  Function *main = m.getFunction("main");
  if (!main)
    return createStringError(inconvertibleErrorCode(),
                             "lowered module has no main function");
  // Inputs, outputs and the workspace are pointers. The CPU entry takes
  // the thread count as an i32 by value; the CUDA entry takes the
  // constants arena and the launch context, both pointers.
  bool cuda = info.cuda.has_value();
  // Data-dependent output sizes come back in one more array after the
  // outputs, the sizes of symbolic input dimensions come in another.
  size_t numArgs = info.inputs.size() + info.outputs.size() +
                   (info.numDynamicDims ? 1 : 0) +
                   (info.numInputDynamicDims ? 1 : 0) + (cuda ? 3 : 1) +
                   (info.hostWorkspaceSize ? 1 : 0) + (info.stateSize ? 1 : 0);
  size_t expected = cuda                ? numArgs
                    : info.cudaEmulated ? numArgs + 2 // constants, context
                                        : numArgs + 1; // thread count
  if (main->arg_size() != expected)
    return createStringError(inconvertibleErrorCode(),
                             "lowered main takes " + Twine(main->arg_size()) +
                                 " arguments, expected " + Twine(expected));
  main->setName(name + "_main");
  main->setLinkage(GlobalValue::InternalLinkage);

  Type *ptr = PointerType::getUnqual(ctx);
  Type *i32 = Type::getInt32Ty(ctx), *i64 = Type::getInt64Ty(ctx);
  Type *voidTy = Type::getVoidTy(ctx), *sizeTy = i64;

  // void <name>_entry(void **args): unpacks the argument vector.
  Function *entry = Function::Create(FunctionType::get(voidTy, {ptr}, false),
                                     GlobalValue::InternalLinkage,
                                     name + "_entry", m);
  {
    IRBuilder<> b(BasicBlock::Create(ctx, "entry", entry));
    SmallVector<Value *> args;
    for (size_t i = 0; i < numArgs; ++i) {
      Value *slot = b.CreateConstGEP1_64(ptr, entry->getArg(0), i);
      args.push_back(b.CreateLoad(ptr, slot));
    }
    // @main takes the input sizes right after the inputs (its arguments
    // before the outputs became out-parameters).
    if (info.numInputDynamicDims) {
      size_t at = info.inputs.size() + info.outputs.size() +
                  (info.numDynamicDims ? 1 : 0);
      Value *sizes = args[at];
      args.erase(args.begin() + at);
      args.insert(args.begin() + info.inputs.size(), sizes);
    }
    if (info.cudaEmulated) {
      // The constants arena is the library's own copy; no launch context.
      GlobalVariable *constants = m.getNamedGlobal("dlc_constants");
      if (!constants)
        return createStringError(inconvertibleErrorCode(),
                                 "emulated CUDA module has no dlc_constants");
      args.push_back(constants);
      args.push_back(ConstantPointerNull::get(cast<PointerType>(ptr)));
    } else if (!cuda) {
      Value *threadsSlot =
          b.CreateConstGEP1_64(ptr, entry->getArg(0), numArgs);
      args.push_back(b.CreateLoad(Type::getInt32Ty(ctx),
                                  b.CreateLoad(ptr, threadsSlot)));
    }
    b.CreateCall(main, args);
    b.CreateRetVoid();
  }

  auto *tensorTy = StructType::create(
      ctx, {ptr, i32, i32, ptr, i64, i32, i32, ptr, ptr, ptr},
      "dlc_tensor_desc");
  Constant *cudaDesc = ConstantPointerNull::get(cast<PointerType>(ptr));
  if (cuda) {
    GlobalVariable *constants = m.getNamedGlobal("dlc_constants");
    if (!constants)
      return createStringError(inconvertibleErrorCode(),
                               "CUDA module has no dlc_constants");
    cudaDesc = cudaDescriptor(m, *info.cuda, constants, name);
  }
  // The run-time checks' messages.
  Constant *checks = ConstantPointerNull::get(cast<PointerType>(ptr));
  if (!info.checks.empty()) {
    SmallVector<Constant *> messages;
    for (auto [k, message] : llvm::enumerate(info.checks))
      messages.push_back(cString(m, message, name + "_check_" + Twine(k)));
    auto *messagesTy = ArrayType::get(ptr, messages.size());
    checks = new GlobalVariable(
        m, messagesTy, true, GlobalValue::InternalLinkage,
        ConstantArray::get(messagesTy, messages), name + "_checks");
  }
  auto *descTy =
      StructType::create(ctx,
                         {i32, i32, i32, i32, ptr, ptr, ptr, i64, ptr, ptr, i64,
                          i64, i64, i64, i64, ptr, i64, i64},
                         "dlc_model_desc");
  Constant *descInit = ConstantStruct::get(
      descTy, {ConstantInt::get(i32, kModelAbiVersion),
               ConstantInt::get(i32, info.inputs.size()),
               ConstantInt::get(i32, info.outputs.size()),
               ConstantInt::get(i32, info.batchSplit),
               cString(m, name, name + "_model_name"),
               tensorDescs(m, tensorTy, info.inputs, name + "_inputs"),
               tensorDescs(m, tensorTy, info.outputs, name + "_outputs"),
               ConstantInt::get(i64, info.workspaceSize), entry, cudaDesc,
               ConstantInt::get(i64, info.numDynamicDims),
               ConstantInt::get(i64, info.numInputDynamicDims),
               ConstantInt::get(i64, info.batchChunk),
               ConstantInt::get(i64, info.checks.size()),
               ConstantInt::get(i64, info.checkOffset), checks,
               ConstantInt::get(i64, info.hostWorkspaceSize),
               ConstantInt::get(i64, info.stateSize)});
  auto *desc = new GlobalVariable(m, descTy, true, GlobalValue::ExternalLinkage,
                                  descInit, name + "_desc");

  if (!apiWrappers)
    return Error::success();
  forward(m, name + "_num_inputs", "dlcrt_num_inputs", sizeTy, {}, desc);
  forward(m, name + "_num_outputs", "dlcrt_num_outputs", sizeTy, {}, desc);
  forward(m, name + "_workspace_size", "dlcrt_workspace_size", sizeTy, {},
          desc);
  for (StringRef kind : {"input", "output"}) {
    std::string pre = (name + "_" + kind).str(), rt = ("dlcrt_" + kind).str();
    forward(m, pre + "_name", rt + "_name", ptr, {sizeTy}, desc);
    forward(m, pre + "_dtype", rt + "_dtype", i32, {sizeTy}, desc);
    forward(m, pre + "_rank", rt + "_rank", i32, {sizeTy}, desc);
    forward(m, pre + "_shape", rt + "_shape", ptr, {sizeTy}, desc);
    forward(m, pre + "_max_shape", rt + "_max_shape", ptr, {sizeTy}, desc);
    forward(m, pre + "_min_shape", rt + "_min_shape", ptr, {sizeTy}, desc);
    forward(m, pre + "_dim_name", rt + "_dim_name", ptr, {sizeTy, i32}, desc);
    forward(m, pre + "_size_bytes", rt + "_size_bytes", sizeTy, {sizeTy}, desc);
  }
  forward(m, name + "_create", "dlcrt_model_create", ptr, {ptr, ptr}, desc);
  forward(m, name + "_run", "dlcrt_model_run", ptr,
          {ptr, ptr, sizeTy, ptr, sizeTy}, nullptr);
  forward(m, name + "_run_async", "dlcrt_model_run_async", ptr,
          {ptr, ptr, sizeTy, ptr, sizeTy}, nullptr);
  forward(m, name + "_wait", "dlcrt_model_wait", ptr, {ptr}, nullptr);
  forward(m, name + "_kernel_profile", "dlcrt_model_kernel_profile", sizeTy,
          {ptr, ptr, ptr}, nullptr);
  forward(m, name + "_kernel_name", "dlcrt_kernel_name", ptr, {sizeTy}, desc);
  forward(m, name + "_destroy", "dlcrt_model_destroy", voidTy, {ptr}, nullptr);
  forward(m, name + "_output_run_shape", "dlcrt_model_output_shape", ptr,
          {ptr, sizeTy}, nullptr);
  return Error::success();
}
