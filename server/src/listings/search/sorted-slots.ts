/**
 * Index slots kept in one sort order (by price, or by id), for the non-relevance search sorts.
 * Changes are queued and applied on the next read: a few by binary insertion, many (start-up,
 * bulk refresh) by one full sort, so building the index stays O(n log n).
 */
export class SortedSlots {
  private order: number[] = [];
  /** The key each slot was placed with, or undefined when it is not placed. */
  private placed = new Map<number, number>();
  private pending = new Set<number>();

  constructor(
    /** Current primary key of a slot (price, or id). */
    private readonly keyOf: (slot: number) => number,
    /** Tie-break (id) of a slot. */
    private readonly idOf: (slot: number) => number,
  ) {}

  /** A slot was added or its key changed. */
  touch(slot: number): void {
    this.pending.add(slot);
  }

  /** Slots in ascending (key, id) order. */
  slots(): readonly number[] {
    if (this.pending.size > 0) this.flush();
    return this.order;
  }

  /** First position whose (key, id) is greater than or equal to the given one. */
  lowerBound(key: number, id: number): number {
    const order = this.slots();
    let lo = 0;
    let hi = order.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const s = order[mid] as number;
      const k = this.placed.get(s) as number;
      if (k < key || (k === key && this.idOf(s) < id)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private flush(): void {
    const pending = [...this.pending];
    this.pending.clear();
    if (pending.length > 256) {
      for (const s of pending) this.placed.set(s, this.keyOf(s));
      const known = new Set(this.order);
      for (const s of pending) if (!known.has(s)) this.order.push(s);
      this.order.sort((a, b) => this.compare(a, b));
      return;
    }
    for (const s of pending) {
      const old = this.placed.get(s);
      if (old !== undefined) {
        if (old === this.keyOf(s)) continue;
        const at = this.find(old, s);
        if (at >= 0) this.order.splice(at, 1);
      }
      const key = this.keyOf(s);
      this.placed.set(s, key);
      this.order.splice(this.lowerBoundRaw(key, this.idOf(s)), 0, s);
    }
  }

  private compare(a: number, b: number): number {
    return (
      (this.placed.get(a) as number) - (this.placed.get(b) as number) || this.idOf(a) - this.idOf(b) || a - b
    );
  }

  private lowerBoundRaw(key: number, id: number): number {
    let lo = 0;
    let hi = this.order.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const s = this.order[mid] as number;
      const k = this.placed.get(s) as number;
      if (k < key || (k === key && this.idOf(s) < id)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Position of `slot`, placed with `key`. */
  private find(key: number, slot: number): number {
    for (let i = this.lowerBoundRaw(key, this.idOf(slot)); i < this.order.length; i += 1) {
      const s = this.order[i] as number;
      if (s === slot) return i;
      if ((this.placed.get(s) as number) !== key) return -1;
    }
    return -1;
  }
}
