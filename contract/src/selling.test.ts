import { describe, expect, it } from 'vitest';
import { normalizeCourseCode, normalizeIsbn } from './selling-rules.js';

describe('normalizeIsbn', () => {
  it('accepts ISBN-13 with a valid check digit, with or without hyphens and spaces', () => {
    // Introduction to Algorithms, 3rd edition (MIT Press).
    expect(normalizeIsbn('978-0-262-03384-8')).toBe('9780262033848');
    expect(normalizeIsbn('978 0 306 40615 7')).toBe('9780306406157');
    expect(normalizeIsbn('9780306406157')).toBe('9780306406157');
  });

  it('turns a valid ISBN-10 into its ISBN-13, X check digit included', () => {
    expect(normalizeIsbn('0-262-03384-4')).toBe('9780262033848');
    expect(normalizeIsbn('0306406152')).toBe('9780306406157');
    expect(normalizeIsbn('0-8044-2957-X')).toBe('9780804429573');
    expect(normalizeIsbn('080442957x')).toBe('9780804429573');
  });

  it('refuses wrong check digits, wrong lengths, other prefixes and letters', () => {
    expect(normalizeIsbn('978-0-262-03384-9')).toBeNull();
    expect(normalizeIsbn('0-262-03384-5')).toBeNull();
    expect(normalizeIsbn('0306406153')).toBeNull();
    expect(normalizeIsbn('977-0-306-40615-7')).toBeNull();
    expect(normalizeIsbn('978030640615')).toBeNull();
    expect(normalizeIsbn('97803064061570')).toBeNull();
    expect(normalizeIsbn('X306406152')).toBeNull();
    expect(normalizeIsbn('')).toBeNull();
  });
});

describe('normalizeCourseCode', () => {
  it('keeps letters and the number, upper case, without spaces, dots or dashes', () => {
    expect(normalizeCourseCode('CSE 232')).toBe('CSE232');
    expect(normalizeCourseCode('cse232')).toBe('CSE232');
    expect(normalizeCourseCode(' math-101h ')).toBe('MATH101H');
    expect(normalizeCourseCode('Phy. 183')).toBe('PHY183');
  });

  it('refuses what is not letters then a number', () => {
    expect(normalizeCourseCode('232')).toBeNull();
    expect(normalizeCourseCode('CSE')).toBeNull();
    expect(normalizeCourseCode('C 232')).toBeNull();
    expect(normalizeCourseCode('232 CSE')).toBeNull();
    expect(normalizeCourseCode('CSE 23256')).toBeNull();
    expect(normalizeCourseCode('calculus book')).toBeNull();
  });
});
