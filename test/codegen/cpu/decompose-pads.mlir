// RUN: dlc-opt %s -split-input-file --dlc-cpu-decompose-pads | FileCheck %s
// RUN: dlc-opt %s -split-input-file --dlc-cpu-decompose-pads --eliminate-empty-tensors --empty-tensor-to-alloc-tensor --one-shot-bufferize --cse --canonicalize | FileCheck %s --check-prefix=BUF

// A zero pad becomes a fill of the padded shape and an insert of the source.
// After empty-tensor elimination, the producer (here an elementwise op)
// writes into the interior of the padded buffer: no copy remains.
// CHECK-LABEL: func.func @pad_of_producer
// CHECK:         %[[R:.+]] = linalg.generic
// CHECK:         %[[F:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<1x4x10x10xf32>)
// CHECK:         tensor.insert_slice %[[R]] into %[[F]][0, 0, 1, 1] [1, 4, 8, 8] [1, 1, 1, 1]
// CHECK-NOT:     tensor.pad
// BUF-LABEL:   func.func @pad_of_producer
// BUF:           %[[A:.+]] = memref.alloc() {{.+}} : memref<1x4x10x10xf32>
// BUF:           linalg.fill {{.+}} outs(%[[A]] : memref<1x4x10x10xf32>)
// BUF:           %[[V:.+]] = memref.subview %[[A]][0, 0, 1, 1] [1, 4, 8, 8] [1, 1, 1, 1]
// BUF:           linalg.generic {{.+}} outs(%[[V]] :
// BUF-NOT:       memref.copy
func.func @pad_of_producer(%x: tensor<1x4x8x8xf32>) -> tensor<1x4x10x10xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x8x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x4x8x8xf32>) outs(%e : tensor<1x4x8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %cst : f32
    linalg.yield %m : f32
  } -> tensor<1x4x8x8xf32>
  %p = tensor.pad %r low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %cst : f32
  } : tensor<1x4x8x8xf32> to tensor<1x4x10x10xf32>
  return %p : tensor<1x4x10x10xf32>
}
