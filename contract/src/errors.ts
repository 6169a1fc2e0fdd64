/** Every error answer: JSON with a message a person can act on and a stable code (design §3). */
export interface ApiError {
  message: string;
  code: string;
}

export const ERROR_CODES = {
  validation: 'VALIDATION',
  unauthorized: 'UNAUTHORIZED',
  forbidden: 'FORBIDDEN',
  notFound: 'NOT_FOUND',
  conflict: 'CONFLICT',
  rateLimited: 'RATE_LIMITED',
  tooLarge: 'PAYLOAD_TOO_LARGE',
  unverified: 'UNVERIFIED',
  /** Login of a suspended student (safety): the message says until when and why. */
  suspended: 'SUSPENDED',
  internal: 'INTERNAL',
  /** A dependency (the database) is unreachable: 503 with Retry-After; try again shortly. */
  unavailable: 'UNAVAILABLE',
} as const;
