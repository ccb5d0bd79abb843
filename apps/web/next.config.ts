import type { NextConfig } from 'next';

// The console is a thin client: every request for data goes through its own route handlers
// (src/app/api/*) to the API at API_URL, so the browser never holds a token.
const securityHeaders = [
  { key: 'X-Frame-Options', value: 'DENY' },
  { key: 'X-Content-Type-Options', value: 'nosniff' },
  { key: 'Referrer-Policy', value: 'same-origin' },
  { key: 'Permissions-Policy', value: 'camera=(), microphone=(), geolocation=()' },
];

const config: NextConfig = {
  // The router package ships TypeScript sources (its zod schemas are shared by forms and procedures).
  transpilePackages: ['@music/api-router'],
  poweredByHeader: false,
  reactStrictMode: true,
  async headers() {
    return [{ source: '/:path*', headers: securityHeaders }];
  },
};

export default config;
