/**
 * Loaded into every benchmarked server (NODE_OPTIONS `--import`, see load.ts's startServer) when
 * BENCH_HEAP_PROBE names a directory: answers a connection on `<dir>/<pid>.sock` with the bytes this
 * process's JavaScript heap has allocated so far. Allocation is what the heap holds now plus what every
 * garbage collection since the start has freed (V8's GCProfiler reports each collection's heap before
 * and after), so no `--trace-gc` output has to be parsed and the server runs unchanged otherwise.
 */
import { rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { GCProfiler, getHeapStatistics } from 'node:v8';

const dir = process.env.BENCH_HEAP_PROBE;
if (dir) {
  let profiler = new GCProfiler();
  profiler.start();
  let freed = 0;
  const allocated = () => {
    const { statistics } = profiler.stop();
    profiler = new GCProfiler();
    profiler.start();
    for (const gc of statistics) freed += gc.beforeGC.heapStatistics.usedHeapSize - gc.afterGC.heapStatistics.usedHeapSize;
    return getHeapStatistics().used_heap_size + freed;
  };
  const path = `${dir}/${process.pid}.sock`;
  rmSync(path, { force: true });
  createServer((socket) => socket.end(`${allocated()}\n`))
    .listen(path)
    .unref();
}
