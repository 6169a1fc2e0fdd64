import { accountsAndChatCases } from './cases-accounts-chat.js';
import { claimsCases } from './cases-claims.js';
import { dealsCases } from './cases-deals.js';
import { listingsAndSellingCases } from './cases-listings-selling.js';
import { movingOutCases } from './cases-moving-out.js';
import { notificationsCases } from './cases-notifications.js';
import { trustAndSafetyCases } from './cases-trust-safety.js';
import type { CaseTable } from './matrix.js';

/** Where a route's case goes, by the module that registers it (named in the missing-case message). */
export const CASE_FILES = 'server/test/isolation/cases-*.ts (the file of the module that owns the route)';

const tables: CaseTable[] = [
  accountsAndChatCases,
  dealsCases,
  listingsAndSellingCases,
  trustAndSafetyCases,
  notificationsCases,
  claimsCases,
  movingOutCases,
];

/** Every route's case; a route in two files is a mistake the matrix test reports. */
export const CASES: CaseTable = Object.assign({}, ...tables);

export const DUPLICATE_KEYS: string[] = tables
  .flatMap((table) => Object.keys(table))
  .filter((key, index, keys) => keys.indexOf(key) !== index);
