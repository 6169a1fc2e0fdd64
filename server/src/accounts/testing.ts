/** Test helpers for the accounts module (used by its *.test.ts files only). */
import type { TestApp } from '../../test/helper.js';

let seq = 0;

/** An address no test has used yet, at `domain` (MSU's by default). */
export const freshEmail = (domain = 'msu.edu') => `acct${++seq}-${Date.now().toString(36)}@${domain}`;

/** A JSON POST to the app, as the web app's public calls are made. */
export const postJson = (t: TestApp, url: string, payload: unknown) =>
  t.app.inject({ method: 'POST', url, payload: payload as object });
