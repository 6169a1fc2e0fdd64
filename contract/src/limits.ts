/** Business constants and limits shared by server and web (spec §5, §9; design §4). */
export const LIMITS = {
  passwordMin: 8,
  passwordMax: 128,
  nameMax: 60,
  emailMax: 254,
  listingNameMax: 120,
  descriptionMax: 900,
  chatContentMax: 2_000,
  imageMaxBytes: 10 * 1024 * 1024,
  imageMaxPixels: 40_000_000,
  imageMaxSide: 1600,
  thumbnailSide: 480,
  codeDigits: 6,
  codeTtlMinutes: 10,
  codeMaxTries: 5,
  pageDefault: 24,
  pageMax: 100,
  chatPageDefault: 200,
  chatPageMax: 500,
} as const;

/** Client-side timings (spec §9). */
export const TIMINGS = {
  requestTimeoutMs: 15_000,
  deleteConfirmMs: 6_000,
  passwordRedirectMs: 1_200,
  reconnectDelayMs: 5_000,
  verifyToastMs: 4_000,
  toastMs: 3_000,
} as const;

/** Browser-side image compression (spec §9). */
export const IMAGE_COMPRESSION = {
  maxWidthOrHeight: 1600,
  initialQuality: 0.8,
  maxIteration: 4,
  fileType: 'image/jpeg',
} as const;

/** Fuzzy search model (spec §5): Fuse.js keys, weights and threshold. */
export const FUZZY_SEARCH = {
  keys: [
    { name: 'name', weight: 0.5 },
    { name: 'description', weight: 0.3 },
    { name: 'category', weight: 0.2 },
  ],
  threshold: 0.3,
  ignoreLocation: true,
} as const;

/** Longest accepted search text (GET /listings/search?query=). */
export const SEARCH_QUERY_MAX = 100;
