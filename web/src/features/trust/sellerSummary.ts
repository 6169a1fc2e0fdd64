import type { Profile } from '@campus/contract';
import { formatStars } from './components/Stars';
import { formatMonth, formatReplyTime } from './format';
import type { TimeBasis } from '../../ui/timeBasis';

/** What the listing page's seller card says about a seller, in words (features.md §A "Profiles"). */
export interface SellerSummary {
  /** Average to draw as stars; null when nobody has rated them yet. */
  stars: number | null;
  /** "4.5 · 3 reviews", "New seller · no reviews yet" or "No reviews yet". */
  rating: string;
  /** Completed deals, "2 deals"; null with no reviews and no deals (the rating line says "New seller"). */
  deals: string | null;
  /** "Usually replies within minutes", or "Member since March 2026" while the reply time is unknown. */
  reply: string;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export function sellerSummary(
  profile: Pick<
    Profile,
    'ratingAverage' | 'ratingCount' | 'dealsCount' | 'medianReplyMinutes' | 'memberSince'
  >,
  basis?: TimeBasis,
): SellerSummary {
  const rated = profile.ratingAverage !== null && profile.ratingCount > 0;
  const isNew = !rated && profile.dealsCount === 0;
  return {
    stars: rated ? profile.ratingAverage : null,
    rating: rated
      ? `${formatStars(profile.ratingAverage!)} · ${plural(profile.ratingCount, 'review', 'reviews')}`
      : isNew
        ? 'New seller · no reviews yet'
        : 'No reviews yet',
    deals: isNew ? null : plural(profile.dealsCount, 'deal', 'deals'),
    // Replies are the seller's habit in chats; a seller without enough chats still has an age on campus.
    reply:
      profile.medianReplyMinutes === null
        ? `Member since ${formatMonth(profile.memberSince, basis)}`
        : `Usually replies ${formatReplyTime(profile.medianReplyMinutes)}`,
  };
}
