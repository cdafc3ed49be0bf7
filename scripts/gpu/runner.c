/*===- runner.c - run dlc CUDA libraries on a GPU machine ----------------===*
 *
 * Part of scripts/gpu-check.sh; runs on the machine with the GPU, which has
 * no dlc. Each model is a shared library built with
 * `dlc compile --target cuda --shared --name model` (CPU libraries, built
 * without --target, run too: test/e2e/ort/compare_with_ort.py --batches).
 *
 *   runner MANIFEST [--device-io] [--no-graphs] [--prepare] [--async]
 *
 * MANIFEST lines:
 *   model NAME LIB.so      start a model
 *   input FILE             raw bytes of the next input (as many as it needs)
 *   output FILE            where the next output's raw bytes go
 *   threads N              dlc_options.num_threads (CPU libraries)
 *   batch N                the batch size for a model with a dynamic batch
 *                          (DLC_DIM_DYNAMIC in its shapes; default 1)
 *   shape I D0,D1,...      input I's shape, for a model with symbolic
 *                          dimensions (its outputs are then given their
 *                          bounds, and written at the bounds' size: the
 *                          run's elements first)
 *   run WARMUP ITERATIONS  create, run, write the outputs, destroy
 *
 * Each output file holds the elements the run produced, at the shape
 * model_output_run_shape gives (data-dependent sizes at their actual
 * values), densely packed.
 *
 * Prints one line per model: "NAME ok MEDIAN_MS MIN_MS" or "NAME error MSG".
 * With --device-io the tensors live in device memory allocated here (the
 * runtime's cuda_device_pointers mode), so timings exclude host transfers.
 * With --prepare, each timed run first prepares its inputs on the host (a
 * normalization pass, (x - 0.5) * 2 + ..., over copies of the input
 * files' values written into the input buffers: the work a server does
 * for the next batch); with --async too, the run is model_run_async, the
 * next inputs are prepared while the GPU runs, then model_wait: the time
 * per run shows how much of the host's work the GPU hides.
 *
 *===----------------------------------------------------------------------===*/
#include "dlc_runtime.h"

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef dlc_status *(*create_fn)(const dlc_options *, void **);
typedef dlc_status *(*run_fn)(void *, const dlc_tensor *, size_t,
                              const dlc_tensor *, size_t);
typedef dlc_status *(*wait_fn)(void *);
typedef void (*destroy_fn)(void *);
typedef size_t (*count_fn)(void);
typedef dlc_dtype (*dtype_fn)(size_t);
typedef int32_t (*rank_fn)(size_t);
typedef const int64_t *(*shape_fn)(size_t);
typedef size_t (*size_fn)(size_t);

/* Driver calls for --device-io (the model's runtime loads its own copy). */
typedef int (*cu_init_fn)(unsigned);
typedef int (*cu_dev_get_fn)(int *, int);
typedef int (*cu_retain_fn)(void **, int);
typedef int (*cu_set_fn)(void *);
typedef int (*cu_alloc_fn)(unsigned long long *, size_t);
typedef int (*cu_free_fn)(unsigned long long);
typedef int (*cu_htod_fn)(unsigned long long, const void *, size_t);
typedef int (*cu_dtoh_fn)(void *, unsigned long long, size_t);
static struct {
  cu_alloc_fn alloc;
  cu_free_fn free;
  cu_htod_fn htod;
  cu_dtoh_fn dtoh;
} cu;

static int init_device_io(void) {
  const char *path = getenv("DLC_CUDA_DRIVER"); /* as the dlc runtime */
  void *lib = dlopen(path && *path ? path : "libcuda.so.1", RTLD_NOW);
  if (!lib)
    return -1;
  cu_init_fn init = (cu_init_fn)dlsym(lib, "cuInit");
  cu_dev_get_fn get = (cu_dev_get_fn)dlsym(lib, "cuDeviceGet");
  cu_retain_fn retain = (cu_retain_fn)dlsym(lib, "cuDevicePrimaryCtxRetain");
  cu_set_fn set = (cu_set_fn)dlsym(lib, "cuCtxSetCurrent");
  cu.alloc = (cu_alloc_fn)dlsym(lib, "cuMemAlloc_v2");
  cu.free = (cu_free_fn)dlsym(lib, "cuMemFree_v2");
  cu.htod = (cu_htod_fn)dlsym(lib, "cuMemcpyHtoD_v2");
  cu.dtoh = (cu_dtoh_fn)dlsym(lib, "cuMemcpyDtoH_v2");
  int dev = 0;
  void *ctx = NULL;
  if (!init || !get || !retain || !set || !cu.alloc || init(0) || get(&dev, 0) ||
      retain(&ctx, dev) || set(ctx))
    return -1;
  return 0;
}

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

#define MAX_IO 64
typedef struct {
  char name[1024], lib[1024];
  char inputs[MAX_IO][1024], outputs[MAX_IO][1024];
  int num_inputs, num_outputs;
  long batch;
  unsigned threads;
  int symbolic; /* a `shape` line was given */
  int has_shape[MAX_IO];
  int64_t shapes[MAX_IO][16];
} model_spec;

#define MAX_RANK 16
/* `shape` (rank dims) with the dynamic batch set to `batch` into `out`;
 * returns how many samples the tensor holds (1 unless batched). */
static size_t at_batch(const int64_t *shape, int32_t rank, long batch,
                       int64_t *out) {
  size_t samples = 1;
  for (int32_t d = 0; d < rank && d < MAX_RANK; ++d) {
    out[d] = shape[d] == DLC_DIM_DYNAMIC ? batch : shape[d];
    if (shape[d] == DLC_DIM_DYNAMIC)
      samples = (size_t)batch;
  }
  return samples;
}

/* --prepare: writes the next batch's inputs into `dst` from the files'
 * values `src` (floats: a normalization pass that gives them back
 * unchanged, as a server's preprocessing would cost; other types: a copy). */
static void prepare_inputs(void **dst, void *const *src, const size_t *bytes,
                           const dlc_dtype *dtypes, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    if (dtypes[i] != DLC_DTYPE_F32) {
      memcpy(dst[i], src[i], bytes[i]);
      continue;
    }
    const float *from = src[i];
    float *to = dst[i];
    for (size_t e = 0; e < bytes[i] / sizeof(float); ++e)
      to[e] = ((from[e] - 0.5f) * 2.0f) * 0.5f + 0.5f;
  }
}

static void run_model(const model_spec *m, int warmup, int iterations,
                      int device_io, int no_graphs, int prepare, int async) {
  void *lib = dlopen(m->lib, RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    printf("%s error cannot load %s: %s\n", m->name, m->lib, dlerror());
    return;
  }
#define SYM(type, var, name) type var = (type)dlsym(lib, name)
  SYM(create_fn, create, "model_create");
  SYM(run_fn, run, "model_run");
  SYM(run_fn, run_async, "model_run_async");
  SYM(wait_fn, wait, "model_wait");
  SYM(destroy_fn, destroy, "model_destroy");
  SYM(count_fn, num_inputs, "model_num_inputs");
  SYM(count_fn, num_outputs, "model_num_outputs");
  SYM(dtype_fn, in_dtype, "model_input_dtype");
  SYM(rank_fn, in_rank, "model_input_rank");
  SYM(shape_fn, in_shape, "model_input_shape");
  SYM(size_fn, in_size, "model_input_size_bytes");
  SYM(dtype_fn, out_dtype, "model_output_dtype");
  SYM(rank_fn, out_rank, "model_output_rank");
  SYM(shape_fn, out_shape, "model_output_shape");
  SYM(size_fn, out_size, "model_output_size_bytes");
  SYM(shape_fn, out_max_shape, "model_output_max_shape");
  typedef const int64_t *(*run_shape_fn)(const void *, size_t);
  SYM(run_shape_fn, out_run_shape, "model_output_run_shape");
  typedef size_t (*dtype_size_fn)(dlc_dtype);
  SYM(dtype_size_fn, dtype_size, "dlc_dtype_size");
  /* The runtime is inside each library (RTLD_LOCAL): use its copy. */
  typedef const char *(*message_fn)(const dlc_status *);
  typedef void (*free_fn)(dlc_status *);
  SYM(message_fn, status_message, "dlc_status_message");
  SYM(free_fn, status_free, "dlc_status_free");
  if (!create || !run || !destroy || !num_inputs || !out_size ||
      !status_message || !status_free) {
    printf("%s error %s lacks the model_* API\n", m->name, m->lib);
    return;
  }
  size_t ni = num_inputs(), no = num_outputs();
  if ((int)ni != m->num_inputs || (int)no != m->num_outputs || ni > MAX_IO ||
      no > MAX_IO) {
    printf("%s error manifest has %d inputs/%d outputs, model %zu/%zu\n",
           m->name, m->num_inputs, m->num_outputs, ni, no);
    return;
  }
  dlc_tensor in[MAX_IO], out[MAX_IO];
  static int64_t in_dims[MAX_IO][MAX_RANK], out_dims[MAX_IO][MAX_RANK];
  void *host_in[MAX_IO] = {0}, *host_out[MAX_IO] = {0};
  unsigned long long dev_in[MAX_IO] = {0}, dev_out[MAX_IO] = {0};
  if (m->symbolic && (!out_max_shape || !dtype_size)) {
    printf("%s error %s lacks model_output_max_shape\n", m->name, m->lib);
    return;
  }
  for (size_t i = 0; i < ni; ++i) {
    size_t bytes;
    if (m->has_shape[i]) {
      /* A symbolic input at the shape given. */
      bytes = dtype_size(in_dtype(i));
      for (int32_t d = 0; d < in_rank(i) && d < MAX_RANK; ++d) {
        in_dims[i][d] = m->shapes[i][d];
        bytes *= (size_t)m->shapes[i][d];
      }
    } else {
      bytes =
          in_size(i) * at_batch(in_shape(i), in_rank(i), m->batch, in_dims[i]);
    }
    host_in[i] = calloc(1, bytes ? bytes : 1);
    FILE *f = fopen(m->inputs[i], "rb");
    size_t got = f ? fread(host_in[i], 1, bytes, f) : 0;
    if (f)
      fclose(f);
    if (got != bytes) {
      printf("%s error input %zu: %s has %zu of %zu bytes\n", m->name, i,
             m->inputs[i], got, bytes);
      return;
    }
    in[i] = (dlc_tensor){host_in[i], bytes, in_dtype(i), in_rank(i),
                         in_dims[i]};
    if (device_io) {
      cu.alloc(&dev_in[i], bytes ? bytes : 1);
      cu.htod(dev_in[i], host_in[i], bytes);
      in[i].data = (void *)(uintptr_t)dev_in[i];
    }
  }
  for (size_t i = 0; i < no; ++i) {
    size_t bytes = out_size(i) * at_batch(out_shape(i), out_rank(i), m->batch,
                                          out_dims[i]);
    if (m->symbolic) {
      /* Dynamic outputs at their bounds (size_bytes is the bounds' size). */
      bytes = out_size(i);
      for (int32_t d = 0; d < out_rank(i) && d < MAX_RANK; ++d)
        out_dims[i][d] = out_max_shape(i)[d];
    }
    host_out[i] = calloc(1, bytes ? bytes : 1);
    out[i] = (dlc_tensor){host_out[i], bytes, out_dtype(i), out_rank(i),
                          out_dims[i]};
    if (device_io) {
      cu.alloc(&dev_out[i], bytes ? bytes : 1);
      out[i].data = (void *)(uintptr_t)dev_out[i];
    }
  }
  dlc_options options;
  memset(&options, 0, sizeof options); /* = dlc_options_init */
  options.cuda_device_pointers = device_io;
  options.num_threads = m->threads;
  options.cuda_graphs = no_graphs ? DLC_CUDA_GRAPHS_OFF : DLC_CUDA_GRAPHS_AUTO;
  void *model = NULL;
  double created = now_ms();
  dlc_status *s = create(&options, &model);
  created = now_ms() - created;
  double *times = calloc((size_t)iterations + 1, sizeof(double));
  /* --prepare: the files' values, written back into the inputs each run. */
  void *source[MAX_IO] = {0};
  size_t in_bytes[MAX_IO];
  dlc_dtype in_types[MAX_IO];
  for (size_t i = 0; prepare && i < ni; ++i) {
    in_bytes[i] = in[i].size_bytes;
    in_types[i] = in[i].dtype;
    source[i] = malloc(in_bytes[i] ? in_bytes[i] : 1);
    if (source[i])
      memcpy(source[i], host_in[i], in_bytes[i]);
  }
  if (async && (!run_async || !wait)) {
    printf("%s note %s lacks model_run_async: runs synchronously\n", m->name,
           m->lib);
    async = 0;
  }
  for (int it = 0; !s && it < warmup + iterations; ++it) {
    double t0 = now_ms();
    if (async) {
      s = run_async(model, in, ni, out, no);
      if (!s)
        prepare_inputs((void **)host_in, source, in_bytes, in_types, ni);
      dlc_status *w = wait(model);
      if (!s)
        s = w;
      else if (w)
        status_free(w);
    } else {
      if (prepare)
        prepare_inputs((void **)host_in, source, in_bytes, in_types, ni);
      s = run(model, in, ni, out, no);
    }
    if (it >= warmup)
      times[it - warmup] = now_ms() - t0;
  }
  for (size_t i = 0; i < ni; ++i)
    free(source[i]);
  if (s) {
    printf("%s error %s\n", m->name, status_message(s));
    status_free(s);
  } else {
    qsort(times, (size_t)iterations, sizeof(double), cmp_double);
    for (size_t i = 0; i < no; ++i) {
      if (device_io)
        cu.dtoh(host_out[i], dev_out[i], out[i].size_bytes);
      /* The run's elements only: a data-dependent or symbolic output
       * fills the start of its buffer (sized at the bounds). */
      size_t written = out[i].size_bytes;
      const int64_t *run_shape = out_run_shape ? out_run_shape(model, i) : NULL;
      if (run_shape && dtype_size) {
        size_t bytes = dtype_size(out_dtype(i));
        for (int32_t d = 0; d < out_rank(i); ++d)
          bytes *= (size_t)run_shape[d];
        if (bytes < written)
          written = bytes;
      }
      FILE *f = fopen(m->outputs[i], "wb");
      if (f) {
        fwrite(host_out[i], 1, written, f);
        fclose(f);
      }
    }
    printf("%s ok %.4f %.4f %.2f\n", m->name, times[iterations / 2], times[0],
           created);
  }
  fflush(stdout);
  destroy(model);
  free(times);
  for (size_t i = 0; i < ni; ++i) {
    free(host_in[i]);
    if (dev_in[i])
      cu.free(dev_in[i]);
  }
  for (size_t i = 0; i < no; ++i) {
    free(host_out[i]);
    if (dev_out[i])
      cu.free(dev_out[i]);
  }
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: runner MANIFEST [--device-io] [--no-graphs] "
                    "[--prepare] [--async]\n");
    return 2;
  }
  int device_io = 0, no_graphs = 0, prepare = 0, async = 0;
  for (int i = 2; i < argc; ++i) {
    if (strcmp(argv[i], "--device-io") == 0)
      device_io = 1;
    else if (strcmp(argv[i], "--no-graphs") == 0)
      no_graphs = 1;
    else if (strcmp(argv[i], "--prepare") == 0)
      prepare = 1;
    else if (strcmp(argv[i], "--async") == 0)
      prepare = async = 1;
    else {
      fprintf(stderr, "runner: unknown option %s\n", argv[i]);
      return 2;
    }
  }
  if (device_io && init_device_io() != 0) {
    fprintf(stderr, "runner: --device-io needs a CUDA driver and device\n");
    return 1;
  }
  FILE *f = fopen(argv[1], "r");
  if (!f) {
    fprintf(stderr, "runner: cannot read %s\n", argv[1]);
    return 2;
  }
  static model_spec m;
  char line[2200];
  while (fgets(line, sizeof line, f)) {
    char kind[16], a[1024], b[1024];
    int n = sscanf(line, "%15s %1023s %1023s", kind, a, b);
    if (n >= 3 && strcmp(kind, "model") == 0) {
      memset(&m, 0, sizeof m);
      snprintf(m.name, sizeof m.name, "%s", a);
      snprintf(m.lib, sizeof m.lib, "%s", b);
      m.batch = 1;
    } else if (n >= 2 && strcmp(kind, "threads") == 0) {
      m.threads = atoi(a) > 0 ? (unsigned)atoi(a) : 1;
    } else if (n >= 2 && strcmp(kind, "batch") == 0) {
      m.batch = atol(a) > 0 ? atol(a) : 1;
    } else if (n >= 3 && strcmp(kind, "shape") == 0) {
      int i = atoi(a);
      if (i >= 0 && i < MAX_IO) {
        char *p = b;
        for (int d = 0; d < MAX_RANK && *p; ++d) {
          m.shapes[i][d] = strtoll(p, &p, 10);
          if (*p == ',')
            ++p;
        }
        m.has_shape[i] = 1;
        m.symbolic = 1;
      }
    } else if (n >= 2 && strcmp(kind, "input") == 0 && m.num_inputs < MAX_IO) {
      snprintf(m.inputs[m.num_inputs++], 1024, "%s", a);
    } else if (n >= 2 && strcmp(kind, "output") == 0 &&
               m.num_outputs < MAX_IO) {
      snprintf(m.outputs[m.num_outputs++], 1024, "%s", a);
    } else if (n >= 3 && strcmp(kind, "run") == 0) {
      run_model(&m, atoi(a), atoi(b) > 0 ? atoi(b) : 1, device_io, no_graphs,
                prepare, async && !device_io);
    }
  }
  fclose(f);
  return 0;
}
