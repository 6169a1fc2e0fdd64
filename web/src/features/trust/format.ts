import { REVIEW_TAG_LABELS, type ReviewTag } from '@campus/contract';
import { liveBasis, zoneOption, type TimeBasis } from '../../ui/timeBasis';

/** "Nov 23, 2026" in the student's locale. */
export function formatDate(iso: string, basis: TimeBasis = liveBasis()): string {
  return new Date(iso).toLocaleDateString(basis.locale, {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    ...zoneOption(basis),
  });
}

/** "Member since November 2026". */
export function formatMonth(iso: string, basis: TimeBasis = liveBasis()): string {
  return new Date(iso).toLocaleDateString(basis.locale, {
    month: 'long',
    year: 'numeric',
    ...zoneOption(basis),
  });
}

/** Median reply time in words: "within minutes", "about 2 hours", "about 3 days". */
export function formatReplyTime(minutes: number): string {
  if (minutes < 5) return 'within minutes';
  if (minutes < 60) return `about ${minutes} min`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `about ${hours} ${hours === 1 ? 'hour' : 'hours'}`;
  const days = Math.round(hours / 24);
  return `about ${days} days`;
}

export function tagLabel(tag: ReviewTag): string {
  return REVIEW_TAG_LABELS[tag];
}
