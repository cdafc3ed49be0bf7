/*===- workers.c - a fixed team of threads for sample-parallel runs -------===*/
#include "workers.h"

#include <pthread.h>
#include <stdlib.h>

struct dlcrt_workers {
  int size;
  pthread_t *threads;
  pthread_mutex_t lock;
  pthread_cond_t start, done;
  /* The current call: a new generation wakes the members below count. */
  unsigned long generation;
  int count, pending, stop;
  dlcrt_work_fn fn;
  void *ctx;
};

typedef struct member_arg {
  dlcrt_workers *team;
  int index;
} member_arg;

static void *member_main(void *p) {
  member_arg *arg = (member_arg *)p;
  dlcrt_workers *team = arg->team;
  int index = arg->index;
  free(arg);
  unsigned long seen = 0;
  pthread_mutex_lock(&team->lock);
  for (;;) {
    while (!team->stop && team->generation == seen)
      pthread_cond_wait(&team->start, &team->lock);
    if (team->stop)
      break;
    seen = team->generation;
    if (index >= team->count)
      continue;
    dlcrt_work_fn fn = team->fn;
    void *ctx = team->ctx;
    pthread_mutex_unlock(&team->lock);
    fn(ctx, index);
    pthread_mutex_lock(&team->lock);
    if (--team->pending == 0)
      pthread_cond_signal(&team->done);
  }
  pthread_mutex_unlock(&team->lock);
  return NULL;
}

dlcrt_workers *dlcrt_workers_create(int size) {
  dlcrt_workers *team = calloc(1, sizeof(*team));
  if (!team)
    return NULL;
  team->size = size;
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
    pthread_mutex_lock(&team->lock);
    team->fn = fn;
    team->ctx = ctx;
    team->count = count;
    team->pending = count - 1;
    ++team->generation;
    pthread_cond_broadcast(&team->start);
    pthread_mutex_unlock(&team->lock);
  }
  fn(ctx, 0);
  if (count > 1) {
    pthread_mutex_lock(&team->lock);
    while (team->pending > 0)
      pthread_cond_wait(&team->done, &team->lock);
    pthread_mutex_unlock(&team->lock);
  }
}

void dlcrt_workers_destroy(dlcrt_workers *team) {
  if (!team)
    return;
  pthread_mutex_lock(&team->lock);
  team->stop = 1;
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
