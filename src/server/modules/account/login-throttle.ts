/**
 * Per-account brute-force guard: after `max` failed logins on one e-mail within the window, that
 * account refuses further attempts (from any IP) until the window ends. Failures only count, so a
 * person who logs in correctly is never locked out by their own successes. Per-IP limits are done
 * by @fastify/rate-limit; it cannot stack a second key on the same route, hence this small piece.
 * In memory, per instance (a shared store is a later step when several instances run).
 */
export class LoginThrottle {
  private readonly failures = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
    private readonly capacity = 50_000,
  ) {}

  /** True when this account may try again now. */
  allows(key: string): boolean {
    const entry = this.failures.get(key);
    if (!entry) return true;
    if (entry.resetAt <= this.now()) {
      this.failures.delete(key);
      return true;
    }
    return entry.count < this.max;
  }

  recordFailure(key: string): void {
    const now = this.now();
    const entry = this.failures.get(key);
    if (entry && entry.resetAt > now) {
      entry.count += 1;
      return;
    }
    if (this.failures.size >= this.capacity) this.prune();
    this.failures.set(key, { count: 1, resetAt: now + this.windowMs });
  }

  recordSuccess(key: string): void {
    this.failures.delete(key);
  }

  private prune(): void {
    const now = this.now();
    for (const [key, entry] of this.failures) if (entry.resetAt <= now) this.failures.delete(key);
    // Still full: drop the oldest entries (Map keeps insertion order).
    for (const key of this.failures.keys()) {
      if (this.failures.size < this.capacity) break;
      this.failures.delete(key);
    }
  }
}
