// RUN: dlc-opt %s --dlc-cuda-pipeline=precision=tf32 2>/dev/null | FileCheck %s --check-prefix=TF32
// RUN: dlc-opt %s --dlc-cuda-pipeline=precision=f16 2>/dev/null | FileCheck %s --check-prefix=F16
// RUN: dlc-opt %s --dlc-cuda-pipeline | FileCheck %s --check-prefix=F32
// RUN: dlc-opt %s --dlc-cuda-pipeline="precision=tf32 archs=sm_90a" 2>/dev/null | FileCheck %s --check-prefix=WGTF32
// RUN: dlc-opt %s --dlc-cuda-pipeline="precision=f16 archs=sm_90a" 2>/dev/null | FileCheck %s --check-prefix=WGF16

// The whole CUDA pipeline on a 64x64x128 MatMul: with tf32 its kernel runs
// on tensor cores (mma.sync m16n8k8 on tf32 fragments loaded per lane from
// the k-major shared tiles), with fp16 on m16n8k16
// (operands staged in fp16, fragments by ldmatrix), in the PTX of both
// architectures; in fp32 on CUDA cores (FMAs).
// TF32: dlc.cuda_ptx = {sm_80 = "{{.*}}mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32{{.*}}", sm_90 = "{{.*}}mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
// F16: dlc.cuda_ptx = {sm_80 = "{{.*}}ldmatrix.sync.aligned.m8n8.x4.shared.b16{{.*}}mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32{{.*}}", sm_90 = "{{.*}}mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// F32: dlc.cuda_ptx = {sm_80 = "{{.*}}fma.rn.f32
// F32-NOT: mma.sync
// For sm_90a alone, the 64 rows are one warpgroup's: wgmma on descriptors
// of the shared tiles, fenced and waited for.
// WGTF32: dlc.cuda_ptx = {sm_90a = "{{.*}}wgmma.fence.sync.aligned{{.*}}wgmma.mma_async.sync.aligned.m64n{{[0-9]+}}k8.f32.tf32.tf32{{.*}}wgmma.commit_group.sync.aligned{{.*}}wgmma.wait_group.sync.aligned{{[^;]*}}0;
// WGF16: dlc.cuda_ptx = {sm_90a = "{{.*}}wgmma.mma_async.sync.aligned.m64n{{[0-9]+}}k16.f32.f16.f16
func.func @main(%x: tensor<64x64xf32>) -> tensor<64x128xf32> {
  %w = arith.constant dense<0.5> : tensor<64x128xf32>
  %0 = dlc.matmul %x, %w : tensor<64x64xf32>, tensor<64x128xf32> -> tensor<64x128xf32>
  return %0 : tensor<64x128xf32>
}
