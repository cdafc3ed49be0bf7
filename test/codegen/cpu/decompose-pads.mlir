// RUN: dlc-opt %s -split-input-file --dlc-cpu-decompose-pads | FileCheck %s
// RUN: dlc-opt %s -split-input-file --dlc-cpu-decompose-pads --eliminate-empty-tensors --empty-tensor-to-alloc-tensor --one-shot-bufferize --cse --canonicalize | FileCheck %s --check-prefix=BUF

// A zero pad of static shape becomes fills of its border slabs (rows 0
// and 9, columns 0 and 9 of each channel), marked dlc.pad_border, and an
// insert of the source into the interior. After empty-tensor elimination, the producer (here an
// elementwise op) writes into the interior of the padded buffer: no copy
// remains, and the interior is not zeroed first.
// CHECK-LABEL: func.func @pad_of_producer
// CHECK:         %[[R:.+]] = linalg.generic
// CHECK:         %[[E:.+]] = tensor.empty() : tensor<1x4x10x10xf32>
// CHECK:         %[[S0:.+]] = tensor.extract_slice %[[E]][0, 0, 0, 0] [1, 4, 1, 10] [1, 1, 1, 1]
// CHECK:         %[[F0:.+]] = linalg.fill {dlc.pad_border} ins(%{{.+}} : f32) outs(%[[S0]] : tensor<1x4x1x10xf32>)
// CHECK:         %[[I0:.+]] = tensor.insert_slice %[[F0]] into %[[E]][0, 0, 0, 0] [1, 4, 1, 10]
// CHECK:         tensor.extract_slice %[[I0]][0, 0, 9, 0] [1, 4, 1, 10]
// CHECK:         tensor.extract_slice %{{.+}}[0, 0, 0, 0] [1, 4, 10, 1]
// CHECK:         %[[S3:.+]] = tensor.extract_slice %{{.+}}[0, 0, 0, 9] [1, 4, 10, 1]
// CHECK:         %[[F3:.+]] = linalg.fill {dlc.pad_border} ins(%{{.+}} : f32) outs(%[[S3]] : tensor<1x4x10x1xf32>)
// CHECK:         %[[I3:.+]] = tensor.insert_slice %[[F3]]
// CHECK:         tensor.insert_slice %[[R]] into %[[I3]][0, 0, 1, 1] [1, 4, 8, 8] [1, 1, 1, 1]
// CHECK-NOT:     tensor.pad
// BUF-LABEL:   func.func @pad_of_producer
// BUF:           %[[A:.+]] = memref.alloc() {{.+}} : memref<1x4x10x10xf32>
// BUF-NOT:       outs(%[[A]] : memref<1x4x10x10xf32>)
// BUF-COUNT-4:   linalg.fill {dlc.pad_border} ins({{.+}}) outs(%{{.+}} : memref<1x4x{{10x1|1x10}}xf32, strided<[400, 100, 10, 1]{{.*}}>>)
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

// -----

// A pad of run-time size keeps upstream's decomposition: a fill of the
// whole padded shape and an insert of the source.
// CHECK-LABEL: func.func @dynamic_pad
// CHECK:         %[[F:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<?x6xf32>)
// CHECK:         tensor.insert_slice %{{.+}} into %[[F]][1, 1] [%{{.+}}, 4] [1, 1]
// BUF-LABEL:   func.func @dynamic_pad
// BUF:           linalg.fill {{.+}} outs(%{{.+}} : memref<?x6xf32>)
func.func @dynamic_pad(%x: tensor<?x4xf32>) -> tensor<?x6xf32> {
  %cst = arith.constant 0.0 : f32
  %p = tensor.pad %x low[1, 1] high[1, 1] {
  ^bb0(%a: index, %b: index):
    tensor.yield %cst : f32
  } : tensor<?x4xf32> to tensor<?x6xf32>
  return %p : tensor<?x6xf32>
}
