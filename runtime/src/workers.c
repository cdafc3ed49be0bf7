/*===- workers.c - a fixed team of threads for sample-parallel runs -------===*/
#include "workers.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

/* After a call, members and the caller spin this long for the next event
 * before sleeping on a condition variable: waking a sleeping thread costs
 * tens of microseconds, as much as a whole run of a small model. (OpenMP
 * runtimes do the same; libomp spins 200 ms by default.) */
#define SPIN_NS 1000000L

struct dlcrt_workers {
  int size;
  pthread_t *threads;
  pthread_mutex_t lock;
  pthread_cond_t start, done;
  /* The current call: a new generation wakes the members below count. The
   * call's fields are written before the generation is published. */
  atomic_ulong generation;
  atomic_int pending, stop;
  int count;
  dlcrt_work_fn fn;
  void *ctx;
};

typedef struct member_arg {
  dlcrt_workers *team;
  int index;
} member_arg;

static long long now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

/* Spins until ready(team, arg) holds or SPIN_NS pass; returns whether it
 * holds. */
static int spin_until(dlcrt_workers *team,
                      int (*ready)(dlcrt_workers *, unsigned long),
                      unsigned long arg) {
  long long deadline = 0;
  for (unsigned i = 1;; ++i) {
    if (ready(team, arg))
      return 1;
    cpu_relax();
    if ((i & 255) == 0) {
      long long t = now_ns();
      if (!deadline)
        deadline = t + SPIN_NS;
      else if (t > deadline)
        return 0;
    }
  }
}

/* A call after generation `seen` has started, or the team stops. */
static int new_call(dlcrt_workers *team, unsigned long seen) {
  return atomic_load_explicit(&team->generation, memory_order_acquire) !=
             seen ||
         atomic_load_explicit(&team->stop, memory_order_relaxed);
}

/* Every member of the current call has returned. */
static int call_done(dlcrt_workers *team, unsigned long unused) {
  (void)unused;
  return atomic_load_explicit(&team->pending, memory_order_acquire) == 0;
}

static void *member_main(void *p) {
  member_arg *arg = (member_arg *)p;
  dlcrt_workers *team = arg->team;
  int index = arg->index;
  free(arg);
  unsigned long seen = 0;
  for (;;) {
    if (!spin_until(team, new_call, seen)) {
      pthread_mutex_lock(&team->lock);
      while (!atomic_load(&team->stop) &&
             atomic_load(&team->generation) == seen)
        pthread_cond_wait(&team->start, &team->lock);
      pthread_mutex_unlock(&team->lock);
    }
    if (atomic_load(&team->stop))
      break;
    seen = atomic_load_explicit(&team->generation, memory_order_acquire);
    if (index >= team->count)
      continue;
    team->fn(team->ctx, index);
    if (atomic_fetch_sub_explicit(&team->pending, 1, memory_order_acq_rel) ==
        1) {
      pthread_mutex_lock(&team->lock);
      pthread_cond_signal(&team->done);
      pthread_mutex_unlock(&team->lock);
    }
  }
  return NULL;
}

dlcrt_workers *dlcrt_workers_create(int size) {
  dlcrt_workers *team = calloc(1, sizeof(*team));
  if (!team)
    return NULL;
  team->size = size;
  atomic_init(&team->generation, 0);
  atomic_init(&team->pending, 0);
  atomic_init(&team->stop, 0);
  team->threads = calloc((size_t)(size > 1 ? size - 1 : 1), sizeof(pthread_t));
  if (!team->threads || pthread_mutex_init(&team->lock, NULL) != 0) {
    free(team->threads);
    free(team);
    return NULL;
  }
  pthread_cond_init(&team->start, NULL);
  pthread_cond_init(&team->done, NULL);
  for (int i = 1; i < size; ++i) {
    member_arg *arg = malloc(sizeof(*arg));
    if (arg) {
      arg->team = team;
      arg->index = i;
    }
    if (!arg || pthread_create(&team->threads[i - 1], NULL, member_main, arg)) {
      free(arg);
      team->size = i; /* the threads started so far */
      dlcrt_workers_destroy(team);
      return NULL;
    }
  }
  return team;
}

void dlcrt_workers_run(dlcrt_workers *team, int count, dlcrt_work_fn fn,
                       void *ctx) {
  if (count > team->size)
    count = team->size;
  if (count > 1) {
    team->fn = fn;
    team->ctx = ctx;
    team->count = count;
    atomic_store_explicit(&team->pending, count - 1, memory_order_relaxed);
    /* Under the lock, so that a member deciding to sleep sees it. */
    pthread_mutex_lock(&team->lock);
    atomic_fetch_add_explicit(&team->generation, 1, memory_order_release);
    pthread_cond_broadcast(&team->start);
    pthread_mutex_unlock(&team->lock);
  }
  fn(ctx, 0);
  if (count > 1 && !spin_until(team, call_done, 0)) {
    pthread_mutex_lock(&team->lock);
    while (atomic_load(&team->pending) > 0)
      pthread_cond_wait(&team->done, &team->lock);
    pthread_mutex_unlock(&team->lock);
  }
}

void dlcrt_workers_destroy(dlcrt_workers *team) {
  if (!team)
    return;
  pthread_mutex_lock(&team->lock);
  atomic_store(&team->stop, 1);
  pthread_cond_broadcast(&team->start);
  pthread_mutex_unlock(&team->lock);
  for (int i = 1; i < team->size; ++i)
    pthread_join(team->threads[i - 1], NULL);
  pthread_cond_destroy(&team->start);
  pthread_cond_destroy(&team->done);
  pthread_mutex_destroy(&team->lock);
  free(team->threads);
  free(team);
}
