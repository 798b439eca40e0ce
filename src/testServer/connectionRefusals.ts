import type { RefusableListener } from './refusableListener.js';

const noop = (): void => undefined;

/**
 * The control API's `refuseConnections` over `listener`, which listens on `port`: stops it, and
 * listens again after `duration` ms or once `duration` settles. Refusals may overlap: the port
 * comes back when the last one ends. @internal
 *
 * @param closed whether the server was closed meanwhile (then the port stays closed).
 */
export function connectionRefusals(listener: RefusableListener, port: number, closed: () => boolean): (duration: number | PromiseLike<unknown>) => Promise<void> {
  let refusals = 0;
  return async (duration) => {
    refusals++;
    listener.stop();
    if (typeof duration === 'number') await new Promise((resolve) => setTimeout(resolve, duration));
    else await Promise.resolve(duration).then(noop, noop); // a rejection ends the refusal too
    if (--refusals > 0) return;
    // While nothing listens, the port is free: a client retrying its connect can get it as its
    // own ephemeral port (a TCP self-connect), or another process can take it. Wait for it back.
    for (let attempt = 0; !closed(); attempt++) {
      try {
        await listener.listen(port);
        return;
      } catch (error) {
        if ((error as { code?: unknown }).code !== 'EADDRINUSE' || attempt >= 500) throw error;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    }
  };
}
