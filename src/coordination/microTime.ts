/**
 * A `metav1.MicroTime` (RFC 3339 with six fractional digits, UTC) from epoch milliseconds: the time
 * format of Lease fields and of `events.k8s.io/v1` Events.
 */
export function microTime(ms: number): string {
  const iso = new Date(Math.floor(ms)).toISOString(); // 2026-01-02T03:04:05.678Z
  return `${iso.slice(0, -1)}000Z`;
}
