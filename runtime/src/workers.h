/*===- workers.h - a fixed team of threads for sample-parallel runs -------===*
 *
 * Internal. A team is started at model create, runs one function on each
 * member per call, and is joined at destroy: runs start no threads and
 * allocate nothing. Between calls members spin for up to a millisecond,
 * then sleep on a condition variable.
 *
 *===----------------------------------------------------------------------===*/
#ifndef DLC_RUNTIME_WORKERS_H
#define DLC_RUNTIME_WORKERS_H

typedef struct dlcrt_workers dlcrt_workers;
typedef void (*dlcrt_work_fn)(void *ctx, int member);

/* Starts `size - 1` threads (the caller is member 0); NULL on failure. */
dlcrt_workers *dlcrt_workers_create(int size);
/* Calls fn(ctx, m) for every m < count (count <= size) at once, member 0 on
 * the calling thread; returns when all calls have returned. */
void dlcrt_workers_run(dlcrt_workers *team, int count, dlcrt_work_fn fn,
                       void *ctx);
/* Stops and joins the threads; NULL is accepted. */
void dlcrt_workers_destroy(dlcrt_workers *team);

#endif
