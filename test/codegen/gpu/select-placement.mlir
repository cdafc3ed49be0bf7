// RUN: dlc-opt %s --dlc-gpu-select-placement="cpu-nodes=sum" | FileCheck %s --check-prefix=NAMED
// RUN: dlc-opt %s --dlc-gpu-select-placement="mode=auto remarks=1 cpu-gflops=10 cpu-gbps=10 gpu-gflops=10000 gpu-gbps=1000 gpu-saturation=100000 launch-us=5 link-gbps=10 link-latency-us=10" 2>&1 | FileCheck %s --check-prefix=AUTO
// RUN: dlc-opt %s --dlc-gpu-select-placement="mode=auto remarks=1 cpu-gflops=10 cpu-gbps=10 gpu-gflops=10000 gpu-gbps=1000 gpu-saturation=100000 launch-us=5 link-gbps=inf link-latency-us=0" 2>&1 | FileCheck %s --check-prefix=FREE
// RUN: dlc-opt %s --dlc-gpu-select-placement="mode=auto remarks=1 cpu-gflops=10 cpu-gbps=10 gpu-gflops=10000 gpu-gbps=1000 gpu-saturation=100000 launch-us=5 link-gbps=0" 2>&1 | FileCheck %s --check-prefix=NOLINK
// RUN: dlc-opt %s --dlc-gpu-select-placement="mode=off" | FileCheck %s --check-prefix=OFF

// A 64x64x64 MatMul (524288 FLOPs over 4096 outputs) and the sum of its
// result to a scalar (4096 FLOPs, one output: a warp's 32 lanes on a GPU).
// Given figures: the CPU 10 GFLOP/s and 10 GB/s (host parts are plain
// loops), the GPU 10 TFLOP/s and 1 TB/s filled by 100000 work items, 5 us
// per launch, a 10 GB/s link with 10 us per transfer.
//   MatMul: CPU 524288 / (10e9 * 0.75) = 69.905 us; GPU filled to 4096 /
//     100000: 524288 / (10e12 * 0.5 * 0.04096) + 5 = 7.560 us.
//   Sum: CPU 4096 / (10e9 * 0.15) = 2.731 us; GPU filled to 32 / 100000,
//     bound by its 16388 bytes: 16388 / (1e12 * 0.00032) + 5 = 56.213 us.
// With the link: the MatMul on the GPU, the sum on the CPU (its 16 KB
// input over the link, 11.6 us, its 4 bytes of result already in host
// memory: 14.3 us against 56.213 + 10.0004 = 66.213 us on the GPU, the
// result brought back). A free link changes nothing here (each kernel's
// faster device); without a link everything stays on the CPU, where the
// inputs and results are.

#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> ()>
func.func @main(%x: tensor<64x64xf32>, %w: tensor<64x64xf32>) -> (tensor<64x64xf32>, tensor<f32>) {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<64x64xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<64x64xf32>) -> tensor<64x64xf32> loc("mm")
  %2 = linalg.matmul ins(%x, %w : tensor<64x64xf32>, tensor<64x64xf32>) outs(%1 : tensor<64x64xf32>) -> tensor<64x64xf32> loc("mm")
  %3 = tensor.empty() : tensor<f32>
  %4 = linalg.fill ins(%cst : f32) outs(%3 : tensor<f32>) -> tensor<f32> loc("sum")
  %5 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["reduction", "reduction"]} ins(%2 : tensor<64x64xf32>) outs(%4 : tensor<f32>) {
  ^bb0(%in: f32, %out: f32):
    %6 = arith.addf %out, %in : f32
    linalg.yield %6 : f32
  } -> tensor<f32> loc("sum")
  return %2, %5 : tensor<64x64xf32>, tensor<f32>
}

// NAMED-LABEL: func.func @main
// NAMED: linalg.fill ins
// NAMED-NOT: dlc.placement
// NAMED: linalg.matmul ins
// NAMED: linalg.fill {dlc.placement = #dlc.placement<cpu, "named by --cpu-nodes",
// NAMED: linalg.generic
// NAMED-SAME: dlc.placement = #dlc.placement<cpu, "named by --cpu-nodes",

// AUTO: remark: {{.*}}kernel 'mm': cpu 69905 ns, gpu 7560 ns, on the gpu
// AUTO: remark: {{.*}}kernel 'sum': cpu 2731 ns, gpu 56213 ns, on the cpu
// AUTO: remark: kernel '': cpu 0 ns, gpu 5400 ns, on the gpu
// AUTO: remark: {{.*}}kernel 'looped': cpu 21 ns, gpu 22000 ns, on the gpu
// AUTO-LABEL: func.func @main
// AUTO: linalg.matmul ins
// AUTO: linalg.generic
// AUTO-SAME: #dlc.placement<cpu, "the cost model: 2.73 us on the CPU, 66.21 us on the GPU with transfers", 2731, 66213>

// FREE: remark: {{.*}}kernel 'mm': cpu 69905 ns, gpu 7560 ns, on the gpu
// FREE: remark: {{.*}}kernel 'sum': cpu 2731 ns, gpu 56213 ns, on the cpu

// NOLINK: remark: {{.*}}kernel 'mm': cpu 69905 ns, gpu 7560 ns, on the cpu
// NOLINK: remark: {{.*}}kernel 'sum': cpu 2731 ns, gpu 56213 ns, on the cpu

// OFF-NOT: dlc.placement

// A kernel inside a loop stays on the GPU, whatever the cost model says;
// the fill of its initial value too (the loop, device code, reads it).
#map2 = affine_map<(d0) -> (d0)>
#map3 = affine_map<(d0) -> ()>
func.func @in_loop(%x: tensor<8xf32>) -> tensor<f32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %cst = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : tensor<f32>
  %init = linalg.fill ins(%cst : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %init) -> tensor<f32> {
    %s = linalg.generic {indexing_maps = [#map2, #map3], iterator_types = ["reduction"]} ins(%x : tensor<8xf32>) outs(%acc : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %a = arith.addf %out, %in : f32
      linalg.yield %a : f32
    } -> tensor<f32> loc("looped")
    scf.yield %s : tensor<f32>
  }
  return %r : tensor<f32>
}
// AUTO-LABEL: func.func @in_loop
// AUTO-NOT: dlc.placement
// NOLINK-LABEL: func.func @in_loop
// NOLINK-NOT: dlc.placement
