export * from './categories.js';
export * from './price-buckets.js';
export * from './limits.js';
export * from './messages.js';
export * from './accounts.js';
export * from './listings.js';
export * from './chat.js';
export * from './errors.js';
