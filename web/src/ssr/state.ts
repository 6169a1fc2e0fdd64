/**
 * Where the server puts the dehydrated query state of a server-rendered page: a
 * `<script type="application/json">` block (data, not code: the CSP allows no inline script).
 */
export const SSR_STATE_ID = 'cm-ssr-state';
