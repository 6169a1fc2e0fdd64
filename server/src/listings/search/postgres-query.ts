import { CATEGORIES, normalizeCourseCode, normalizeIsbn } from '@campus/contract';
import { sql, type RawBuilder } from 'kysely';
import { ON_MARKET_SQL } from '../../db/migrations/022_search_in_postgres.js';
import { LISTING_TEXT_WORDS_SQL } from '../../db/migrations/024_search_words_of_text.js';
import { KEY_WEIGHTS, MAX_PATTERN, compilePattern, fieldNorm, keyScore, maxErrors } from './fuse-score.js';
import type { SearchAfter, SearchFilters } from './search-types.js';

/**
 * The SQL of a search in PostgreSQL (postgres-search.ts), built to answer what the memory index
 * answers (Fuse.js's rules, fuse-score.ts) from indexes instead of a copy of the listings:
 *
 * - Candidates come from the campus-leading GIN indexes of migration 022: names sharing enough of
 *   the query's trigrams (`<%`, word similarity at least `candidateSimilarity`), descriptions
 *   holding the query (`ilike`, all its trigrams), the weighted words (full text: every query word,
 *   stemmed), the categories whose name the query matches, and books whose course code or ISBN the
 *   query is.
 * - Each candidate is then checked and scored per key as Fuse does, in log space: the whole field
 *   equal to the query, the query as a substring, or (names only) within Fuse's typo budget
 *   (⌊0.3·m⌋ edits): for a one-word query by Levenshtein distance to the start or end of a word of
 *   the name (trigrams alone cannot tell "lump" from "laptop" for "lamp"); for several words by
 *   word similarity ≥ PHRASE_SIMILARITY. Descriptions match by their exact text only: a typo
 *   search over every description's trigrams read tens of thousands of rows per query at 100k
 *   listings (docs/decisions.md, "Search in PostgreSQL").
 * - Key strengths are −ln(Fuse's key score), weighted 0.5/0.3/0.2 and by the field-length norm, so
 *   exp(−relevance) is Fuse's product. A listing found by its words alone (spread over its fields)
 *   scores by ts_rank with weights A/B. A course code or ISBN equal to the query scores 0.
 * Lower scores rank first, ties newest first, as in the memory index.
 */

/** Word similarity a field must reach to match a query of several words. */
const PHRASE_SIMILARITY = 0.6;
/** −ln of Fuse's scores: the whole field equal (0, counted as EPSILON), an exact substring (0.001). */
const EQUAL_STRENGTH = -Math.log(Number.EPSILON);
const SUBSTRING_STRENGTH = -Math.log(0.001);
/**
 * A listing found by full text alone scores ts_rank times this (one word in the name ≈ 0.3, in the
 * description ≈ 0.18): about as strong as a typo match of its name, weaker than the query's text in it.
 */
const WORDS_SCALE = 4;
/** ts_rank weights {D, C, B, A}: description B, name A, as the keys' weights (no C: migration 024). */
const WORD_WEIGHTS = `'{0, ${KEY_WEIGHTS[2]}, ${KEY_WEIGHTS[1]}, ${KEY_WEIGHTS[0]}}'::float4[]`;

const WORDS = sql.raw(LISTING_TEXT_WORDS_SQL);

/** A query prepared once: its lower-cased text, Fuse's typo budget and what it equals. */
export interface PreparedQuery {
  text: string;
  lower: string;
  length: number;
  maxErrors: number;
  oneWord: boolean;
  courseCode: string | null;
  isbn: string | null;
  /** Per category whose name the query matches, its weighted strength (exact, from fuse-score.ts). */
  categories: Map<string, number>;
  /** pg_trgm.word_similarity_threshold for this query's name candidates (candidateSimilarity). */
  similarity: number;
  /** The same for the deep search, run when the usual one finds nothing. */
  deepSimilarity: number;
  /** Whether it holds three letters or digits in a row, which trigram indexes can look up. */
  trigrams: boolean;
}

/**
 * The word similarity a name must reach to be a candidate. pg_trgm's word similarity of a word
 * within e edits of a one-word query with n trigrams is at least about (n − 3e)/(n + 3e) (an edit
 * changes at most three trigrams). The usual search allows one edit (floor 0.3, cap 0.45): what
 * students mostly mistype, and few candidates to read. A search that finds nothing that way is run
 * again `deep` (postgres-search.ts): two edits from 7 letters on (Fuse allows one per 3⅓ letters; a
 * swap of two letters, "bycicle", is two), floor 0.25 — up to five times the candidates, paid only
 * by searches that would otherwise show nothing. A query of several words must reach
 * PHRASE_SIMILARITY anyway.
 */
export function candidateSimilarity(length: number, oneWord: boolean, deep: boolean): number {
  if (!oneWord) return PHRASE_SIMILARITY;
  const n = length + 1;
  const e = deep && length >= 7 ? 2 : 1;
  const bound = (n - 3 * e) / (n + 3 * e);
  return Math.min(0.45, Math.max(deep ? 0.25 : 0.3, Math.floor(bound * 100) / 100));
}

export function prepareQuery(text: string): PreparedQuery {
  const lower = text.toLowerCase();
  const categories = new Map<string, number>();
  if (lower.length <= MAX_PATTERN) {
    const pattern = compilePattern(text);
    for (const c of CATEGORIES) {
      const score = keyScore(pattern, c.toLowerCase(), 0);
      if (score < 0) continue;
      const strength = score === 0 ? EQUAL_STRENGTH : -Math.log(score);
      categories.set(c, KEY_WEIGHTS[2] * fieldNorm(c) * strength);
    }
  }
  const oneWord = !lower.includes(' ');
  const trigrams = /[\p{L}\p{N}]{3}/u.test(lower);
  return {
    text,
    lower,
    length: lower.length,
    maxErrors: maxErrors(lower.length),
    oneWord,
    similarity: candidateSimilarity(lower.length, oneWord, false),
    // Without trigrams there are no typo candidates, so no deep pass either.
    deepSimilarity: candidateSimilarity(lower.length, oneWord, trigrams),
    trigrams,
    courseCode: normalizeCourseCode(text),
    isbn: normalizeIsbn(text),
    categories,
  };
}

/**
 * The query's words for full text, found in a listing's name or description (migration 024: not in
 * its category, which is a key of its own). Without weights, so the index answers without checking
 * each row's words again.
 */
function wordsQuery(q: PreparedQuery): RawBuilder<unknown> {
  return sql`plainto_tsquery('english'::regconfig, ${q.text})`;
}

/** Whether the listing's course code or ISBN is the query (those books rank first). */
function codeMatch(q: PreparedQuery): RawBuilder<boolean> {
  const parts: RawBuilder<unknown>[] = [];
  if (q.courseCode) parts.push(sql`listings.course_code = ${q.courseCode}`);
  if (q.isbn) parts.push(sql`listings.isbn = ${q.isbn}`);
  return parts.length === 0 ? sql<boolean>`false` : sql<boolean>`(${sql.join(parts, sql` or `)})`;
}

/** `like` pattern for the query as a substring (short queries: Fuse allows them no typo). */
function likePattern(lower: string): string {
  return `%${lower.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * Which candidates a search reads: `all`, or `typed` — only listings holding the query as typed (in
 * name or description), its words, a matching category or the code, without the names within a
 * typo, which are most of the candidates of a short query (typoBound says when they can be skipped).
 */
export type CandidateSet = 'all' | 'typed';

/**
 * Rows the indexes offer: any key that may match, or the code; without `categories` (a relevance
 * page reads them apart, categoryPages), not the listings found only by their category.
 */
function candidates(q: PreparedQuery, set: CandidateSet, categories = true): RawBuilder<boolean> {
  const parts: RawBuilder<unknown>[] = [];
  const like = likePattern(q.lower);
  if (!q.trigrams) {
    // Nothing for a trigram index to look up ("a", "!!!!"): a GIN index would read all of its
    // entries; the campus's slice of the browse index, filtered, is cheaper.
    parts.push(
      sql`strpos(lower(listings.name), ${q.lower}) > 0`,
      sql`strpos(lower(listings.description), ${q.lower}) > 0`,
    );
  } else if (q.length < 4) {
    // Up to 3 characters Fuse allows no typo: the query must appear as it is.
    parts.push(sql`listings.name ilike ${like}`, sql`listings.description ilike ${like}`);
  } else {
    parts.push(
      set === 'all' ? sql`${q.lower} <% listings.name` : sql`listings.name ilike ${like}`,
      sql`listings.description ilike ${like}`,
    );
    parts.push(sql`${WORDS} @@ ${wordsQuery(q)}`);
  }
  if (categories && q.categories.size > 0)
    parts.push(sql`listings.category in (${sql.join([...q.categories.keys()])})`);
  if (q.courseCode || q.isbn) parts.push(codeMatch(q));
  return sql<boolean>`(${sql.join(parts, sql` or `)})`;
}

/** Where a relevance page starts and how long it is: what categoryPages needs to read. */
export interface RelevancePage {
  limit: number;
  after?: SearchAfter;
}

/**
 * The listings a relevance page can take from the categories the query names ("books", a whole
 * category) beyond the other candidates: a listing found by its category alone scores exactly that
 * category's strength, so all of them tie and rank newest first, and only the newest `limit` after
 * the page's start can enter the page — instead of every listing of the category (a seventh of the
 * campus) read and scored.
 */
function categoryPages(
  q: PreparedQuery,
  set: CandidateSet,
  where: RawBuilder<boolean>,
  page: RelevancePage,
): RawBuilder<unknown>[] {
  return [...q.categories].map(([category, strength]) => {
    // The score such a listing gets in matches(), the same expression on the same values.
    const score = sql`exp(-(${strength}::float8))`;
    const after = page.after
      ? sql`and (${score} > ${page.after.score}::float8 or (${score} = ${page.after.score}::float8 and listings.id < ${page.after.id}::int))`
      : sql``;
    return sql`(select listings.* from listings
      where ${where} and listings.category = ${category} ${after} and not ${candidates(q, set, false)}
      order by listings.id desc limit ${page.limit}::int)`;
  });
}

/** Fuse's field-length norm: 1/√(words), to three decimals (words counted by spaces). */
function norm(field: RawBuilder<string>): RawBuilder<number> {
  return sql<number>`(round(1000 / sqrt(greatest(1, 1 + length(btrim(${field})) - length(replace(btrim(${field}), ' ', ''))))) / 1000)`;
}

/** −ln(Fuse's key score) of one text field, 0 when it does not match; typos only when `typos`. */
function strength(q: PreparedQuery, field: RawBuilder<string>, typos: boolean): RawBuilder<number> {
  let approximate: RawBuilder<number>;
  if (q.length < 4 || !typos || !q.trigrams) approximate = sql<number>`0`;
  else if (q.oneWord) {
    const k = q.maxErrors;
    const m = q.length;
    // The fewest edits from the query to the start or the end of some word of the field (a word
    // typed with a typo, its beginning, or its end: "books" in "textbook"), within the budget.
    approximate = sql<number>`(case when ${q.lower} <% ${field} then coalesce((
      select -ln(greatest(0.001, min(d)::float8 / ${m}::float8))
      from (
        select least(
          levenshtein_less_equal(${q.lower}, left(w, ${m - 1}::int), ${k}::int),
          levenshtein_less_equal(${q.lower}, left(w, ${m}::int), ${k}::int),
          levenshtein_less_equal(${q.lower}, left(w, ${m + 1}::int), ${k}::int),
          levenshtein_less_equal(${q.lower}, right(w, ${m - 1}::int), ${k}::int),
          levenshtein_less_equal(${q.lower}, right(w, ${m}::int), ${k}::int),
          levenshtein_less_equal(${q.lower}, right(w, ${m + 1}::int), ${k}::int)
        ) as d
        from regexp_split_to_table(lower(${field}), '[^[:alnum:]]+') as w
        where w <> ''
      ) as words
      where d <= ${k}::int
      having count(*) > 0
    ), 0) else 0 end)`;
  } else {
    approximate = sql<number>`(case when word_similarity(${q.lower}, ${field}) >= ${PHRASE_SIMILARITY}::float8
      then -ln(greatest(0.001, least(0.3, (1 - word_similarity(${q.lower}, ${field})) / 2)))
      else 0 end)`;
  }
  return sql<number>`(case when lower(${field}) = ${q.lower} then ${EQUAL_STRENGTH}::float8
    when strpos(lower(${field}), ${q.lower}) > 0 then ${SUBSTRING_STRENGTH}::float8
    else ${approximate} end)`;
}

/** The category key's weighted strength, worked out in JS for the handful of categories. */
function categoryStrength(q: PreparedQuery): RawBuilder<number> {
  if (q.categories.size === 0) return sql<number>`0`;
  const cases = [...q.categories].map(([c, s]) => sql`when ${c} then ${s}::float8`);
  return sql<number>`(case listings.category ${sql.join(cases, sql` `)} else 0 end)`;
}

/**
 * The strength of a listing found by full text alone (every query word), weighted A/B: the words
 * are worked out only for the listings the words index returns for the query, not for every candidate.
 */
function wordsStrength(q: PreparedQuery, campusId: number): RawBuilder<number> {
  if (q.length < 4 || !q.trigrams) return sql<number>`0`;
  const tsq = wordsQuery(q);
  return sql<number>`(case when id in (
      select listings.id from listings
      where listings.campus_id = ${campusId}::int and ${sql.raw(ON_MARKET_SQL)} and ${WORDS} @@ ${tsq}
    ) then ${WORDS_SCALE}::float8 * ts_rank(${sql.raw(WORD_WEIGHTS)}, ${WORDS}, ${tsq}) else 0 end)`;
}

/** Fuse's document score in log space: the weighted sum of the matching keys' strengths. */
function keyStrengths(q: PreparedQuery): RawBuilder<number> {
  const name = sql<string>`listings.name`;
  const description = sql<string>`listings.description`;
  return sql<number>`(${KEY_WEIGHTS[0]}::float8 * ${norm(name)} * ${strength(q, name, true)}
    + ${KEY_WEIGHTS[1]}::float8 * ${norm(description)} * ${strength(q, description, false)}
    + ${categoryStrength(q)})`;
}

/**
 * The filters, campus, market and listed-period conditions every search applies. Category and
 * price are written so no index answers them (`|| ''`, `+ 0`): given a category index, PostgreSQL
 * read a whole category (10,000 listings at a campus of 100,000) and tested the text on each one,
 * 0.6 s, where the text indexes find the few hundred candidates first and the filters drop rows
 * from those. A course code or ISBN still uses its index: few listings carry one.
 */
function conditions(campusId: number, filters: SearchFilters, now: number): RawBuilder<boolean> {
  // The market conditions as literals, so the planner sees the partial indexes' predicate.
  const parts: RawBuilder<unknown>[] = [
    sql`listings.campus_id = ${campusId}::int`,
    sql.raw(ON_MARKET_SQL),
    sql`(listings.expires_at is null or listings.expires_at > ${now})`,
  ];
  if (filters.categories?.length)
    parts.push(sql`(listings.category || '') in (${sql.join([...filters.categories])})`);
  if (filters.minCents !== undefined) parts.push(sql`listings.price_cents + 0 >= ${filters.minCents}`);
  if (filters.maxCents !== undefined) parts.push(sql`listings.price_cents + 0 <= ${filters.maxCents}`);
  if (filters.conditions?.length)
    parts.push(sql`listings.condition in (${sql.join([...filters.conditions])})`);
  if (filters.courseCode !== undefined) parts.push(sql`listings.course_code = ${filters.courseCode}`);
  if (filters.isbn !== undefined) parts.push(sql`listings.isbn = ${filters.isbn}`);
  if (filters.excludeSellers?.length)
    parts.push(sql`listings.seller_id not in (${sql.join([...filters.excludeSellers])})`);
  return sql<boolean>`${sql.join(parts, sql` and `)}`;
}

/**
 * Every listing of the campus the query matches, with its score: (id, price, score), score 0 for a
 * code match. The caller orders, pages and limits it. The keys are scored once per candidate
 * (`offset 0` keeps PostgreSQL from repeating them in the outer expressions, which doubled the time), and the words
 * (to_tsvector of each candidate) only for candidates no key matched.
 */
export function matches(
  q: PreparedQuery,
  campusId: number,
  filters: SearchFilters,
  now: number,
  set: CandidateSet = 'all',
  page?: RelevancePage,
): RawBuilder<{ id: number; price: number; score: number }> {
  const where = conditions(campusId, filters, now);
  // A relevance page reads the listings found by category alone apart (categoryPages); other
  // orders need every one of them.
  const rows =
    page && q.categories.size > 0
      ? sql`(select listings.* from listings where ${where} and ${candidates(q, set, false)}
          union all ${sql.join(categoryPages(q, set, where, page), sql` union all `)}) as listings`
      : sql`listings where ${where} and ${candidates(q, set)}`;
  return sql`(select id, price, case when code then 0::float8 else exp(-rel) end as score
    from (
      select id, price, code, case when keys > 0 then keys else ${wordsStrength(q, campusId)} end as rel
      from (
        select listings.id, listings.price_cents as price, listings.name, listings.description,
          listings.category, ${codeMatch(q)} as code, ${keyStrengths(q)} as keys
        from ${rows}
        offset 0
      ) as keyed
      offset 0
    ) as scored
    where code or rel > 0)`;
}

/**
 * The best score (lowest) a listing outside the `typed` candidates can reach: its only match is a
 * name within a typo (it holds neither the query nor its words, has no matching category or code,
 * and descriptions match only as typed), so at best a one-edit name of one word: 0.5 · −ln(1/m), or
 * for several words a phrase as strong as a substring. When a `typed` page is full of listings
 * scoring below this, the typo candidates cannot enter it.
 */
export function typoBound(q: PreparedQuery): number {
  if (q.length < 4 || !q.trigrams) return 0;
  const strength = q.oneWord ? Math.log(q.length) : SUBSTRING_STRENGTH;
  return Math.exp(-KEY_WEIGHTS[0] * strength);
}
