// RUN: dlc-opt %s -split-input-file -dlc-report-kernel-costs -mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s

// A matmul with its fill and a ReLU epilogue: one kernel. 4x16 outputs of 8
// multiply-adds (1024 FLOPs) and 64 maximums; reads A (128 bytes) and B
// (512), writes the ReLU's result (256).
// CHECK: remark: {{.*}}: kernel 0: contraction, 3 op(s), 1088 FLOPs, 512 multiply-adds, 640 bytes read, 0 bytes of weights, 256 bytes written, parallelism 64, nodes: fill mm relu
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @matmul_relu(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32> loc("fill")
  %m = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%f : tensor<4x16xf32>) -> tensor<4x16xf32> loc("mm")
  %e2 = tensor.empty() : tensor<4x16xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%m : tensor<4x16xf32>) outs(%e2 : tensor<4x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = arith.maximumf %x, %zero : f32
    linalg.yield %y : f32
  } -> tensor<4x16xf32> loc("relu")
  return %r : tensor<4x16xf32>
}

// -----

// Elementwise alone: 6 additions; two inputs of 24 bytes read, one written.
// The weights are a non-splat constant; a splat is no memory.
// CHECK: remark: {{.*}}: kernel 0: elementwise, 1 op(s), 6 FLOPs, 0 multiply-adds, 24 bytes read, 24 bytes of weights, 24 bytes written, parallelism 6, nodes: add
// CHECK: remark: {{.*}}: kernel 1: elementwise, 1 op(s), 6 FLOPs, 0 multiply-adds, 24 bytes read, 0 bytes of weights, 24 bytes written, parallelism 6, nodes: mul
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @elementwise(%a: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %w = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %s = arith.constant dense<2.0> : tensor<2x3xf32>
  %e = tensor.empty() : tensor<2x3xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %w : tensor<2x3xf32>, tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %z = arith.addf %x, %y : f32
    linalg.yield %z : f32
  } -> tensor<2x3xf32> loc("add")
  %q = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %s : tensor<2x3xf32>, tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %z = arith.mulf %x, %y : f32
    linalg.yield %z : f32
  } -> tensor<2x3xf32> loc("mul")
  return %r, %q : tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// A sum to a scalar: 32 additions, no parallel loop (one GPU thread).
// CHECK: remark: {{.*}}: kernel 0: reduction, 2 op(s), 32 FLOPs, 0 multiply-adds, 128 bytes read, 0 bytes of weights, 4 bytes written, parallelism 1, nodes: init sum
func.func @sum(%a: tensor<4x8xf32>) -> tensor<f32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<f32>) -> tensor<f32> loc("init")
  %r = linalg.reduce ins(%a : tensor<4x8xf32>) outs(%f : tensor<f32>) dimensions = [0, 1]
    (%x: f32, %acc: f32) {
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    } loc("sum")
  return %r : tensor<f32>
}

// -----

// A convolution: 4x4x4 outputs of 3x3x2 taps.
// CHECK: remark: {{.*}}: kernel 0: convolution, 2 op(s), 2304 FLOPs, 1152 multiply-adds, 576 bytes read, 0 bytes of weights, 256 bytes written, parallelism 64, nodes: conv
func.func @conv(%x: tensor<1x6x6x2xf32>, %w: tensor<3x3x2x4xf32>) -> tensor<1x4x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32> loc("conv")
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x6x6x2xf32>, tensor<3x3x2x4xf32>) outs(%f : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32> loc("conv")
  return %c : tensor<1x4x4x4xf32>
}

// -----

// Sizes known at run time only: the count is unknown, not 0.
// CHECK: remark: {{.*}}: kernel 0: elementwise, 1 op(s), FLOPs unknown ('linalg.generic' has sizes known at run time only), bytes unknown (a tensor's sizes are known at run time only), parallelism 1, nodes: exp
#id1 = affine_map<(d0) -> (d0)>
func.func @dynamic(%a: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %a, %c0 : tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?xf32>
  %r = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%a : tensor<?xf32>) outs(%e : tensor<?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %y = math.exp %x : f32
    linalg.yield %y : f32
  } -> tensor<?xf32> loc("exp")
  return %r : tensor<?xf32>
}

// -----

// A kernel in a loop of 3 trips runs 3 times per run.
// CHECK: remark: {{.*}}: kernel 0: elementwise, 1 op(s), 24 FLOPs, 0 multiply-adds, 96 bytes read, 0 bytes of weights, 96 bytes written, parallelism 8, 3 trips, nodes: step
#id1 = affine_map<(d0) -> (d0)>
func.func @loop(%a: tensor<8xf32>) -> tensor<8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%h = %a) -> tensor<8xf32> {
    %e = tensor.empty() : tensor<8xf32>
    %n = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
        ins(%h : tensor<8xf32>) outs(%e : tensor<8xf32>) {
    ^bb0(%x: f32, %o: f32):
      %y = math.tanh %x : f32
      linalg.yield %y : f32
    } -> tensor<8xf32> loc("step")
    scf.yield %n : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}
