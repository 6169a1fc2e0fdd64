/**
 * The accounts module's front door. Other modules use only what is exported here: the token
 * state for STOMP's revalidation (chat), password checks and the re-verification a lapsed
 * student status starts (safety), what the demo seed needs to create verified students, and
 * AccountsService's university sign-in (sso: `signInFromUniversity`, `tokenForUniversitySignIn`).
 */
export { AccountsService } from './service.js';
export { accountsRoutes } from './routes.js';
export { hashPassword, verifyPassword } from './passwords.js';
export { restartVerification } from './reverify.js';
export { findTokenState, findUserByEmail, insertVerifiedUser, type UserRow } from './store.js';
