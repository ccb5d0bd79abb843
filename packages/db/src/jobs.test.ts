import { describe, expect, it } from 'vitest';
import { derivedJobId } from './jobs';

describe('derivedJobId()', () => {
  // Jobs already queued by a running deployment carry these ids: a release that changed them
  // would queue the same attempt or slice again as a second job.
  it('gives the ids the delivery and import queues gave before it was shared', () => {
    const delivery = '0190a7c2-0000-7000-8000-000000000001';
    expect(derivedJobId(delivery, 1)).toBe('2a455b9c-f7d6-4fc7-80cb-73e84060adeb');
    expect(derivedJobId(delivery, 3)).toBe('f08f0371-ca3e-4d40-86d8-1d723118d1ca');
    const anImport = '0190a7c2-0000-7000-8000-000000000002';
    expect(derivedJobId('import', anImport, 0)).toBe('83c9fe2d-7217-4c9d-843e-96ea4e1a715e');
    expect(derivedJobId('import', anImport, 7)).toBe('a5b525c0-3dd1-488e-8461-efd2d766ee4f');
  });

  it('is a UUID that differs with any part', () => {
    const id = derivedJobId('a', 1);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-8[0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(derivedJobId('a', 1)).toBe(id);
    expect(derivedJobId('a', 2)).not.toBe(id);
    expect(derivedJobId('b', 1)).not.toBe(id);
  });
});
