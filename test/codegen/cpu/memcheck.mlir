// REQUIRES: valgrind
// RUN: valgrind -q --error-exitcode=9 dlc-opt %S/tile-and-fuse.mlir -split-input-file --dlc-cpu-tile-and-fuse -o /dev/null
// RUN: valgrind -q --error-exitcode=9 dlc-opt %S/fold-loop-transposes.mlir -split-input-file --dlc-cpu-fold-loop-transposes --canonicalize -o /dev/null
// RUN: valgrind -q --error-exitcode=9 dlc-opt %S/pipeline.mlir -split-input-file --dlc-cpu-pipeline -o /dev/null

// The CPU passes under valgrind, over their lit tests' cases: any read of
// IR that a pass has already erased fails here. Two such reads were found
// this way: dlc-cpu-tile-and-fuse read a convolution's reduction order and
// unfused-inputs mark after erasing it (`dlc compile` of ResNet-50 at
// batch 8 crashed now and then, and could have read a stale order), and
// dlc-cpu-fold-loop-transposes read the permutation of a transpose it had
// erased.
