import type { SearchAfter, SearchHit } from './search-types.js';

/** The best k hits after a cursor, ordered by score ascending then id descending. */
export class TopK {
  private hits: SearchHit[] = [];
  constructor(
    private readonly k: number,
    private readonly after?: SearchAfter,
  ) {}

  get full(): boolean {
    return this.hits.length >= this.k;
  }

  get worstScore(): number {
    return this.hits[this.hits.length - 1]?.score ?? Number.POSITIVE_INFINITY;
  }

  /** Whether a full list rejects every hit scoring `bound` or more with this id. */
  excludes(bound: number, id: number): boolean {
    const last = this.hits[this.hits.length - 1];
    return last !== undefined && (bound > last.score || (bound === last.score && id < last.id));
  }

  offer(score: number, id: number): void {
    if (this.after && !comesAfter(score, id, this.after)) return;
    if (this.full && comesAfter(score, id, this.hits[this.hits.length - 1] as SearchHit)) return;
    let lo = 0;
    let hi = this.hits.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (comesAfter(score, id, this.hits[mid] as SearchHit)) lo = mid + 1;
      else hi = mid;
    }
    this.hits.splice(lo, 0, { score, id });
    if (this.hits.length > this.k) this.hits.pop();
  }

  sorted(): SearchHit[] {
    return this.hits;
  }
}

/** Whether (score, id) ranks after `ref` in (score asc, id desc) order. */
function comesAfter(score: number, id: number, ref: SearchAfter): boolean {
  return score > ref.score || (score === ref.score && id < ref.id);
}
