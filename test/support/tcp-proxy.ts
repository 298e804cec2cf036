import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';

/** A TCP relay on loopback that a test can cut, as if the server behind it stopped, and restore on the same port. */
export interface TcpProxy {
  port: number;
  /** Refuses new connections and drops the open ones. */
  cut(): Promise<void>;
  /** Relays again, on the same port (nothing to do if it was not cut). */
  restore(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const open = new Set<Socket>();
  let server: Server | undefined;
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
        client.pipe(upstream).pipe(client);
      });
      relay.once('error', reject);
      relay.listen(port, '127.0.0.1', () => resolve((relay.address() as AddressInfo).port));
      server = relay;
    });
  const port = await listen(0);
  return {
    port,
    async cut() {
      const closed = new Promise((resolve) => server!.close(resolve));
      for (const socket of open) socket.destroy();
      await closed;
    },
    async restore() {
      if (server?.listening) return;
      await listen(port);
    },
  };
}
