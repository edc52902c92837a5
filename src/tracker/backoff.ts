/** Longest wait between retries of a failing heartbeat: one call a minute while a server is down. */
export const MAX_RETRY_MS = 60_000;

/**
 * Delay before retry number `attempt` (1, 2, ...): exponential from the normal interval, capped,
 * with "equal jitter" (half fixed, half random) so that many visitors whose server came back do
 * not all call at the same instant, while none retries sooner than half the nominal delay.
 */
export function retryDelay(attempt: number, intervalMs: number, random: number): number {
  const nominal = Math.min(MAX_RETRY_MS, intervalMs * 2 ** Math.max(1, Math.min(attempt, 30)));
  const unit = Math.min(1, Math.max(0, random));
  return Math.round(nominal / 2 + (nominal / 2) * unit);
}
