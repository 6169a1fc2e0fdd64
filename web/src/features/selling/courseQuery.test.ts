import { describe, expect, it } from 'vitest';
import { booksLabel, courseCodeInQuery } from './courseQuery';

describe('courseCodeInQuery', () => {
  it('reads a course code in any spacing or case', () => {
    expect(courseCodeInQuery('cse 232')).toBe('CSE232');
    expect(courseCodeInQuery('CSE232')).toBe('CSE232');
    expect(courseCodeInQuery(' mth-132 ')).toBe('MTH132');
  });

  it('finds a code inside longer searches', () => {
    expect(courseCodeInQuery('cse 232 textbook')).toBe('CSE232');
    expect(courseCodeInQuery('books for psy101')).toBe('PSY101');
  });

  it('answers null when the search names no course', () => {
    expect(courseCodeInQuery('calculus')).toBeNull();
    expect(courseCodeInQuery('ps5')).toBeNull();
    expect(courseCodeInQuery('')).toBeNull();
  });

  it('counts books in words', () => {
    expect(booksLabel(1)).toBe('1 book');
    expect(booksLabel(3)).toBe('3 books');
  });
});
