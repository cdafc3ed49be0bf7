// RUN: dlc-opt %s -split-input-file --dlc-cpu-decompose-pads --dlc-cpu-insert-parts | FileCheck %s
// RUN: dlc-opt %s -split-input-file --dlc-cpu-decompose-pads --dlc-cpu-insert-parts --eliminate-empty-tensors --empty-tensor-to-alloc-tensor --one-shot-bufferize --cse --canonicalize | FileCheck %s --check-prefix=BUF

// A source joined from parts (as a split op's are: each computed into an
// empty tensor of its own, then inserted into an empty tensor) inserted
// into a padded buffer's interior has each part inserted there directly,
// at the composed offsets: after bufferization both parts write the padded
// buffer in place (one buffer, no copy).
// CHECK-LABEL: func.func @pad_of_parts
// CHECK:         scf.forall
// CHECK:         scf.forall.in_parallel
// CHECK:         %[[R:.+]] = linalg.generic
// CHECK:         %[[J:.+]] = tensor.insert_slice %{{.+}} into %{{.+}}[0, 0, 1, 1] [1, 3, 8, 8]
// CHECK:         %[[O:.+]] = tensor.insert_slice %[[R]] into %[[J]][0, 3, 1, 1] [1, 1, 8, 8]
// CHECK:         return %[[O]]
// BUF-LABEL:   func.func @pad_of_parts
// BUF-COUNT-1:   memref.alloc()
// BUF-NOT:       memref.copy
// BUF-NOT:       memref.alloc()
// BUF:           return
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @pad_of_parts(%x: tensor<1x4x8x8xf32>) -> tensor<1x4x10x10xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x8x8xf32>
  %e1 = tensor.empty() : tensor<1x3x8x8xf32>
  %x1 = tensor.extract_slice %x[0, 0, 0, 0] [1, 3, 8, 8] [1, 1, 1, 1] : tensor<1x4x8x8xf32> to tensor<1x3x8x8xf32>
  %r1 = scf.forall (%i) in (3) shared_outs(%o = %e1) -> (tensor<1x3x8x8xf32>) {
    %xs = tensor.extract_slice %x1[0, %i, 0, 0] [1, 1, 8, 8] [1, 1, 1, 1] : tensor<1x3x8x8xf32> to tensor<1x1x8x8xf32>
    %os = tensor.extract_slice %o[0, %i, 0, 0] [1, 1, 8, 8] [1, 1, 1, 1] : tensor<1x3x8x8xf32> to tensor<1x1x8x8xf32>
    %g = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
        ins(%xs : tensor<1x1x8x8xf32>) outs(%os : tensor<1x1x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %m = arith.maximumf %in, %cst : f32
      linalg.yield %m : f32
    } -> tensor<1x1x8x8xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %g into %o[0, %i, 0, 0] [1, 1, 8, 8] [1, 1, 1, 1] : tensor<1x1x8x8xf32> into tensor<1x3x8x8xf32>
    }
  }
  %j1 = tensor.insert_slice %r1 into %e[0, 0, 0, 0] [1, 3, 8, 8] [1, 1, 1, 1] : tensor<1x3x8x8xf32> into tensor<1x4x8x8xf32>
  %e2 = tensor.empty() : tensor<1x1x8x8xf32>
  %x2 = tensor.extract_slice %x[0, 3, 0, 0] [1, 1, 8, 8] [1, 1, 1, 1] : tensor<1x4x8x8xf32> to tensor<1x1x8x8xf32>
  %r2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
        ins(%x2 : tensor<1x1x8x8xf32>) outs(%e2 : tensor<1x1x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %m = arith.maximumf %in, %cst : f32
      linalg.yield %m : f32
    } -> tensor<1x1x8x8xf32>
  %j2 = tensor.insert_slice %r2 into %j1[0, 3, 0, 0] [1, 1, 8, 8] [1, 1, 1, 1] : tensor<1x1x8x8xf32> into tensor<1x4x8x8xf32>
  %p = tensor.pad %j2 low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %cst : f32
  } : tensor<1x4x8x8xf32> to tensor<1x4x10x10xf32>
  return %p : tensor<1x4x10x10xf32>
}

// -----

// The same for a concatenation of two joined values: four parts, each
// inserted into the concatenation at its own offset.
// CHECK-LABEL: func.func @concat_of_parts
// CHECK:         %[[E:.+]] = tensor.empty() : tensor<2x8x8xf32>
// CHECK:         %[[A:.+]] = tensor.insert_slice %{{.+}} into %[[E]][0, 0, 0] [1, 6, 8]
// CHECK:         %[[B:.+]] = tensor.insert_slice %{{.+}} into %[[A]][0, 6, 0] [1, 2, 8]
// CHECK:         %[[C:.+]] = tensor.insert_slice %{{.+}} into %[[B]][1, 0, 0] [1, 6, 8]
// CHECK:         %[[D:.+]] = tensor.insert_slice %{{.+}} into %[[C]][1, 6, 0] [1, 2, 8]
// CHECK:         return %[[D]]
// BUF-LABEL:   func.func @concat_of_parts
// BUF-COUNT-1:   memref.alloc()
// BUF-NOT:       memref.copy
// BUF-NOT:       memref.alloc()
// BUF:           return
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @concat_of_parts(%x: tensor<2x8x8xf32>) -> tensor<2x8x8xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x8x8xf32>
  %j = tensor.empty() : tensor<1x8x8xf32>
  %a0 = tensor.extract_slice %x[0, 0, 0] [1, 6, 8] [1, 1, 1] : tensor<2x8x8xf32> to tensor<1x6x8xf32>
  %a1 = tensor.extract_slice %x[0, 6, 0] [1, 2, 8] [1, 1, 1] : tensor<2x8x8xf32> to tensor<1x2x8xf32>
  %b0 = tensor.extract_slice %x[1, 0, 0] [1, 6, 8] [1, 1, 1] : tensor<2x8x8xf32> to tensor<1x6x8xf32>
  %b1 = tensor.extract_slice %x[1, 6, 0] [1, 2, 8] [1, 1, 1] : tensor<2x8x8xf32> to tensor<1x2x8xf32>
  %e6a = tensor.empty() : tensor<1x6x8xf32>
  %ra0 = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%a0 : tensor<1x6x8xf32>) outs(%e6a : tensor<1x6x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %cst : f32
    linalg.yield %m : f32
  } -> tensor<1x6x8xf32>
  %e2a = tensor.empty() : tensor<1x2x8xf32>
  %ra1 = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%a1 : tensor<1x2x8xf32>) outs(%e2a : tensor<1x2x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %cst : f32
    linalg.yield %m : f32
  } -> tensor<1x2x8xf32>
  %ja0 = tensor.insert_slice %ra0 into %j[0, 0, 0] [1, 6, 8] [1, 1, 1] : tensor<1x6x8xf32> into tensor<1x8x8xf32>
  %ja = tensor.insert_slice %ra1 into %ja0[0, 6, 0] [1, 2, 8] [1, 1, 1] : tensor<1x2x8xf32> into tensor<1x8x8xf32>
  %e6b = tensor.empty() : tensor<1x6x8xf32>
  %rb0 = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%b0 : tensor<1x6x8xf32>) outs(%e6b : tensor<1x6x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.minimumf %in, %cst : f32
    linalg.yield %m : f32
  } -> tensor<1x6x8xf32>
  %e2b = tensor.empty() : tensor<1x2x8xf32>
  %rb1 = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%b1 : tensor<1x2x8xf32>) outs(%e2b : tensor<1x2x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.minimumf %in, %cst : f32
    linalg.yield %m : f32
  } -> tensor<1x2x8xf32>
  %jb0 = tensor.insert_slice %rb0 into %j[0, 0, 0] [1, 6, 8] [1, 1, 1] : tensor<1x6x8xf32> into tensor<1x8x8xf32>
  %jb = tensor.insert_slice %rb1 into %jb0[0, 6, 0] [1, 2, 8] [1, 1, 1] : tensor<1x2x8xf32> into tensor<1x8x8xf32>
  %c0 = tensor.insert_slice %ja into %e[0, 0, 0] [1, 8, 8] [1, 1, 1] : tensor<1x8x8xf32> into tensor<2x8x8xf32>
  %c1 = tensor.insert_slice %jb into %c0[1, 0, 0] [1, 8, 8] [1, 1, 1] : tensor<1x8x8xf32> into tensor<2x8x8xf32>
  return %c1 : tensor<2x8x8xf32>
}

// -----

// A joined value read by anything else than the insert stays joined.
// CHECK-LABEL: func.func @joined_read_twice
// CHECK:         %[[J0:.+]] = tensor.insert_slice %{{.+}} into %{{.+}}[0, 0] [2, 8]
// CHECK:         %[[J:.+]] = tensor.insert_slice %{{.+}} into %[[J0]][2, 0] [2, 8]
// CHECK:         tensor.insert_slice %[[J]] into %{{.+}}[0, 0] [4, 8]
func.func @joined_read_twice(%a: tensor<2x8xf32>, %b: tensor<2x8xf32>, %d: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<4x8xf32>) {
  %e = tensor.empty() : tensor<4x8xf32>
  %j0 = tensor.insert_slice %a into %e[0, 0] [2, 8] [1, 1] : tensor<2x8xf32> into tensor<4x8xf32>
  %j = tensor.insert_slice %b into %j0[2, 0] [2, 8] [1, 1] : tensor<2x8xf32> into tensor<4x8xf32>
  %r = tensor.insert_slice %j into %d[0, 0] [4, 8] [1, 1] : tensor<4x8xf32> into tensor<8x8xf32>
  return %r, %j : tensor<8x8xf32>, tensor<4x8xf32>
}
