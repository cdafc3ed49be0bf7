// RUN: dlc-opt %s -split-input-file --dlc-memory-plan | FileCheck %s
// RUN: dlc-opt %s -split-input-file --dlc-memory-plan=alignment=16 | FileCheck %s --check-prefix=A16

// Two buffers whose live ranges do not overlap (%a is dead before %b is
// allocated) share offset 0 of the workspace, which is sized for the larger.
// dlc.workspace_live_set is the most bytes alive at any one op, the lower
// bound of any plan (here the plan meets it).
// CHECK-LABEL: func.func @disjoint
// CHECK-SAME:    (%[[IN:[^:]+]]: memref<16xf32>, %[[OUT:[^:]+]]: memref<16xf32>, %[[WS:[^:]+]]: memref<64xi8> {dlc.workspace})
// CHECK-SAME:    attributes {dlc.workspace_live_set = 64 : i64, dlc.workspace_size = 64 : i64}
// CHECK-NOT:     memref.alloc
// CHECK:         %[[O1:.+]] = arith.constant 0 : index
// CHECK:         %[[A:.+]] = memref.view %[[WS]][%[[O1]]][] : memref<64xi8> to memref<16xf32>
// CHECK:         memref.copy %[[IN]], %[[A]]
// CHECK:         memref.copy %[[A]], %[[OUT]]
// CHECK:         %[[O2:.+]] = arith.constant 0 : index
// CHECK:         %[[B:.+]] = memref.view %[[WS]][%[[O2]]][] : memref<64xi8> to memref<8xf32>
// CHECK:         memref.copy %{{.+}}, %[[B]]
// CHECK-NOT:     memref.alloc
// CHECK:         return
// A16-LABEL:   func.func @disjoint
// A16-SAME:      memref<64xi8> {dlc.workspace}) attributes {dlc.workspace_live_set = 64 : i64, dlc.workspace_size = 64 : i64}
func.func @disjoint(%in: memref<16xf32>, %out: memref<16xf32>) {
  %a = memref.alloc() : memref<16xf32>
  memref.copy %in, %a : memref<16xf32> to memref<16xf32>
  memref.copy %a, %out : memref<16xf32> to memref<16xf32>
  %b = memref.alloc() : memref<8xf32>
  %s = memref.subview %out[0] [8] [1] : memref<16xf32> to memref<8xf32, strided<[1]>>
  memref.copy %s, %b : memref<8xf32, strided<[1]>> to memref<8xf32>
  memref.copy %b, %s : memref<8xf32> to memref<8xf32, strided<[1]>>
  return
}

// -----

// Overlapping live ranges (%a is used, through a subview, after %b is
// allocated) get disjoint offsets: largest first, at 64-byte alignment. The
// deallocs are dropped.
// CHECK-LABEL: func.func @overlap
// CHECK-SAME:    %[[WS:[^:]+]]: memref<128xi8> {dlc.workspace}) attributes {dlc.workspace_live_set = 128 : i64, dlc.workspace_size = 128 : i64}
// CHECK-DAG:     %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG:     %[[C64:.+]] = arith.constant 64 : index
// CHECK-DAG:     %[[A:.+]] = memref.view %[[WS]][%[[C0]]][] : memref<128xi8> to memref<16xf32>
// CHECK-DAG:     %[[B:.+]] = memref.view %[[WS]][%[[C64]]][] : memref<128xi8> to memref<8xf32>
// CHECK:         %[[S:.+]] = memref.subview %[[A]][0] [8] [1]
// CHECK:         memref.copy %[[S]], %[[B]]
// CHECK-NOT:     memref.dealloc
// CHECK-NOT:     memref.alloc
// CHECK:         return
// With 16-byte alignment, the 64-byte buffer is followed by the 32-byte one.
// A16-LABEL:   func.func @overlap
// A16-SAME:      memref<96xi8> {dlc.workspace}) attributes {dlc.workspace_live_set = 96 : i64, dlc.workspace_size = 96 : i64}
// A16:           %[[C64:.+]] = arith.constant 64 : index
// A16:           memref.view %{{.+}}[%[[C64]]][] : memref<96xi8> to memref<8xf32>
func.func @overlap(%in: memref<16xf32>, %out: memref<16xf32>) {
  %a = memref.alloc() : memref<16xf32>
  %b = memref.alloc() : memref<8xf32>
  memref.copy %in, %a : memref<16xf32> to memref<16xf32>
  %s = memref.subview %a[0] [8] [1] : memref<16xf32> to memref<8xf32, strided<[1]>>
  memref.copy %s, %b : memref<8xf32, strided<[1]>> to memref<8xf32>
  memref.copy %a, %out : memref<16xf32> to memref<16xf32>
  memref.dealloc %a : memref<16xf32>
  memref.dealloc %b : memref<8xf32>
  return
}

// -----

// First fit: a large buffer live throughout (%big) pushes both short-lived
// ones above it, where they share the same offset.
// CHECK-LABEL: func.func @first_fit
// CHECK-SAME:    memref<192xi8> {dlc.workspace}) attributes {dlc.workspace_live_set = 192 : i64, dlc.workspace_size = 192 : i64}
// CHECK-DAG:     %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG:     memref.view %{{.+}}[%[[C0]]][] : memref<192xi8> to memref<32xf32>
// CHECK-COUNT-2: memref.view %{{.+}}[%c128{{.*}}][] : memref<192xi8> to memref<16xf32>
func.func @first_fit(%in: memref<16xf32>, %out: memref<32xf32>) {
  %big = memref.alloc() : memref<32xf32>
  %a = memref.alloc() : memref<16xf32>
  memref.copy %in, %a : memref<16xf32> to memref<16xf32>
  %b = memref.alloc() : memref<16xf32>
  memref.copy %in, %b : memref<16xf32> to memref<16xf32>
  memref.copy %big, %out : memref<32xf32> to memref<32xf32>
  return
}

// -----

// A buffer allocated inside a loop is live for the whole function, and its
// view is created in the loop, where the alloc was.
// CHECK-LABEL: func.func @in_loop
// CHECK-SAME:    memref<128xi8> {dlc.workspace}) attributes {dlc.workspace_live_set = 128 : i64, dlc.workspace_size = 128 : i64}
// CHECK:         memref.view %{{.+}}[%{{.+}}][] : memref<128xi8> to memref<4xf32>
// CHECK:         scf.for
// CHECK:           %[[C64:.+]] = arith.constant 64 : index
// CHECK:           memref.view %{{.+}}[%[[C64]]][] : memref<128xi8> to memref<2xf32>
func.func @in_loop(%in: memref<4xf32>, %out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %v0 = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<4xf32>
  memref.copy %in, %a : memref<4xf32> to memref<4xf32>
  memref.copy %a, %out : memref<4xf32> to memref<4xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    %t = memref.alloc() : memref<2xf32>
    memref.store %v0, %t[%c0] : memref<2xf32>
    %v = memref.load %t[%c0] : memref<2xf32>
    memref.store %v, %out[%i] : memref<4xf32>
  }
  return
}

// -----

// Sizes are rounded up to the alignment; i1 elements take a byte each
// (100 bytes), f64 elements 8 (3x5xf64: 120 bytes). All three are live at
// once. With 64-byte alignment all are 128 bytes and keep their order; with
// 16-byte alignment the i1 buffer (112 bytes) is the smallest and goes last.
// CHECK-LABEL: func.func @sizes
// CHECK-SAME:    memref<384xi8> {dlc.workspace}) attributes {dlc.workspace_live_set = 384 : i64, dlc.workspace_size = 384 : i64}
// CHECK:         %[[C0:.+]] = arith.constant 0 : index
// CHECK:         memref.view %{{.+}}[%[[C0]]][] : memref<384xi8> to memref<100xi1>
// CHECK:         %[[C128:.+]] = arith.constant 128 : index
// CHECK:         memref.view %{{.+}}[%[[C128]]][] : memref<384xi8> to memref<3x5xf64>
// CHECK:         %[[C256:.+]] = arith.constant 256 : index
// CHECK:         memref.view %{{.+}}[%[[C256]]][] : memref<384xi8> to memref<3x5xf64>
// A16-LABEL:   func.func @sizes
// A16-SAME:      memref<368xi8> {dlc.workspace}) attributes {dlc.workspace_live_set = 368 : i64, dlc.workspace_size = 368 : i64}
// A16:           %[[C256:.+]] = arith.constant 256 : index
// A16:           memref.view %{{.+}}[%[[C256]]][] : memref<368xi8> to memref<100xi1>
// A16:           %[[C0:.+]] = arith.constant 0 : index
// A16:           memref.view %{{.+}}[%[[C0]]][] : memref<368xi8> to memref<3x5xf64>
// A16:           %[[C128:.+]] = arith.constant 128 : index
// A16:           memref.view %{{.+}}[%[[C128]]][] : memref<368xi8> to memref<3x5xf64>
func.func @sizes(%out: memref<100xi1>, %out2: memref<3x5xf64>) {
  %a = memref.alloc() : memref<100xi1>
  %b = memref.alloc() : memref<3x5xf64>
  %c = memref.alloc() : memref<3x5xf64>
  memref.copy %a, %out : memref<100xi1> to memref<100xi1>
  memref.copy %b, %c : memref<3x5xf64> to memref<3x5xf64>
  memref.copy %c, %out2 : memref<3x5xf64> to memref<3x5xf64>
  return
}

// -----

// A function without buffers still gets a (minimal) workspace argument, so
// that every generated entry point has the same calling convention; nothing
// is alive in it (live set 0).
// CHECK-LABEL: func.func @no_buffers
// CHECK-SAME:    (%{{.+}}: memref<4xf32>, %{{.+}}: memref<64xi8> {dlc.workspace}) attributes {dlc.workspace_live_set = 0 : i64, dlc.workspace_size = 64 : i64}
// A16-LABEL:   func.func @no_buffers
// A16-SAME:      memref<16xi8> {dlc.workspace}) attributes {dlc.workspace_live_set = 0 : i64, dlc.workspace_size = 16 : i64}
func.func @no_buffers(%in: memref<4xf32>) {
  return
}

// -----

// External declarations are left alone.
// CHECK-LABEL: func.func private @external(memref<4xf32>)
// CHECK-NOT:     dlc.workspace
func.func private @external(memref<4xf32>)

// -----

// Scratch allocated inside a parallel tile loop is private to the thread
// running the tile: a 64-byte aligned stack buffer, not a shared workspace
// slot (the workspace stays at its minimum).
// CHECK-LABEL: func.func @tile_scratch
// CHECK-SAME:    attributes {dlc.workspace_live_set = 0 : i64, dlc.workspace_size = 64 : i64}
// CHECK:         scf.forall
// CHECK:           memref.alloca() {alignment = 64 : i64} : memref<16xf32>
// CHECK-NOT:       memref.view
func.func @tile_scratch(%out: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f32
  scf.forall (%i) = (0) to (64) step (16) {
    %s = memref.alloc() : memref<16xf32>
    memref.store %one, %s[%c0] : memref<16xf32>
    %v = memref.load %s[%c0] : memref<16xf32>
    memref.store %v, %out[%i] : memref<64xf32>
  }
  return
}

// -----

// Buffers at run-time sizes (the leading %n elements of flat buffers of 64,
// as dlc-bound-dynamic-tensors makes them) take only the bytes of the
// run's size: the plan at the bounds puts %b above %a (256 bytes each), and
// at run time %b starts right above the bytes %a uses, %n floats rounded up
// to the alignment; the workspace keeps the bounds' size.
// CHECK-LABEL: func.func @run_time_sizes
// CHECK-SAME:    %[[WS:[^:]+]]: memref<512xi8> {dlc.workspace}
// CHECK-SAME:    dlc.workspace_size = 512
// CHECK:         %[[N:.+]] = arith.minsi %{{.+}}, %c64
// CHECK:         %[[BYTES:.+]] = arith.muli %[[N]], %c4
// CHECK:         %[[UNITS:.+]] = arith.ceildivui %[[BYTES]], %c64
// CHECK:         %[[SIZE:.+]] = arith.muli %[[UNITS]], %c64
// CHECK:         %[[END:.+]] = arith.addi %{{.+}}, %[[SIZE]]
// CHECK:         %[[OFF:.+]] = arith.maxui %{{.+}}, %[[END]]
// CHECK:         memref.view %[[WS]][%{{.+}}][] : memref<512xi8> to memref<64xf32>
// CHECK:         memref.view %[[WS]][%[[OFF]]][] : memref<512xi8> to memref<64xf32>
func.func @run_time_sizes(%n: index, %out: memref<64xf32>) {
  %a = memref.alloc() {alignment = 64 : i64} : memref<64xf32>
  %av = memref.subview %a[0] [%n] [1] : memref<64xf32> to memref<?xf32, strided<[1]>>
  %b = memref.alloc() {alignment = 64 : i64} : memref<64xf32>
  %bv = memref.subview %b[0] [%n] [1] : memref<64xf32> to memref<?xf32, strided<[1]>>
  memref.copy %av, %bv : memref<?xf32, strided<[1]>> to memref<?xf32, strided<[1]>>
  %ov = memref.subview %out[0] [%n] [1] : memref<64xf32> to memref<?xf32, strided<[1]>>
  memref.copy %bv, %ov : memref<?xf32, strided<[1]>> to memref<?xf32, strided<[1]>>
  memref.copy %av, %ov : memref<?xf32, strided<[1]>> to memref<?xf32, strided<[1]>>
  return
}

// -----

// Run-time checks: numbered in order, each stores its number into a word
// after the buffers (offset 64: one 64-byte buffer) when it fails and the
// word is still 0 (the first failure is kept); the function records the
// offset and the messages.
// CHECK-LABEL: func.func @checks
// CHECK-SAME:    %[[WS:[a-z0-9]+]]: memref<72xi8> {dlc.workspace}
// CHECK-SAME:    dlc.check_offset = 64 : i64
// CHECK-SAME:    dlc.checks = ["first", "second"]
// CHECK:         scf.if %{{.+}} {
// CHECK-NEXT:      %[[OFF:.+]] = arith.constant 64 : index
// CHECK-NEXT:      %[[W:.+]] = memref.view %[[WS]][%[[OFF]]][] : memref<72xi8> to memref<i32>
// CHECK-NEXT:      %[[OLD:.+]] = memref.load %[[W]][] : memref<i32>
// CHECK-NEXT:      %[[ZERO:.+]] = arith.constant 0 : i32
// CHECK-NEXT:      %[[FIRST:.+]] = arith.cmpi eq, %[[OLD]], %[[ZERO]] : i32
// CHECK-NEXT:      %[[ONE:.+]] = arith.constant 1 : i32
// CHECK-NEXT:      %[[NUM:.+]] = arith.select %[[FIRST]], %[[ONE]], %[[OLD]] : i32
// CHECK-NEXT:      memref.store %[[NUM]], %[[W]][] : memref<i32>
// CHECK:         scf.if %{{.+}} {
// CHECK:           arith.constant 2 : i32
// CHECK-NOT:     dlc.report
// A16-LABEL: func.func @checks
// A16-SAME:    memref<24xi8> {dlc.workspace}
// A16-SAME:    dlc.check_offset = 16 : i64
func.func @checks(%a: i1, %b: i1, %out: memref<4xf32>) {
  %buf = memref.alloc() : memref<4xf32>
  memref.copy %out, %buf : memref<4xf32> to memref<4xf32>
  dlc.report %a, "first"
  memref.copy %buf, %out : memref<4xf32> to memref<4xf32>
  dlc.report %b, "second"
  return
}

// -----

// The clock stamps of dlc-cpu-profile-kernels go after the buffers (and
// the checks' word), their offset recorded.
// CHECK-LABEL: func.func @profiled
// CHECK-SAME:    dlc.profile_offset = 64 : i64
// CHECK-SAME:    dlc.workspace_size = 88 : i64
// CHECK:         %[[C64:.*]] = arith.constant 64 : index
// CHECK:         memref.view %{{.*}}[%[[C64]]][] : memref<88xi8> to memref<3xi64>
func.func @profiled(%x: memref<16xf32>) {
  %p = memref.alloc() {dlc.profile} : memref<3xi64>
  %t = memref.alloc() : memref<16xf32>
  memref.copy %x, %t : memref<16xf32> to memref<16xf32>
  memref.copy %t, %x : memref<16xf32> to memref<16xf32>
  %c0 = arith.constant 0 : index
  %n = arith.constant 7 : i64
  memref.store %n, %p[%c0] : memref<3xi64>
  return
}

// -----

// A CUDA model's host buffers (dlc-gpu-outline-host-parts marks them
// `dlc.host`) are planned in a host workspace of their own, an argument
// after the device workspace; host part functions are not planned.
func.func private @main_host_part0(%a: memref<16xf32>, %b: memref<16xf32>) attributes {dlc.host_part} {
  return
}
func.func @host_buffers(%in: memref<16xf32>, %out: memref<16xf32>) {
  %d = memref.alloc() : memref<16xf32>
  %h0 = memref.alloc() {dlc.host} : memref<16xf32>
  %h1 = memref.alloc() {dlc.host} : memref<16xf32>
  memref.copy %in, %d : memref<16xf32> to memref<16xf32>
  dlc.transfer %d to cpu, %h0 : memref<16xf32>
  call @main_host_part0(%h0, %h1) : (memref<16xf32>, memref<16xf32>) -> ()
  dlc.transfer %h1 to gpu, %out : memref<16xf32>
  return
}
// CHECK-LABEL: func.func private @main_host_part0
// CHECK-SAME: (%{{.*}}: memref<16xf32>, %{{.*}}: memref<16xf32>) attributes {dlc.host_part}
// CHECK-LABEL: func.func @host_buffers
// CHECK-SAME: %[[WS:[a-z0-9]+]]: memref<64xi8> {dlc.workspace}, %[[HWS:[a-z0-9]+]]: memref<128xi8> {dlc.host_workspace}
// CHECK-SAME: dlc.host_workspace_size = 128 : i64
// CHECK-SAME: dlc.workspace_size = 64 : i64
// CHECK-DAG: memref.view %[[WS]][%{{.*}}][] : memref<64xi8> to memref<16xf32>
// CHECK-DAG: memref.view %[[HWS]][%c0{{.*}}][] : memref<128xi8> to memref<16xf32>
// CHECK-DAG: memref.view %[[HWS]][%c64{{.*}}][] : memref<128xi8> to memref<16xf32>
