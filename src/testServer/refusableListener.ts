import { readFileSync } from 'node:fs';
import type { Server as HttpServer } from 'node:http';
import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';

/**
 * A TCP listener on 127.0.0.1 feeding an HTTP server, that can stop (refusing connections and
 * dropping open ones, like an apiserver going away) and listen again on the same port.
 *
 * @internal
 */
export interface RefusableListener {
  /**
   * Listens on `port`; resolves with the port. 0 takes a free port below the system's ephemeral
   * range where that range is known (Linux): a port the system hands out for `listen(0)` is also
   * one it hands out as the local end of outgoing connections, so while the listener refuses,
   * another client (this process's or another's) could take it and keep it.
   */
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
    async listen(port) {
      if (port !== 0) return listenOn(port);
      const below = ephemeralLow();
      for (let attempt = 0; below !== undefined && attempt < 64; attempt++) {
        const candidate = lowestPort + Math.floor(Math.random() * (below - lowestPort));
        try {
          return await listenOn(candidate);
        } catch (error) {
          if ((error as { code?: unknown }).code !== 'EADDRINUSE' && (error as { code?: unknown }).code !== 'EACCES') throw error;
        }
      }
      return listenOn(0);
    },
    stop() {
      listener?.close();
      listener = undefined;
      // Open watches end without their last chunk, as when the apiserver's process goes away.
      for (const socket of sockets) socket.destroy();
    },
  };

  function listenOn(port: number): Promise<number> {
    return new Promise((resolve, reject) => {
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
    });
  }
}

/** The lowest port {@link RefusableListener.listen} picks for port 0 (below: well-known and registered services). */
const lowestPort = 10_000;

/** The first port of the system's ephemeral range, if known and above {@link lowestPort} by a margin. */
function ephemeralLow(): number | undefined {
  let text: string;
  try {
    text = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8');
  } catch {
    return undefined;
  }
  const low = Number(text.trim().split(/\s+/)[0]);
  return Number.isInteger(low) && low > lowestPort + 1_000 ? low : undefined;
}
