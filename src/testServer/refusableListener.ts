import type { Server as HttpServer } from 'node:http';
import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';

/**
 * A TCP listener on 127.0.0.1 feeding an HTTP server, that can stop (refusing connections and
 * dropping open ones, like an apiserver going away) and listen again on the same port.
 *
 * @internal
 */
export interface RefusableListener {
  /** Listens on `port` (0: a free one); resolves with the port. */
  listen(port: number): Promise<number>;
  /** Closes the listening socket and destroys every open connection. */
  stop(): void;
  /** TCP connections accepted so far. */
  readonly accepted: number;
  /** TCP connections open now. */
  readonly open: number;
}

/** Creates a {@link RefusableListener} for `http` (which itself never listens). @internal */
export function createRefusableListener(http: HttpServer): RefusableListener {
  const sockets = new Set<Socket>();
  let listener: NetServer | undefined;
  let accepted = 0;
  return {
    get accepted() {
      return accepted;
    },
    get open() {
      return sockets.size;
    },
    listen: (port) =>
      new Promise((resolve, reject) => {
        const server = createNetServer((socket) => {
          sockets.add(socket);
          accepted++;
          // As Go's net/http (the apiserver) and Node's own http.Server do: no Nagle delay on small
          // writes such as single watch events. This listener bypasses http.Server's socket setup.
          socket.setNoDelay(true);
          socket.on('close', () => sockets.delete(socket));
          http.emit('connection', socket);
        });
        server.once('error', reject);
        server.listen(port, '127.0.0.1', () => {
          server.off('error', reject);
          listener = server;
          resolve((server.address() as { port: number }).port);
        });
      }),
    stop() {
      listener?.close();
      listener = undefined;
      // Open watches end without their last chunk, as when the apiserver's process goes away.
      for (const socket of sockets) socket.destroy();
    },
  };
}
