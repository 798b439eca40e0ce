/**
 * Why a control plane could not be started, or a step after it failed. `reason` says which:
 *
 * | reason | what happened |
 * |---|---|
 * | `'binaries-missing'` | no etcd / kube-apiserver was found (the message names the places searched and how to get them) |
 * | `'build-failed'` | building the binaries from Go modules failed (the message holds go's last lines) |
 * | `'certificates-failed'` | `openssl` is missing or failed |
 * | `'start-failed'` | a process exited during start-up, or was not ready in time (the message holds its last log lines) |
 * | `'crd-failed'` | a CRD file could not be read or parsed, was refused, or did not become Established in time |
 * | `'stopped'` | the control plane was already stopped |
 */
export class EnvtestError extends Error {
  /** Always `EnvtestError`. */
  override readonly name = 'EnvtestError';
  /** Which step failed (see the class). */
  readonly reason: EnvtestErrorReason;

  constructor(
    reason: EnvtestErrorReason,
    message: string,
    options?: {
      /** What failed underneath, kept as the error's `cause`. */
      cause?: unknown;
    },
  ) {
    super(`[informer] envtest: ${message}`, options);
    this.reason = reason;
  }
}

/** The values of {@link EnvtestError.reason}. */
export type EnvtestErrorReason = 'binaries-missing' | 'build-failed' | 'certificates-failed' | 'start-failed' | 'crd-failed' | 'stopped';
