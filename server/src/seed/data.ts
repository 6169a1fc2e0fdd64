import type { CampusSettingsInput } from '@campus/contract';

/**
 * The campus `npm run seed:demo` adds beside the default one when CAMPUSES is unset, so a newcomer
 * sees two closed marketplaces in one deployment (features.md §E). The first whose slug and
 * domains the configured campus does not already use.
 */
export const DEMO_SECOND_CAMPUSES: CampusSettingsInput[] = [
  {
    slug: 'uw',
    name: 'University of Washington',
    emailDomains: ['uw.edu'],
    timeZone: 'America/Los_Angeles',
    about:
      'Campus Market at the University of Washington is a demo campus: its students, listings and chats are its own, and nobody from another campus sees them.',
    meetupSpots: [
      { id: 'suzzallo', name: 'Suzzallo Library steps', description: 'By the main doors on Red Square.' },
      { id: 'hub', name: 'HUB lobby', description: 'Ground floor of the student union, busy all day.' },
      { id: 'uwpd', name: 'UW Police station', description: 'Outside the station, lit and on camera.' },
    ],
  },
  {
    slug: 'demo-state',
    name: 'Demo State University',
    emailDomains: ['demostate.edu'],
    timeZone: 'America/Chicago',
  },
];

/** Demo students (all verified; password DEMO_PASSWORD). The local part is joined with the first allowed domain. */
export const DEMO_STUDENTS = [
  { local: 'maya.chen.demo', firstName: 'Maya', lastName: 'Chen' },
  { local: 'jordan.brooks.demo', firstName: 'Jordan', lastName: 'Brooks' },
  { local: 'priya.patel.demo', firstName: 'Priya', lastName: 'Patel' },
  { local: 'sam.okafor.demo', firstName: 'Sam', lastName: 'Okafor' },
  { local: 'lena.novak.demo', firstName: 'Lena', lastName: 'Novak' },
  { local: 'diego.ramirez.demo', firstName: 'Diego', lastName: 'Ramirez' },
] as const;

export const DEMO_PASSWORD = 'green-and-white-demo';

// The demo listings are in demo-listings.ts (books with their courses in demo-books.ts).
export { DEMO_LISTINGS, type DemoListing } from './demo-listings.js';
