/**
 * An age as kubectl prints it: `45s`, `5m12s`, `3h4m`, `2d5h`, `400d`; `<unknown>` without a valid time.
 *
 * @param since an RFC 3339 timestamp (`metadata.creationTimestamp`).
 * @param now the current time in ms since the epoch.
 */
export function formatAge(since: string | undefined, now: number): string {
  const start = since === undefined ? NaN : Date.parse(since);
  if (Number.isNaN(start)) return '<unknown>';
  const s = Math.max(0, Math.floor((now - start) / 1000));
  if (s < 120) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 10) return s % 60 === 0 ? `${m}m` : `${m}m${s % 60}s`;
  if (m < 180) return `${m}m`;
  const h = Math.floor(m / 60);
  if (h < 8) return m % 60 === 0 ? `${h}h` : `${h}h${m % 60}m`;
  if (h < 48) return `${h}h`;
  const d = Math.floor(h / 24);
  if (d < 8) return h % 24 === 0 ? `${d}d` : `${d}d${h % 24}h`;
  return d < 365 * 2 ? `${d}d` : `${Math.floor(d / 365)}y${d % 365}d`;
}
