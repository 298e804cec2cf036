import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';

/** A redis-server of the test's own, which the test can freeze, kill and start again on the same port. */
export interface RedisServer {
  port: number;
  url: string;
  /** Stops the process answering without closing its connections (SIGSTOP): a hanging Redis. */
  freeze(): void;
  thaw(): void;
  /** Kills the process (SIGKILL): connections drop, the port refuses. */
  kill(): Promise<void>;
  /** Starts a fresh, empty server on the same port. */
  restart(): Promise<void>;
}

/** A TCP port on 127.0.0.1 that nothing listens on (the OS just handed it out and it was closed again). */
export async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

/**
 * Starts `redis-server` without persistence on `port` (a free one by default), requiring `password`
 * when one is given, and resolves once it accepts connections.
 */
export async function startRedisServer(options: { port?: number; password?: string } = {}): Promise<RedisServer> {
  const chosen = options.port ?? (await freePort());
  const args = ['--port', String(chosen), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', ...(options.password ? ['--requirepass', options.password] : [])];
  let child = await launch(args);
  return {
    port: chosen,
    url: `redis://${options.password ? `:${options.password}@` : ''}127.0.0.1:${chosen}`,
    freeze: () => child.kill('SIGSTOP'),
    thaw: () => child.kill('SIGCONT'),
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGCONT');
      child.kill('SIGKILL');
      await once(child, 'exit');
    },
    async restart() {
      child = await launch(args);
    },
  };
}

async function launch(args: string[]): Promise<ChildProcess> {
  const child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`redis-server exited (${code}): ${output}`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) resolve();
    });
  });
  child.removeAllListeners('exit');
  child.stdout!.removeAllListeners('data').resume();
  return child;
}
