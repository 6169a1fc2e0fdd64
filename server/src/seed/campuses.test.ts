/**
 * Which campuses `npm run seed:demo` fills: the operator's (CAMPUSES), or, on a deployment of one
 * campus, that campus plus a demo campus written to DATA_DIR/campuses.json for the server to start with.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_PROHIBITED_RULES } from '@campus/contract';
import { demoCampuses } from './campuses.js';

describe('demoCampuses', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'cm-seed-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('adds a demo campus beside the single campus, in a file the server starts with', () => {
    const { config, file, written } = demoCampuses({ DATA_DIR: dir });
    expect(written).toBe(true);
    expect(file).toBe(path.join(dir, 'campuses.json'));
    expect(config.campuses.map((c) => [c.slug, c.name, c.emailDomains, c.isDefault])).toEqual([
      ['msu', 'MSU', ['msu.edu'], true],
      ['uw', 'University of Washington', ['uw.edu'], false],
    ]);
    // The single campus keeps its settings: the time zone, spots and rules it had.
    const single = demoCampuses({ DATA_DIR: path.join(dir, 'other') }).config;
    expect(config.campuses[0]?.timeZone).toBe('America/Detroit');
    expect(config.campuses[0]?.prohibitedRules).toEqual(single.campuses[0]?.prohibitedRules);
  });

  it("keeps the single campus's own settings, and picks a demo campus that clashes with none", () => {
    const { config } = demoCampuses({
      DATA_DIR: dir,
      CAMPUS_NAME: 'University of Washington Tacoma',
      CAMPUS_SLUG: 'uw',
      ALLOWED_EMAIL_DOMAINS: 'uw.edu',
      CAMPUS_TIMEZONE: 'America/Los_Angeles',
      MODERATOR_EMAILS: 'mod@uw.edu',
      PROHIBITED_TERMS: 'dorm keys: dorm key',
    });
    const [own, demo] = config.campuses;
    expect(own).toMatchObject({
      slug: 'uw',
      name: 'University of Washington Tacoma',
      timeZone: 'America/Los_Angeles',
      moderators: ['mod@uw.edu'],
      isDefault: true,
    });
    // A campus file can only add rules to the defaults every campus has.
    expect(own?.prohibitedRules).toEqual([
      ...DEFAULT_PROHIBITED_RULES,
      { rule: 'dorm keys', terms: ['dorm key'] },
    ]);
    expect(demo).toMatchObject({ slug: 'demo-state', emailDomains: ['demostate.edu'], isDefault: false });
  });

  it('uses the file of an earlier run as it is', () => {
    demoCampuses({ DATA_DIR: dir });
    const file = path.join(dir, 'campuses.json');
    const edited = JSON.parse(readFileSync(file, 'utf8')) as Array<{ name: string }>;
    edited[1]!.name = 'UW Seattle';
    writeFileSync(file, JSON.stringify(edited));
    const again = demoCampuses({ DATA_DIR: dir });
    expect(again.written).toBe(false);
    expect(again.config.campuses.map((c) => c.name)).toEqual(['MSU', 'UW Seattle']);
  });

  it("fills the operator's campuses when CAMPUSES is set, and writes no file", () => {
    const campuses = [
      { slug: 'a', name: 'A', emailDomains: ['a.edu'], timeZone: 'UTC' },
      { slug: 'b', name: 'B', emailDomains: ['b.edu'], timeZone: 'UTC' },
      { slug: 'c', name: 'C', emailDomains: ['c.edu'], timeZone: 'UTC' },
    ];
    const result = demoCampuses({ DATA_DIR: dir, CAMPUSES: JSON.stringify(campuses) });
    expect(result).toMatchObject({ file: null, written: false });
    expect(result.config.campuses.map((c) => c.slug)).toEqual(['a', 'b', 'c']);
    expect(existsSync(path.join(dir, 'campuses.json'))).toBe(false);
  });
});
