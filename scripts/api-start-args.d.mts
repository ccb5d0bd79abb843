export function apiNodeFlags(): string[];
