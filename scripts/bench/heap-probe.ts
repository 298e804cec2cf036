/**
 * Loaded into every benchmarked server (NODE_OPTIONS `--import`, see load.ts's startServer) when
 * BENCH_HEAP_PROBE names a directory: answers a connection on `<dir>/<pid>.sock` with a HeapReading (load.ts) of
 * this process's JavaScript heap so far. Allocation is what the heap holds now plus what every garbage
 * collection since the start has freed (V8's GCProfiler reports each collection's heap before and
 * after), so no `--trace-gc` output has to be parsed and the server runs unchanged otherwise. Promoted
 * is what scavenges moved into the old generation (its growth across each), and full collections
 * count the mark-compacts: what a request leaves alive past two scavenges is what makes the old
 * generation's collections, the serving process's largest cost over the baseline's on the page
 * (docs/benchmark-history.md, 2026-12-04).
 *
 * With BENCH_ALLOC_PROF=1 it also samples where the heap is allocated, collected objects included
 * (`--heap-prof` keeps only what is still alive at the end, which says nothing of the garbage a
 * request makes), from the first reading on (the first timed slice: start-up and warm-up left out),
 * and writes bench/profiles/<pid>.heapprofile when the server exits; open it in Chrome's DevTools
 * (Memory tab) or read its `head` tree of `selfSize` per call frame.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { createServer } from 'node:net';
import { GCProfiler, getHeapStatistics } from 'node:v8';

const dir = process.env.BENCH_HEAP_PROBE;
/** Starts the allocation sampling of BENCH_ALLOC_PROF (below) at the first reading: the first timed slice, after start-up and warm-up. */
let onFirstReading: (() => void) | undefined;
/** The old generation's spaces: where a scavenge promotes (large objects as whole pages). */
const OLD_SPACES = new Set(['old_space', 'large_object_space']);
const oldUsed = (spaces: Array<{ spaceName: string; spaceUsedSize: number }>) => spaces.reduce((sum, space) => sum + (OLD_SPACES.has(space.spaceName) ? space.spaceUsedSize : 0), 0);

if (dir) {
  let profiler = new GCProfiler();
  profiler.start();
  let freed = 0;
  let promoted = 0;
  let fullCollections = 0;
  const reading = () => {
    const { statistics } = profiler.stop();
    profiler = new GCProfiler();
    profiler.start();
    for (const gc of statistics) {
      freed += gc.beforeGC.heapStatistics.usedHeapSize - gc.afterGC.heapStatistics.usedHeapSize;
      if (gc.gcType === 'Scavenge') promoted += Math.max(0, oldUsed(gc.afterGC.heapSpaceStatistics) - oldUsed(gc.beforeGC.heapSpaceStatistics));
      if (gc.gcType === 'MarkSweepCompact') fullCollections += 1;
    }
    return { allocated: getHeapStatistics().used_heap_size + freed, promoted, fullCollections };
  };
  const path = `${dir}/${process.pid}.sock`;
  rmSync(path, { force: true });
  createServer((socket) => {
    onFirstReading?.();
    onFirstReading = undefined;
    socket.end(JSON.stringify(reading()));
  })
    .listen(path)
    .unref();
}

if (process.env.BENCH_ALLOC_PROF) {
  // The main thread's own session answers synchronously: the profile can be taken in an exit handler.
  const session = new Session();
  session.connect();
  let sampling = false;
  onFirstReading = () => {
    sampling = true;
    session.post('HeapProfiler.startSampling', { samplingInterval: 16_384, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  };
  process.on('exit', () => {
    if (!sampling) return;
    session.post('HeapProfiler.stopSampling', (error, result) => {
      if (error) return;
      mkdirSync('bench/profiles', { recursive: true });
      writeFileSync(`bench/profiles/${process.pid}.heapprofile`, JSON.stringify(result.profile));
    });
  });
}
