/**
 * Per-key token buckets: `capacity` tokens, refilled at `perSecond`; `take` spends one. Keys with
 * a full bucket are forgotten, so memory follows the active senders only.
 */
export class TokenBucket {
  private readonly buckets = new Map<number, { tokens: number; at: number }>();

  constructor(
    private readonly capacity: number,
    private readonly perSecond: number,
    private readonly clock: () => number,
  ) {}

  take(key: number): boolean {
    const now = this.clock();
    const bucket = this.buckets.get(key);
    const tokens = bucket
      ? Math.min(this.capacity, bucket.tokens + ((now - bucket.at) / 1000) * this.perSecond)
      : this.capacity;
    if (tokens < 1) {
      this.buckets.set(key, { tokens, at: now });
      return false;
    }
    this.buckets.set(key, { tokens: tokens - 1, at: now });
    if (this.buckets.size > 10_000) this.sweep(now);
    return true;
  }

  private sweep(now: number): void {
    for (const [key, b] of this.buckets) {
      if (b.tokens + ((now - b.at) / 1000) * this.perSecond >= this.capacity) this.buckets.delete(key);
    }
  }
}
