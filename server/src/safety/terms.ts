import { SAFETY_ERROR_CODES, prohibitedMessage, type ProhibitedRule } from '@campus/contract';
import { HttpError } from '../http/errors.js';

/** Lower case, every run of non-letters/digits one space, padded: whole-word matching by `includes`. */
function normalise(text: string): string {
  return ` ${text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()} `;
}

export interface TermHit {
  rule: string;
  term: string;
}

/** The first prohibited term in the texts (whole words only: "gun" never matches "begun"). */
export function findProhibited(rules: readonly ProhibitedRule[], ...texts: string[]): TermHit | null {
  const haystack = normalise(texts.join(' \n '));
  for (const { rule, terms } of rules) {
    for (const term of terms) {
      const needle = normalise(term);
      if (needle.trim() !== '' && haystack.includes(needle)) return { rule, term };
    }
  }
  return null;
}

/** 400 PROHIBITED naming the rule, for a listing or wanted post (create and edit). */
export function assertAllowed(rules: readonly ProhibitedRule[], ...texts: string[]): void {
  const hit = findProhibited(rules, ...texts);
  if (hit) throw new HttpError(400, prohibitedMessage(hit.rule, hit.term), SAFETY_ERROR_CODES.prohibited);
}
