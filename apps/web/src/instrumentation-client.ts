import { config } from 'zod';

// Runs in the browser before any of the console's own modules (Next's instrumentation-client
// file). Zod probes for eval (`new Function`) as it builds its first object schema, to compile
// faster parsers; the console's CSP allows no eval in production, so the probe fails, harmlessly,
// but the browser still reports a CSP violation for it. Jitless, Zod never probes.
config({ jitless: true });
