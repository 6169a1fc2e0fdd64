/**
 * Text folding for the safety checks (prohibited terms, the anti-scam guard): what a reader sees,
 * not how it is encoded. "v\u00ADa\u200Bpe" (soft hyphen, zero-width space), "vаpe" with a Cyrillic а
 * and "ｖａｐｅ" in full-width letters all fold to "vape". The folded text is only ever matched,
 * never shown or stored.
 */

/**
 * Latin look-alikes (Unicode's confusables for the letters that matter) in Cyrillic and Greek, by
 * the Latin letter they pass for. Both cases are listed because a capital and its small letter do
 * not always pass for the same letter (Greek Η is H, η is n), so this runs before lower-casing.
 */
const LOOK_ALIKES_OF: Readonly<Record<string, string>> = {
  a: 'АаΑαɑ',
  b: 'ВвЬьΒβ',
  c: 'СсϲϹ',
  d: 'ԁ',
  e: 'ЕеЁёΕε',
  h: 'ҺһНнΗ',
  i: 'ІіЇїΙιı',
  j: 'Јјȷ',
  k: 'КкΚκ',
  l: 'Ӏӏ',
  m: 'МмΜ',
  n: 'Νη',
  o: 'ОоΟοσ',
  p: 'РрΡρ',
  q: 'Ԛԛ',
  s: 'Ѕѕſ',
  t: 'ТтΤτ',
  u: 'υ',
  v: 'Ѵѵν',
  w: 'Ԝԝω',
  x: 'ХхΧχ',
  y: 'УуҮүΥγ',
  z: 'Ζ',
};

const LOOK_ALIKES = new Map(
  Object.entries(LOOK_ALIKES_OF).flatMap(([latin, chars]) => [...chars].map((c) => [c, latin] as const)),
);
// eslint-disable-next-line no-control-regex -- every ASCII character, control ones included
const ASCII = /^[\u0000-\u007f]*$/;
const LOOK_ALIKE = new RegExp(`[${[...LOOK_ALIKES.keys()].join('')}]`, 'gu');

/**
 * Folds text for matching: format characters (Unicode category Cf: zero-width space and joiners,
 * soft hyphen, word joiner, direction marks) dropped, compatibility forms unified (NFKC: full-width
 * letters and digits, ligatures), Cyrillic and Greek look-alikes mapped to Latin letters, lower
 * case, accents removed. Punctuation, digits and spaces stay where they were.
 */
export function foldText(text: string): string {
  // Plain ASCII (most texts) has nothing to fold but case: no format characters, no look-alikes.
  if (ASCII.test(text)) return text.toLowerCase();
  return text
    .replace(/\p{Cf}/gu, '')
    .normalize('NFKC')
    .replace(LOOK_ALIKE, (c) => LOOK_ALIKES.get(c) ?? c)
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}/gu, '');
}
