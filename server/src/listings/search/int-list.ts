/** A growable Int32 list (posting lists and per-document columns). */
export class IntList {
  data: Int32Array;
  length = 0;
  constructor(capacity = 8) {
    this.data = new Int32Array(Math.max(1, capacity));
  }
  push(v: number) {
    if (this.length === this.data.length) {
      const next = new Int32Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length] = v;
    this.length += 1;
  }
}
