#!/usr/bin/env node
// Runs an ONNX model with onnxruntime-node (CPU) on tensors stored as raw files.
//
//   node ort_run.js MODEL IN_DIR OUT_DIR [--threads N]
//   node ort_run.js MODEL IN_DIR [OUT_DIR] --bench N [--threads N]
//   node ort_run.js --jobs FILE
//
// Tensor directory format (used for IN_DIR and OUT_DIR):
//   meta.json      {"tensors": [{"name": "image", "dtype": "float32", "shape": [1, 1, 8, 8],
//                                "file": "input_0.bin"}, ...]}
//   input_K.bin    raw little-endian, row-major data of tensor K (output_K.bin in OUT_DIR)
// dtype is one of the keys of TYPED_ARRAYS below (numpy names); bool is one byte per element.
// Inputs are fed by name; outputs are written in the model's graph-output order.
//
// --bench N runs the model to warm up (at least 200 ms), then N times, and prints one JSON line:
//   {"model": ..., "threads": T, "runs": N, "median_ms": ..., "min_ms": ..., "mean_ms": ...}
// --jobs FILE runs many models in one process: FILE holds one JSON object per
// line, {"model": ..., "in": IN_DIR, "out": OUT_DIR}; a model that ONNX Runtime
// refuses or fails on gets OUT_DIR/error.txt with the message instead of outputs.
// Find onnxruntime-node through NODE_PATH=DIR/node_modules (see ensure-ort.sh).
'use strict';
const fs = require('fs');
const path = require('path');
const ort = require('onnxruntime-node');

const TYPED_ARRAYS = {
  float32: Float32Array, float64: Float64Array, float16: Uint16Array,
  int8: Int8Array, uint8: Uint8Array, int16: Int16Array, uint16: Uint16Array,
  int32: Int32Array, uint32: Uint32Array, int64: BigInt64Array, uint64: BigUint64Array,
  bool: Uint8Array,
};

function usage() {
  console.error('usage: ort_run.js MODEL IN_DIR OUT_DIR [--threads N] [--bench N]');
  process.exit(2);
}

function parseArgs(argv) {
  const opts = { positional: [], threads: 0, bench: 0 };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (flag === '--threads' || flag === '--bench') {
      const n = Number(argv[++i]);
      if (!Number.isInteger(n) || n < 0) usage();
      opts[flag.slice(2)] = n;
    } else if (flag.startsWith('--')) {
      usage();
    } else {
      opts.positional.push(flag);
    }
  }
  const n = opts.positional.length;
  if (n < 2 || n > 3 || (n === 2 && !opts.bench)) usage();
  [opts.model, opts.inDir, opts.outDir] = opts.positional;
  return opts;
}

function readTensors(dir) {
  const meta = JSON.parse(fs.readFileSync(path.join(dir, 'meta.json'), 'utf8'));
  const feeds = {};
  for (const t of meta.tensors) {
    const Ctor = TYPED_ARRAYS[t.dtype];
    if (!Ctor) throw new Error(`${t.name}: unsupported dtype ${t.dtype}`);
    // Copy into a fresh, aligned ArrayBuffer (Buffers from readFileSync may be pooled).
    const bytes = new Uint8Array(fs.readFileSync(path.join(dir, t.file)));
    const count = t.shape.reduce((a, b) => a * b, 1);
    if (bytes.byteLength !== count * Ctor.BYTES_PER_ELEMENT) {
      throw new Error(`${t.name}: ${t.file} has ${bytes.byteLength} bytes, expected ` +
                      `${count * Ctor.BYTES_PER_ELEMENT} for ${t.dtype}[${t.shape}]`);
    }
    feeds[t.name] = new ort.Tensor(t.dtype, new Ctor(bytes.buffer), t.shape);
  }
  return feeds;
}

function writeTensors(dir, names, results) {
  fs.mkdirSync(dir, { recursive: true });
  const tensors = names.map((name, k) => {
    const t = results[name];
    const file = `output_${k}.bin`;
    const data = t.data;
    fs.writeFileSync(path.join(dir, file), Buffer.from(data.buffer, data.byteOffset, data.byteLength));
    return { name, dtype: t.type, shape: Array.from(t.dims), file };
  });
  fs.writeFileSync(path.join(dir, 'meta.json'), JSON.stringify({ tensors }, null, 1) + '\n');
}

async function runJobs(file) {
  const sessionOptions = { executionProviders: ['cpu'], logSeverityLevel: 4 };
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const job = JSON.parse(line);
    try {
      const session = await ort.InferenceSession.create(job.model, sessionOptions);
      const results = await session.run(readTensors(job.in));
      writeTensors(job.out, session.outputNames, results);
    } catch (err) {
      fs.mkdirSync(job.out, { recursive: true });
      fs.writeFileSync(path.join(job.out, 'error.txt'), `${err && err.message ? err.message : err}\n`);
    }
  }
}

async function main() {
  if (process.argv[2] === '--jobs') {
    if (process.argv.length !== 4) usage();
    return runJobs(process.argv[3]);
  }
  const opts = parseArgs(process.argv.slice(2));
  const sessionOptions = { executionProviders: ['cpu'], logSeverityLevel: 3 };  // errors only
  if (opts.threads) sessionOptions.intraOpNumThreads = opts.threads;
  const session = await ort.InferenceSession.create(opts.model, sessionOptions);
  const feeds = readTensors(opts.inDir);

  let results = await session.run(feeds);
  if (opts.bench) {
    // Warm-up runs for at least 200 ms, as benchmarks/micro/run_library.c
    // does for dlc (new threads take a few milliseconds to settle).
    const warm = process.hrtime.bigint();
    while (Number(process.hrtime.bigint() - warm) / 1e6 < 200) results = await session.run(feeds);
    const times = [];
    for (let i = 0; i < opts.bench; i++) {
      const start = process.hrtime.bigint();
      results = await session.run(feeds);
      times.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
    times.sort((a, b) => a - b);
    const mid = times.length >> 1;
    const median = times.length % 2 ? times[mid] : (times[mid - 1] + times[mid]) / 2;
    console.log(JSON.stringify({
      model: opts.model, threads: opts.threads, runs: opts.bench,
      median_ms: median, min_ms: times[0],
      mean_ms: times.reduce((a, b) => a + b, 0) / times.length,
    }));
  }
  if (opts.outDir) writeTensors(opts.outDir, session.outputNames, results);
}

main().catch((err) => {
  console.error(`ort_run.js: ${err && err.message ? err.message : err}`);
  process.exit(1);
});
