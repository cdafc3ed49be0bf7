// RUN: dlc-opt %s -split-input-file --dlc-cpu-fill-borders-once | FileCheck %s
// RUN: dlc-opt %s -split-input-file --dlc-cpu-fill-borders-once=max-state-bytes=1000 | FileCheck %s --check-prefix=SMALL

// A padded buffer (4 x 10 x 10 floats, its border slabs filled with 0 and
// marked dlc.pad_border, its interior written by a producer, read whole by
// a consumer) moves into the state (a new argument: 64 bytes of first-call
// flag, then 1600 bytes): a view at the entry, its four border fills under
// an scf.if that runs while the flag is 0 and sets it.
// CHECK-LABEL: func.func @main(
// CHECK-SAME:    %[[X:.+]]: memref<1x4x8x8xf32>, %[[Y:.+]]: memref<1x4x10x10xf32>, %[[S:.+]]: memref<1664xi8> {dlc.state})
// CHECK-SAME:    attributes {dlc.state_size = 1664 : i64}
// CHECK-NOT:     memref.alloc
// CHECK:         %[[B:.+]] = memref.view %[[S]][%{{.+}}][] : memref<1664xi8> to memref<1x4x10x10xf32>
// CHECK:         %[[FLAG:.+]] = memref.view %[[S]][%{{.+}}][] : memref<1664xi8> to memref<i32>
// CHECK:         %[[F:.+]] = memref.load %[[FLAG]][]
// CHECK:         %[[FIRST:.+]] = arith.cmpi eq, %[[F]], %{{.+}} : i32
// CHECK:         scf.if %[[FIRST]] {
// CHECK:           memref.subview %[[B]][0, 0, 0, 0] [1, 4, 1, 10]
// CHECK:           linalg.fill ins(
// CHECK-COUNT-3:   linalg.fill ins(
// CHECK:           memref.store %{{.+}}, %[[FLAG]][]
// CHECK-NEXT:    }
// CHECK-NOT:     linalg.fill
// CHECK:         %[[I:.+]] = memref.subview %[[B]][0, 0, 1, 1] [1, 4, 8, 8]
// CHECK:         memref.copy %[[X]], %[[I]]
// CHECK:         memref.copy %[[B]], %[[Y]]
// SMALL-LABEL: func.func @main(
// SMALL-SAME:    %{{.+}}: memref<1x4x8x8xf32>, %{{.+}}: memref<1x4x10x10xf32>)
// SMALL:         memref.alloc
// SMALL-COUNT-4: linalg.fill {dlc.pad_border}
func.func @main(%x: memref<1x4x8x8xf32>, %y: memref<1x4x10x10xf32>) {
  %cst = arith.constant 0.0 : f32
  %a = memref.alloc() {alignment = 64 : i64} : memref<1x4x10x10xf32>
  %s0 = memref.subview %a[0, 0, 0, 0] [1, 4, 1, 10] [1, 1, 1, 1] : memref<1x4x10x10xf32> to memref<1x4x1x10xf32, strided<[400, 100, 10, 1]>>
  linalg.fill {dlc.pad_border} ins(%cst : f32) outs(%s0 : memref<1x4x1x10xf32, strided<[400, 100, 10, 1]>>)
  %s1 = memref.subview %a[0, 0, 9, 0] [1, 4, 1, 10] [1, 1, 1, 1] : memref<1x4x10x10xf32> to memref<1x4x1x10xf32, strided<[400, 100, 10, 1], offset: 90>>
  linalg.fill {dlc.pad_border} ins(%cst : f32) outs(%s1 : memref<1x4x1x10xf32, strided<[400, 100, 10, 1], offset: 90>>)
  %s2 = memref.subview %a[0, 0, 0, 0] [1, 4, 10, 1] [1, 1, 1, 1] : memref<1x4x10x10xf32> to memref<1x4x10x1xf32, strided<[400, 100, 10, 1]>>
  linalg.fill {dlc.pad_border} ins(%cst : f32) outs(%s2 : memref<1x4x10x1xf32, strided<[400, 100, 10, 1]>>)
  %s3 = memref.subview %a[0, 0, 0, 9] [1, 4, 10, 1] [1, 1, 1, 1] : memref<1x4x10x10xf32> to memref<1x4x10x1xf32, strided<[400, 100, 10, 1], offset: 9>>
  linalg.fill {dlc.pad_border} ins(%cst : f32) outs(%s3 : memref<1x4x10x1xf32, strided<[400, 100, 10, 1], offset: 9>>)
  %in = memref.subview %a[0, 0, 1, 1] [1, 4, 8, 8] [1, 1, 1, 1] : memref<1x4x10x10xf32> to memref<1x4x8x8xf32, strided<[400, 100, 10, 1], offset: 11>>
  memref.copy %x, %in : memref<1x4x8x8xf32> to memref<1x4x8x8xf32, strided<[400, 100, 10, 1], offset: 11>>
  memref.copy %a, %y : memref<1x4x10x10xf32> to memref<1x4x10x10xf32>
  return
}

// -----

// A write through a view that reaches into the border (here row 0):
// the buffer stays in the workspace, its border filled on every call.
// CHECK-LABEL: func.func @main(
// CHECK-SAME:    %{{.+}}: memref<1x1x3x3xf32>, %{{.+}}: memref<1x1x4x4xf32>)
// CHECK-NOT:     dlc.state
// CHECK:         memref.alloc
// CHECK:         linalg.fill {dlc.pad_border}
func.func @main(%x: memref<1x1x3x3xf32>, %y: memref<1x1x4x4xf32>) {
  %cst = arith.constant 0.0 : f32
  %a = memref.alloc() : memref<1x1x4x4xf32>
  %s0 = memref.subview %a[0, 0, 0, 0] [1, 1, 1, 4] [1, 1, 1, 1] : memref<1x1x4x4xf32> to memref<1x1x1x4xf32, strided<[16, 16, 4, 1]>>
  linalg.fill {dlc.pad_border} ins(%cst : f32) outs(%s0 : memref<1x1x1x4xf32, strided<[16, 16, 4, 1]>>)
  %s1 = memref.subview %a[0, 0, 0, 0] [1, 1, 4, 1] [1, 1, 1, 1] : memref<1x1x4x4xf32> to memref<1x1x4x1xf32, strided<[16, 16, 4, 1]>>
  linalg.fill {dlc.pad_border} ins(%cst : f32) outs(%s1 : memref<1x1x4x1xf32, strided<[16, 16, 4, 1]>>)
  %in = memref.subview %a[0, 0, 0, 1] [1, 1, 3, 3] [1, 1, 1, 1] : memref<1x1x4x4xf32> to memref<1x1x3x3xf32, strided<[16, 16, 4, 1], offset: 1>>
  memref.copy %x, %in : memref<1x1x3x3xf32> to memref<1x1x3x3xf32, strided<[16, 16, 4, 1], offset: 1>>
  memref.copy %a, %y : memref<1x1x4x4xf32> to memref<1x1x4x4xf32>
  return
}

// -----

// Written whole (an op that writes the buffer itself) after its borders:
// stays.
// CHECK-LABEL: func.func @main(
// CHECK-NOT:     dlc.state
// CHECK:         memref.alloc
// CHECK:         linalg.fill {dlc.pad_border}
func.func @main(%x: memref<1x1x4x4xf32>) {
  %cst = arith.constant 0.0 : f32
  %a = memref.alloc() : memref<1x1x4x4xf32>
  %s0 = memref.subview %a[0, 0, 0, 0] [1, 1, 1, 4] [1, 1, 1, 1] : memref<1x1x4x4xf32> to memref<1x1x1x4xf32, strided<[16, 16, 4, 1]>>
  linalg.fill {dlc.pad_border} ins(%cst : f32) outs(%s0 : memref<1x1x1x4xf32, strided<[16, 16, 4, 1]>>)
  memref.copy %x, %a : memref<1x1x4x4xf32> to memref<1x1x4x4xf32>
  return
}

// -----

// Written through a view at run-time offsets (which may reach the border):
// stays.
// CHECK-LABEL: func.func @main(
// CHECK-NOT:     dlc.state
// CHECK:         memref.alloc
func.func @main(%x: memref<1x1x1x1xf32>, %i: index) {
  %cst = arith.constant 0.0 : f32
  %a = memref.alloc() : memref<1x1x4x4xf32>
  %s0 = memref.subview %a[0, 0, 0, 0] [1, 1, 1, 4] [1, 1, 1, 1] : memref<1x1x4x4xf32> to memref<1x1x1x4xf32, strided<[16, 16, 4, 1]>>
  linalg.fill {dlc.pad_border} ins(%cst : f32) outs(%s0 : memref<1x1x1x4xf32, strided<[16, 16, 4, 1]>>)
  %w = memref.subview %a[0, 0, %i, 1] [1, 1, 1, 1] [1, 1, 1, 1] : memref<1x1x4x4xf32> to memref<1x1x1x1xf32, strided<[16, 16, 4, 1], offset: ?>>
  memref.copy %x, %w : memref<1x1x1x1xf32> to memref<1x1x1x1xf32, strided<[16, 16, 4, 1], offset: ?>>
  return
}

// -----

// A border value known only at run time (ONNX Pad's constant_value input):
// filled on every call.
// CHECK-LABEL: func.func @main(
// CHECK-NOT:     dlc.state
// CHECK:         memref.alloc
func.func @main(%v: f32, %y: memref<1x1x4x4xf32>) {
  %a = memref.alloc() : memref<1x1x4x4xf32>
  %s0 = memref.subview %a[0, 0, 0, 0] [1, 1, 1, 4] [1, 1, 1, 1] : memref<1x1x4x4xf32> to memref<1x1x1x4xf32, strided<[16, 16, 4, 1]>>
  linalg.fill {dlc.pad_border} ins(%v : f32) outs(%s0 : memref<1x1x1x4xf32, strided<[16, 16, 4, 1]>>)
  memref.copy %a, %y : memref<1x1x4x4xf32> to memref<1x1x4x4xf32>
  return
}

// -----

// Only @main (the entry the runtime calls with the state) keeps state.
// CHECK-LABEL: func.func @other(
// CHECK-NOT:     dlc.state
// CHECK:         memref.alloc
func.func @other(%y: memref<1x1x4x4xf32>) {
  %cst = arith.constant 0.0 : f32
  %a = memref.alloc() : memref<1x1x4x4xf32>
  %s0 = memref.subview %a[0, 0, 0, 0] [1, 1, 1, 4] [1, 1, 1, 1] : memref<1x1x4x4xf32> to memref<1x1x1x4xf32, strided<[16, 16, 4, 1]>>
  linalg.fill {dlc.pad_border} ins(%cst : f32) outs(%s0 : memref<1x1x1x4xf32, strided<[16, 16, 4, 1]>>)
  memref.copy %a, %y : memref<1x1x4x4xf32> to memref<1x1x4x4xf32>
  return
}

// -----

// Two padded buffers, room for one: the one with more border per byte
// (3 x 3 with a border of 8, against 20 x 20 with rows 0 and 19) goes into
// the state.
// SMALL-LABEL: func.func @main(%{{.+}}: memref<20x20xf32>, %{{.+}}: memref<3x3xf32>,
// SMALL-SAME:    %{{.+}}: memref<128xi8> {dlc.state}) attributes {dlc.state_size = 128 : i64}
// SMALL:         memref.view %{{.+}} : memref<128xi8> to memref<3x3xf32>
// SMALL:         scf.if
// SMALL:           linalg.fill ins(
// SMALL:         memref.alloc() : memref<20x20xf32>
// SMALL:         linalg.fill {dlc.pad_border}
func.func @main(%y: memref<20x20xf32>, %z: memref<3x3xf32>) {
  %cst = arith.constant 0.0 : f32
  %a = memref.alloc() : memref<20x20xf32>
  %s0 = memref.subview %a[0, 0] [1, 20] [1, 1] : memref<20x20xf32> to memref<1x20xf32, strided<[20, 1]>>
  linalg.fill {dlc.pad_border} ins(%cst : f32) outs(%s0 : memref<1x20xf32, strided<[20, 1]>>)
  %s1 = memref.subview %a[19, 0] [1, 20] [1, 1] : memref<20x20xf32> to memref<1x20xf32, strided<[20, 1], offset: 380>>
  linalg.fill {dlc.pad_border} ins(%cst : f32) outs(%s1 : memref<1x20xf32, strided<[20, 1], offset: 380>>)
  %b = memref.alloc() : memref<3x3xf32>
  %t0 = memref.subview %b[0, 0] [1, 3] [1, 1] : memref<3x3xf32> to memref<1x3xf32, strided<[3, 1]>>
  linalg.fill {dlc.pad_border} ins(%cst : f32) outs(%t0 : memref<1x3xf32, strided<[3, 1]>>)
  %t1 = memref.subview %b[2, 0] [1, 3] [1, 1] : memref<3x3xf32> to memref<1x3xf32, strided<[3, 1], offset: 6>>
  linalg.fill {dlc.pad_border} ins(%cst : f32) outs(%t1 : memref<1x3xf32, strided<[3, 1], offset: 6>>)
  %t2 = memref.subview %b[1, 0] [1, 1] [1, 1] : memref<3x3xf32> to memref<1x1xf32, strided<[3, 1], offset: 3>>
  linalg.fill {dlc.pad_border} ins(%cst : f32) outs(%t2 : memref<1x1xf32, strided<[3, 1], offset: 3>>)
  %t3 = memref.subview %b[1, 2] [1, 1] [1, 1] : memref<3x3xf32> to memref<1x1xf32, strided<[3, 1], offset: 5>>
  linalg.fill {dlc.pad_border} ins(%cst : f32) outs(%t3 : memref<1x1xf32, strided<[3, 1], offset: 5>>)
  memref.copy %a, %y : memref<20x20xf32> to memref<20x20xf32>
  memref.copy %b, %z : memref<3x3xf32> to memref<3x3xf32>
  return
}
