// RUN: dlc-opt %s -split-input-file --dlc-cpu-parallel-copies=min-elements=256 | FileCheck %s

// An activation copied into the interior of a padded buffer outside any
// tile loop: a forall over its rows (batch, channels, rows), each row one
// contiguous copy.
// CHECK-LABEL: func.func @into_padded_interior
// CHECK-SAME:    %[[SRC:.+]]: memref<1x4x8x16xf32>, %[[PAD:.+]]: memref<1x4x10x18xf32>
// CHECK:         %[[IN:.+]] = memref.subview %[[PAD]][0, 0, 1, 1] [1, 4, 8, 16] [1, 1, 1, 1]
// CHECK:         scf.forall (%[[N:.+]], %[[C:.+]], %[[H:.+]]) in (1, 4, 8) {
// CHECK:           %[[S:.+]] = memref.subview %[[SRC]][%[[N]], %[[C]], %[[H]], 0] [1, 1, 1, 16] [1, 1, 1, 1] : memref<1x4x8x16xf32> to memref<16xf32, strided<[1], offset: ?>>
// CHECK:           %[[D:.+]] = memref.subview %[[IN]][%[[N]], %[[C]], %[[H]], 0] [1, 1, 1, 16] [1, 1, 1, 1] : memref<1x4x8x16xf32, strided<[720, 180, 18, 1], offset: 19>> to memref<16xf32, strided<[1], offset: ?>>
// CHECK:           memref.copy %[[S]], %[[D]]
// CHECK:         }
// CHECK-NOT:     memref.copy
// CHECK:         return
func.func @into_padded_interior(%src: memref<1x4x8x16xf32>, %pad: memref<1x4x10x18xf32>) {
  %interior = memref.subview %pad[0, 0, 1, 1] [1, 4, 8, 16] [1, 1, 1, 1] : memref<1x4x10x18xf32> to memref<1x4x8x16xf32, strided<[720, 180, 18, 1], offset: 19>>
  memref.copy %src, %interior : memref<1x4x8x16xf32> to memref<1x4x8x16xf32, strided<[720, 180, 18, 1], offset: 19>>
  return
}

// -----

// Left alone: a copy below min-elements, a copy inside a tile loop (already
// split between threads), rows that are not contiguous (a transposing
// view), a shape known only at run time, rows too short to copy one by one.
// CHECK-LABEL: func.func @left_alone
// CHECK:         memref.copy %{{.+}}, %{{.+}} : memref<4x16xf32> to memref<4x16xf32>
// CHECK:         scf.forall
// CHECK:           memref.copy %{{.+}}, %{{.+}} : memref<64xf32, strided<[1], offset: ?>>
// CHECK:         }
// CHECK-NOT:     scf.forall
// CHECK:         memref.copy %{{.+}}, %{{.+}} : memref<8x64xf32, strided<[1, 8]>> to memref<8x64xf32>
// CHECK:         memref.copy %{{.+}}, %{{.+}} : memref<?x64xf32> to memref<?x64xf32>
// CHECK:         memref.copy %{{.+}}, %{{.+}} : memref<128x4xf32> to memref<128x4xf32>
func.func @left_alone(%small: memref<4x16xf32>, %small_out: memref<4x16xf32>,
                      %big: memref<8x64xf32>, %big_out: memref<8x64xf32>,
                      %t: memref<64x8xf32>, %dyn: memref<?x64xf32>, %dyn_out: memref<?x64xf32>,
                      %short: memref<128x4xf32>, %short_out: memref<128x4xf32>) {
  memref.copy %small, %small_out : memref<4x16xf32> to memref<4x16xf32>
  scf.forall (%i) in (8) {
    %s = memref.subview %big[%i, 0] [1, 64] [1, 1] : memref<8x64xf32> to memref<64xf32, strided<[1], offset: ?>>
    %d = memref.subview %big_out[%i, 0] [1, 64] [1, 1] : memref<8x64xf32> to memref<64xf32, strided<[1], offset: ?>>
    memref.copy %s, %d : memref<64xf32, strided<[1], offset: ?>> to memref<64xf32, strided<[1], offset: ?>>
  }
  %tt = memref.transpose %t (i, j) -> (j, i) : memref<64x8xf32> to memref<8x64xf32, strided<[1, 8]>>
  memref.copy %tt, %big_out : memref<8x64xf32, strided<[1, 8]>> to memref<8x64xf32>
  memref.copy %dyn, %dyn_out : memref<?x64xf32> to memref<?x64xf32>
  memref.copy %short, %short_out : memref<128x4xf32> to memref<128x4xf32>
  return
}

// -----

// The border fills of a padded buffer (top and bottom rows, left and right
// columns): one forall over the channels (the leading dimensions every
// fill covers whole), each iteration filling its channel's four borders in
// the same order.
// CHECK-LABEL: func.func @border_fills
// CHECK-SAME:    %[[PAD:.+]]: memref<1x8x10x18xf32>
// CHECK-DAG:     %[[TOP:.+]] = memref.subview %[[PAD]][0, 0, 0, 0] [1, 8, 1, 18]
// CHECK-DAG:     %[[BOT:.+]] = memref.subview %[[PAD]][0, 0, 9, 0] [1, 8, 1, 18]
// CHECK-DAG:     %[[LEFT:.+]] = memref.subview %[[PAD]][0, 0, 0, 0] [1, 8, 10, 1]
// CHECK-DAG:     %[[RIGHT:.+]] = memref.subview %[[PAD]][0, 0, 0, 17] [1, 8, 10, 1]
// CHECK:         scf.forall (%[[N:.+]], %[[C:.+]]) in (1, 8) {
// CHECK:           %[[T:.+]] = memref.subview %[[TOP]][%[[N]], %[[C]], 0, 0] [1, 1, 1, 18] [1, 1, 1, 1]
// CHECK:           linalg.fill ins(%{{.+}} : f32) outs(%[[T]] :
// CHECK:           %[[B:.+]] = memref.subview %[[BOT]][%[[N]], %[[C]], 0, 0] [1, 1, 1, 18] [1, 1, 1, 1]
// CHECK:           linalg.fill ins(%{{.+}} : f32) outs(%[[B]] :
// CHECK:           %[[L:.+]] = memref.subview %[[LEFT]][%[[N]], %[[C]], 0, 0] [1, 1, 10, 1] [1, 1, 1, 1]
// CHECK:           linalg.fill ins(%{{.+}} : f32) outs(%[[L]] :
// CHECK:           %[[R:.+]] = memref.subview %[[RIGHT]][%[[N]], %[[C]], 0, 0] [1, 1, 10, 1] [1, 1, 1, 1]
// CHECK:           linalg.fill ins(%{{.+}} : f32) outs(%[[R]] :
// CHECK:         }
// CHECK-NOT:     linalg.fill
// CHECK:         return
func.func @border_fills(%pad: memref<1x8x10x18xf32>) {
  %zero = arith.constant 0.0 : f32
  %top = memref.subview %pad[0, 0, 0, 0] [1, 8, 1, 18] [1, 1, 1, 1] : memref<1x8x10x18xf32> to memref<1x8x1x18xf32, strided<[1440, 180, 18, 1]>>
  linalg.fill ins(%zero : f32) outs(%top : memref<1x8x1x18xf32, strided<[1440, 180, 18, 1]>>)
  %bottom = memref.subview %pad[0, 0, 9, 0] [1, 8, 1, 18] [1, 1, 1, 1] : memref<1x8x10x18xf32> to memref<1x8x1x18xf32, strided<[1440, 180, 18, 1], offset: 162>>
  linalg.fill ins(%zero : f32) outs(%bottom : memref<1x8x1x18xf32, strided<[1440, 180, 18, 1], offset: 162>>)
  %left = memref.subview %pad[0, 0, 0, 0] [1, 8, 10, 1] [1, 1, 1, 1] : memref<1x8x10x18xf32> to memref<1x8x10x1xf32, strided<[1440, 180, 18, 1]>>
  linalg.fill ins(%zero : f32) outs(%left : memref<1x8x10x1xf32, strided<[1440, 180, 18, 1]>>)
  %right = memref.subview %pad[0, 0, 0, 17] [1, 8, 10, 1] [1, 1, 1, 1] : memref<1x8x10x18xf32> to memref<1x8x10x1xf32, strided<[1440, 180, 18, 1], offset: 17>>
  linalg.fill ins(%zero : f32) outs(%right : memref<1x8x10x1xf32, strided<[1440, 180, 18, 1], offset: 17>>)
  return
}

// -----

// Left alone: fills of two different buffers are two runs (each below
// min-elements here), a fill inside a tile loop, a fill of a whole buffer
// (not a view), a run whose views cover whole only the batch of one image
// (a loop of one iteration).
// CHECK-LABEL: func.func @fills_left_alone
// CHECK-NOT:     scf.forall (%{{.+}}, %{{.+}}) in (1, 2)
// CHECK:         linalg.fill {{.+}} memref<1x2x1x18xf32
// CHECK:         linalg.fill {{.+}} memref<1x2x1x18xf32
// CHECK:         scf.forall (%{{.+}}) in (4) {
// CHECK:           linalg.fill
// CHECK:         }
// CHECK:         linalg.fill {{.+}} outs(%{{.+}} : memref<1x8x10x18xf32>)
// CHECK:         linalg.fill {{.+}} memref<1x4x1x64xf32
// CHECK:         linalg.fill {{.+}} memref<1x8x1x64xf32
// CHECK-NOT:     scf.forall
// CHECK:         return
func.func @fills_left_alone(%a: memref<1x2x10x18xf32>, %b: memref<1x2x10x18xf32>,
                            %c: memref<4x64xf32>, %whole: memref<1x8x10x18xf32>,
                            %d: memref<1x8x10x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %sa = memref.subview %a[0, 0, 0, 0] [1, 2, 1, 18] [1, 1, 1, 1] : memref<1x2x10x18xf32> to memref<1x2x1x18xf32, strided<[360, 180, 18, 1]>>
  linalg.fill ins(%zero : f32) outs(%sa : memref<1x2x1x18xf32, strided<[360, 180, 18, 1]>>)
  %sb = memref.subview %b[0, 0, 0, 0] [1, 2, 1, 18] [1, 1, 1, 1] : memref<1x2x10x18xf32> to memref<1x2x1x18xf32, strided<[360, 180, 18, 1]>>
  linalg.fill ins(%zero : f32) outs(%sb : memref<1x2x1x18xf32, strided<[360, 180, 18, 1]>>)
  scf.forall (%i) in (4) {
    %row = memref.subview %c[%i, 0] [1, 64] [1, 1] : memref<4x64xf32> to memref<1x64xf32, strided<[64, 1], offset: ?>>
    linalg.fill ins(%zero : f32) outs(%row : memref<1x64xf32, strided<[64, 1], offset: ?>>)
  }
  linalg.fill ins(%zero : f32) outs(%whole : memref<1x8x10x18xf32>)
  %d1 = memref.subview %d[0, 0, 0, 0] [1, 4, 1, 64] [1, 1, 1, 1] : memref<1x8x10x64xf32> to memref<1x4x1x64xf32, strided<[5120, 640, 64, 1]>>
  linalg.fill ins(%zero : f32) outs(%d1 : memref<1x4x1x64xf32, strided<[5120, 640, 64, 1]>>)
  %d2 = memref.subview %d[0, 0, 9, 0] [1, 8, 1, 64] [1, 1, 1, 1] : memref<1x8x10x64xf32> to memref<1x8x1x64xf32, strided<[5120, 640, 64, 1], offset: 576>>
  linalg.fill ins(%zero : f32) outs(%d2 : memref<1x8x1x64xf32, strided<[5120, 640, 64, 1], offset: 576>>)
  return
}
