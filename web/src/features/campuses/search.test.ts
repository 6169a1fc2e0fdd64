import { describe, expect, it } from 'vitest';
import type { CampusSummary } from '@campus/contract';
import { campusForEmail, domainOf, findCampuses } from './search';
import { addressHint, addressList, onlyVerifiedStudents } from './wording';

const MSU: CampusSummary = { slug: 'msu', name: 'Michigan State University', emailDomains: ['msu.edu'] };
const UW: CampusSummary = { slug: 'uw', name: 'University of Washington', emailDomains: ['uw.edu'] };
const UMICH: CampusSummary = { slug: 'umich', name: 'University of Michigan', emailDomains: ['umich.edu'] };
const OSU: CampusSummary = {
  slug: 'osu',
  name: 'The Ohio State University',
  emailDomains: ['osu.edu', 'buckeyemail.osu.edu'],
};
/** A campus of one faculty whose domain sits under another campus's. */
const CS: CampusSummary = { slug: 'uw-cs', name: 'UW Computer Science', emailDomains: ['cs.uw.edu'] };
const ALL = [OSU, UW, MSU, UMICH];

const slugs = (list: CampusSummary[]) => list.map((c) => c.slug);

describe('findCampuses', () => {
  it('lists every campus by name for an empty query', () => {
    expect(slugs(findCampuses(ALL, ''))).toEqual(['msu', 'osu', 'umich', 'uw']);
    expect(slugs(findCampuses(ALL, '   '))).toEqual(['msu', 'osu', 'umich', 'uw']);
  });

  it('finds a campus by any word of its name, whatever the case and accents', () => {
    expect(slugs(findCampuses(ALL, 'washington'))).toEqual(['uw']);
    expect(slugs(findCampuses(ALL, 'WASH'))).toEqual(['uw']);
    expect(slugs(findCampuses(ALL, 'Michigan'))).toEqual(['msu', 'umich']);
    expect(slugs(findCampuses(ALL, 'ohio state'))).toEqual(['osu']);
    expect(slugs(findCampuses(ALL, 'state mich'))).toEqual(['msu']);
    expect(slugs(findCampuses(ALL, 'Washíngton'))).toEqual(['uw']);
  });

  it('puts the campus whose domain starts with the query first ("uw", "umich")', () => {
    expect(slugs(findCampuses(ALL, 'uw'))).toEqual(['uw']);
    expect(slugs(findCampuses(ALL, 'umi'))).toEqual(['umich']);
    // "u…": the domains that start with it, then the names with a word that does.
    expect(slugs(findCampuses(ALL, 'u'))).toEqual(['umich', 'uw', 'msu', 'osu']);
  });

  it('finds a campus by its domain, an address or a subdomain of it', () => {
    expect(slugs(findCampuses(ALL, 'uw.edu'))).toEqual(['uw']);
    expect(slugs(findCampuses(ALL, '@uw.edu'))).toEqual(['uw']);
    expect(slugs(findCampuses(ALL, 'jane.doe@UW.edu'))).toEqual(['uw']);
    expect(slugs(findCampuses(ALL, 'jane@cs.uw.edu'))).toEqual(['uw']);
    expect(slugs(findCampuses(ALL, 'buckeyemail.osu.edu'))).toEqual(['osu']);
    // A domain being typed: the domains it starts.
    expect(slugs(findCampuses(ALL, 'jane@um'))).toEqual(['umich']);
    // Only the domain, not the name, answers an address.
    expect(slugs(findCampuses(ALL, 'jane@washington.edu'))).toEqual([]);
  });

  it('lists every campus while only the local part of an address is typed', () => {
    expect(slugs(findCampuses(ALL, 'jane@'))).toEqual(['msu', 'osu', 'umich', 'uw']);
  });

  it('finds nothing for a campus not on Campus Market', () => {
    expect(findCampuses(ALL, 'harvard')).toEqual([]);
    expect(findCampuses(ALL, 'harvard.edu')).toEqual([]);
    expect(findCampuses([], 'uw')).toEqual([]);
  });

  it('keeps the list short', () => {
    const many = Array.from({ length: 30 }, (_, i) => ({
      slug: `c${i}`,
      name: `College ${String(i).padStart(2, '0')}`,
      emailDomains: [`c${i}.edu`],
    }));
    expect(findCampuses(many, 'college')).toHaveLength(8);
    expect(findCampuses(many, '', 5).map((c) => c.name)).toEqual([
      'College 00',
      'College 01',
      'College 02',
      'College 03',
      'College 04',
    ]);
  });
});

describe('domainOf', () => {
  it('reads a domain from an address or a domain, and nothing from a name', () => {
    expect(domainOf('jane@UW.edu ')).toBe('uw.edu');
    expect(domainOf('@uw.edu')).toBe('uw.edu');
    expect(domainOf('uw.edu')).toBe('uw.edu');
    expect(domainOf('University of Washington')).toBeNull();
    expect(domainOf('uw')).toBeNull();
  });
});

describe('campusForEmail', () => {
  it("applies the server's rule: the longest listed domain the address is under", () => {
    expect(campusForEmail(ALL, 'jane@uw.edu')?.slug).toBe('uw');
    expect(campusForEmail(ALL, 'Jane@Students.UW.edu')?.slug).toBe('uw');
    expect(campusForEmail([...ALL, CS], 'jane@cs.uw.edu')?.slug).toBe('uw-cs');
    expect(campusForEmail([...ALL, CS], 'jane@ee.uw.edu')?.slug).toBe('uw');
  });

  it('finds no campus for another domain, a look-alike or a half-typed address', () => {
    expect(campusForEmail(ALL, 'jane@gmail.com')).toBeNull();
    expect(campusForEmail(ALL, 'jane@notuw.edu')).toBeNull();
    expect(campusForEmail(ALL, 'jane@uw.edu.evil.com')).toBeNull();
    expect(campusForEmail(ALL, 'jane@')).toBeNull();
    expect(campusForEmail(ALL, 'jane')).toBeNull();
  });
});

describe('campus wording', () => {
  it('says which addresses a campus accepts', () => {
    expect(addressHint(['uw.edu'])).toBe('Use your @uw.edu address');
    expect(addressHint(['osu.edu', 'buckeyemail.osu.edu'])).toBe(
      'Use your @osu.edu or @buckeyemail.osu.edu address',
    );
    expect(addressList(['a.edu', 'b.edu', 'c.edu'])).toBe('@a.edu, @b.edu or @c.edu');
    expect(addressHint([])).toBe('Use your university e-mail address');
  });

  it('promises verified students of the campus, by its name', () => {
    expect(onlyVerifiedStudents('MSU')).toBe('Only for verified MSU students');
    expect(onlyVerifiedStudents('The Ohio State University')).toBe(
      'Only for verified students of The Ohio State University',
    );
    expect(onlyVerifiedStudents(null)).toBe('Only for verified university students');
  });
});
