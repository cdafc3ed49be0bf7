//===- Cubins.h - cubins assembled from the CUDA target's PTX ----*- C++
//-*-===//
#ifndef DLC_COMPILER_CUBINS_H
#define DLC_COMPILER_CUBINS_H

#include "codegen/ModelInfo.h"
#include "llvm/Support/Error.h"

#include <string>

namespace dlc {

/// The ptxas to assemble cubins with: $CUDA_HOME/bin/ptxas (or CUDA_PATH,
/// CUDA_ROOT), /usr/local/cuda/bin/ptxas, then PATH; empty when none.
std::string findPtxas();

/// Assembles each PTX image of `images` with `ptxas` into a cubin for its
/// architecture (images.cubins, parallel to images.ptx). Fails with ptxas's
/// message.
llvm::Error assembleCubins(CudaImages &images, const std::string &ptxas);

} // namespace dlc

#endif
