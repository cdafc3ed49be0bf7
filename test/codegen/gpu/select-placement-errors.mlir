// RUN: not dlc-opt %s --dlc-gpu-select-placement="cpu-nodes=looped" 2>&1 | FileCheck %s --check-prefix=LOOP
// RUN: not dlc-opt %s --dlc-gpu-select-placement="cpu-nodes=missing" 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not dlc-opt %s --dlc-gpu-select-placement="mode=off cpu-nodes=looped" 2>&1 | FileCheck %s --check-prefix=OFF
// RUN: not dlc-opt %s --dlc-gpu-select-placement="mode=fast" 2>&1 | FileCheck %s --check-prefix=MODE

// LOOP: loc("looped"): node 'looped' cannot run on the CPU inside a CUDA model: it runs inside a loop or a branch
// MISSING: error: no kernel computes node 'missing' (named to run on the CPU; an unnamed ONNX node is OpType_index, its position in the graph)
// OFF: error: node 'looped' is named to run on the CPU but the CPU fallback is off
// MODE: error: dlc-gpu-select-placement: unknown mode 'fast' (auto, gpu or off)

// A kernel inside a loop cannot be a host part (yet).
#map = affine_map<(d0) -> (d0)>
#map1 = affine_map<(d0) -> ()>
func.func @in_loop(%x: tensor<8xf32>, %init: tensor<f32>) -> tensor<f32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %init) -> tensor<f32> {
    %s = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["reduction"]} ins(%x : tensor<8xf32>) outs(%acc : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %a = arith.addf %out, %in : f32
      linalg.yield %a : f32
    } -> tensor<f32> loc("looped")
    scf.yield %s : tensor<f32>
  }
  return %r : tensor<f32>
}
