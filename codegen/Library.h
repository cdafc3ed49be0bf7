//===- Library.h - package generated objects as libraries --------*- C++ -*-===//
#ifndef DLC_CODEGEN_LIBRARY_H
#define DLC_CODEGEN_LIBRARY_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace dlc {

/// Writes `archivePath` (a static library) holding `object` (named
/// `objectName`) and every member of the runtime archive `runtimeArchive`.
llvm::Error writeStaticLibrary(llvm::StringRef archivePath,
                               llvm::StringRef objectName,
                               llvm::StringRef object,
                               llvm::StringRef runtimeArchive);

/// Links `objectPath` and the runtime archive into the shared library
/// `soPath` with the system C compiler driver (`cc`, or $CC). CPU models
/// link libomp; CUDA models (`cuda`) link only -ldl (the driver is opened
/// at run time).
llvm::Error linkSharedLibrary(llvm::StringRef soPath, llvm::StringRef objectPath,
                              llvm::StringRef runtimeArchive, bool cuda = false);

} // namespace dlc

#endif
