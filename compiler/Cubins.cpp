//===- Cubins.cpp - cubins assembled from the CUDA target's PTX -----------===//
#include "compiler/Cubins.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace llvm;

std::string dlc::findPtxas() {
  SmallVector<std::string> roots;
  for (const char *var : {"CUDA_HOME", "CUDA_PATH", "CUDA_ROOT"})
    if (const char *v = getenv(var); v && *v)
      roots.push_back(v);
  roots.push_back("/usr/local/cuda");
  for (const std::string &root : roots) {
    SmallString<256> path(root);
    sys::path::append(path, "bin", "ptxas");
    if (sys::fs::can_execute(path))
      return path.str().str();
  }
  if (ErrorOr<std::string> onPath = sys::findProgramByName("ptxas"))
    return *onPath;
  return "";
}

Error dlc::assembleCubins(CudaImages &images, const std::string &ptxas) {
  images.cubins.clear();
  for (const auto &[sm, ptx] : images.ptx) {
    SmallString<128> ptxPath, cubinPath, logPath;
    if (std::error_code ec =
            sys::fs::createTemporaryFile("dlc-kernels", "ptx", ptxPath))
      return createStringError(ec, "cannot create a temporary file for ptxas");
    FileRemover removePtx(ptxPath);
    if (std::error_code ec =
            sys::fs::createTemporaryFile("dlc-kernels", "cubin", cubinPath))
      return createStringError(ec, "cannot create a temporary file for ptxas");
    FileRemover removeCubin(cubinPath);
    if (std::error_code ec =
            sys::fs::createTemporaryFile("dlc-ptxas", "log", logPath))
      return createStringError(ec, "cannot create a temporary file for ptxas");
    FileRemover removeLog(logPath);
    {
      std::error_code ec;
      raw_fd_ostream os(ptxPath, ec);
      if (ec)
        return createStringError(ec, "cannot write %s", ptxPath.c_str());
      os << ptx;
    }
    std::string arch = "-arch=" + dlc::cudaArchName(sm);
    SmallVector<StringRef> argv = {ptxas, arch,      "-O3",
                                   "-o",  cubinPath, ptxPath};
    std::optional<StringRef> redirects[] = {std::nullopt, logPath.str(),
                                            logPath.str()};
    std::string error;
    int rc =
        sys::ExecuteAndWait(ptxas, argv, /*Env=*/std::nullopt, redirects,
                            /*SecondsToWait=*/600, /*MemoryLimit=*/0, &error);
    if (rc != 0) {
      std::string log;
      if (auto buffer = MemoryBuffer::getFile(logPath))
        log = (*buffer)->getBuffer().trim().str();
      return createStringError(
          inconvertibleErrorCode(), "%s %s failed (%s): %s", ptxas.c_str(),
          arch.c_str(),
          error.empty() ? ("exit code " + std::to_string(rc)).c_str()
                        : error.c_str(),
          log.substr(0, 2000).c_str());
    }
    auto cubin = MemoryBuffer::getFile(cubinPath, /*IsText=*/false);
    if (!cubin)
      return createStringError(cubin.getError(), "cannot read %s",
                               cubinPath.c_str());
    images.cubins.push_back((*cubin)->getBuffer().str());
  }
  return Error::success();
}
