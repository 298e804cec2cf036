import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';

/** A TCP relay on loopback that a test can cut, as if the server behind it stopped, and restore on the same port. */
export interface TcpProxy {
  port: number;
  /** Refuses new connections and drops the open ones. */
  cut(): Promise<void>;
  /**
   * Cuts (as `cut`) the moment a client sends a statement holding `statement`, before it reaches
   * the server: the outage strikes a session between two of its statements. Resolves once it has.
   */
  cutAt(statement: string): Promise<void>;
  /** Relays again, on the same port (nothing to do if it was not cut). */
  restore(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const open = new Set<Socket>();
  let server: Server | undefined;
  let trap: { statement: Buffer; sprung: () => void } | undefined;
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      const relay = createServer((client) => {
        const upstream = connect(target.port, target.host);
        for (const socket of [client, upstream]) {
          open.add(socket);
          // Either end gone takes the other with it: no half-open socket outlives its pair.
          socket.once('close', () => {
            open.delete(socket);
            client.destroy();
            upstream.destroy();
          });
          socket.on('error', () => socket.destroy());
        }
        // Registered before the pipe's own listener, so a trapped statement is never relayed.
        client.on('data', (chunk: Buffer) => {
          if (!trap || !chunk.includes(trap.statement)) return;
          const { sprung } = trap;
          trap = undefined;
          void cut().then(sprung);
        });
        client.pipe(upstream).pipe(client);
      });
      relay.once('error', reject);
      relay.listen(port, '127.0.0.1', () => resolve((relay.address() as AddressInfo).port));
      server = relay;
    });
  const cut = async () => {
    const closed = new Promise((resolve) => server!.close(resolve));
    for (const socket of open) socket.destroy();
    await closed;
  };
  const port = await listen(0);
  return {
    port,
    cut,
    cutAt: (statement) => new Promise((sprung) => (trap = { statement: Buffer.from(statement), sprung })),
    async restore() {
      if (server?.listening) return;
      await listen(port);
    },
  };
}
