/**
 * Waiting in tests on real time: for a condition, with a deadline, never for a set time (style
 * point 40). The deadline only bounds a failing test; a passing one goes on as soon as the
 * condition holds. So it is generous (30 s): two suites at once on a loaded 2-core machine make
 * everything several times slower.
 */

/** Polls `condition` every 5 ms; rejects naming `what` after `timeoutMs`. */
export async function until(condition: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
