import { SAFETY_ERROR_CODES, prohibitedMessage, type ProhibitedRule } from '@campus/contract';
import { HttpError } from '../http/errors.js';
import { foldText } from './fold.js';

/**
 * Folded (fold.ts: invisible characters, look-alikes, full-width forms, accents), every run of
 * non-letters/digits one space, padded: whole-word matching by `includes`.
 */
function normalise(text: string): string {
  return ` ${foldText(text)
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()} `;
}

export interface TermHit {
  rule: string;
  term: string;
}

interface Needle extends TermHit {
  folded: string;
}

/** Each rule set's terms folded once (the configured rules live as long as the app). */
const needlesOf = new WeakMap<readonly ProhibitedRule[], readonly Needle[]>();

function needles(rules: readonly ProhibitedRule[]): readonly Needle[] {
  let out = needlesOf.get(rules);
  if (!out) {
    out = rules.flatMap(({ rule, terms }) =>
      terms.map((term) => ({ rule, term, folded: normalise(term) })).filter((n) => n.folded.trim() !== ''),
    );
    needlesOf.set(rules, out);
  }
  return out;
}

/** The first prohibited term in the texts (whole words only: "gun" never matches "begun"). */
export function findProhibited(rules: readonly ProhibitedRule[], ...texts: string[]): TermHit | null {
  const haystack = normalise(texts.join(' \n '));
  for (const { rule, term, folded } of needles(rules)) {
    if (haystack.includes(folded)) return { rule, term };
  }
  return null;
}

/** 400 PROHIBITED naming the rule, for a listing or wanted post (create and edit). */
export function assertAllowed(rules: readonly ProhibitedRule[], ...texts: string[]): void {
  const hit = findProhibited(rules, ...texts);
  if (hit) throw new HttpError(400, prohibitedMessage(hit.rule, hit.term), SAFETY_ERROR_CODES.prohibited);
}
