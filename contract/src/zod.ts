import { z } from 'zod';

/**
 * The one Zod the contract's schemas are built with. In a browser, Zod's object fast path probes
 * for `eval` with `new Function('')` as each object schema is defined; the web app's CSP forbids
 * eval, so Chromium reported a CSP violation on every logged-in page (Lighthouse best practices
 * 96, "inspector issues"). The jitless parser needs no probe. It has to be set before the first
 * schema exists, hence here, imported by every schema module. The server keeps Zod's JIT.
 */
if ('document' in globalThis) z.config({ jitless: true });

export { z };
