export function apiNodeFlags(): string[];
export function apiTrustProxy(value: string | undefined): string | undefined;
