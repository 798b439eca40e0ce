import { request } from 'node:http';
import { createServer, type Server } from 'node:https';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';

/** A throwaway self-signed certificate for 127.0.0.1 (test only; also used as the client certificate). */
export const tlsCert = readFileSync(new URL('./fixtures/tls-cert.pem', import.meta.url));
export const tlsKey = readFileSync(new URL('./fixtures/tls-key.pem', import.meta.url));

/**
 * An HTTPS front for the (plain HTTP) test API server on 127.0.0.1: terminates TLS, optionally
 * requires a client certificate, and pipes every request through. Records the client certificate subjects.
 */
export async function startTlsProxy(target: string, requireClientCert: boolean): Promise<{ url: string; clientSubjects: string[]; close(): Promise<void> }> {
  const clientSubjects: string[] = [];
  const server: Server = createServer({ key: tlsKey, cert: tlsCert, ca: tlsCert, requestCert: requireClientCert, rejectUnauthorized: requireClientCert }, (req, res) => {
    if (requireClientCert) {
      const peer = (req.socket as import('node:tls').TLSSocket).getPeerCertificate();
      clientSubjects.push(String(peer.subject?.CN ?? ''));
    }
    const upstream = request(new URL(req.url ?? '/', target), { method: req.method, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    clientSubjects,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
