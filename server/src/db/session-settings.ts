/**
 * Settings every PostgreSQL connection of the app starts with, for short requests on a few cores:
 * - no parallel query: a browse page under row-level security was planned as a parallel scan whose
 *   workers took 72 ms to start, for a page the plain scan reads in 0.5 ms (2M listings), and
 *   searches gained nothing from workers sharing the same two cores;
 * - no JIT compilation: compiling a search's expressions took 0.8 s of a 1.3 s search.
 * Sent as the first statement on each new connection (the app's pool: with the campus scope,
 * row-security.ts; the search reader's: when Kysely creates the connection), rather than as
 * startup options, so a pooler in front of PostgreSQL does not have to accept them.
 */
export const SESSION_SETTINGS_SQL = 'set max_parallel_workers_per_gather = 0; set jit = off';
