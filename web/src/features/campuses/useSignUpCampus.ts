import { useState } from 'react';
import { useSearchParams } from 'react-router';
import type { CampusSummary } from '@campus/contract';
import { useCampuses, useCampusInfo } from '../../api/campus';
import { campusForEmail } from './search';
import { addressHint } from './wording';

export interface SignUpCampus {
  /** Every open campus (for the picker); empty while loading. */
  campuses: CampusSummary[];
  /** Whether the form offers the picker: a deployment of one campus needs none. */
  showPicker: boolean;
  /** The campus chosen in the picker, or null. */
  chosen: CampusSummary | null;
  choose: (campus: CampusSummary | null) => void;
  /** After the address is typed: its campus becomes the chosen one (the address decides anyway). */
  followEmail: (email: string) => void;
  /** The campus's name, or null when none is known or chosen. */
  name: string | null;
  /** What the e-mail field says about the addresses accepted. */
  emailHint: string;
}

/**
 * The campus the sign-up form is about: the one chosen on the landing page (`?campus=uw`), else
 * the campus of the visit (GET /public/campus: the Host's or the default), until the student
 * picks another or types an address of another. The server decides by the address alone
 * (features.md §E); this only makes the form speak of the right campus.
 */
export function useSignUpCampus(): SignUpCampus {
  const [params] = useSearchParams();
  const info = useCampusInfo().data;
  const campuses = useCampuses().data ?? [];
  // undefined: nothing picked on this page yet; null: the picker was cleared.
  const [choice, setChoice] = useState<string | null | undefined>(undefined);
  const linked = campuses.find((c) => c.slug === params.get('campus'))?.slug;
  const slug = choice !== undefined ? choice : (linked ?? info?.slug ?? null);
  const chosen = campuses.find((c) => c.slug === slug) ?? null;
  // Without the list (one campus, or it failed to load), the visit's campus is the form's.
  const fallback =
    choice === undefined && info
      ? { name: info.name || info.campusName, domains: info.allowedDomains }
      : null;
  const name = chosen?.name ?? fallback?.name ?? null;
  const domains = chosen?.emailDomains ?? fallback?.domains ?? [];

  return {
    campuses,
    showPicker: campuses.length > 1,
    chosen,
    choose: (campus) => setChoice(campus?.slug ?? null),
    followEmail: (email) => {
      const owner = campusForEmail(campuses, email);
      if (owner && owner.slug !== chosen?.slug) setChoice(owner.slug);
    },
    name,
    emailHint: `${addressHint(domains)}. We'll e-mail you a code to verify it.`,
  };
}
