import { describe, expect, it } from 'vitest';
import { IMPORT_JOBS } from '../imports/imports.service';
import { DELIVERY_JOBS } from '../webhooks/dispatch';
import { jobQueues } from './job-queues';

describe('jobQueues()', () => {
  it('declares both queues with their own retries and the expiries it is given', () => {
    expect(jobQueues({ deliveryExpireSeconds: 15, importExpireSeconds: 30 })).toEqual({
      [DELIVERY_JOBS]: { retryLimit: 20, retryDelaySeconds: 2, expireInSeconds: 15 },
      [IMPORT_JOBS]: { retryLimit: 50, retryDelaySeconds: 5, expireInSeconds: 30 },
    });
  });

  it('lets the retries be replaced for both queues', () => {
    const queues = jobQueues({
      deliveryExpireSeconds: 30,
      importExpireSeconds: 60,
      retryLimit: 1,
      retryDelaySeconds: 1,
    });
    expect(queues[DELIVERY_JOBS]).toEqual({ retryLimit: 1, retryDelaySeconds: 1, expireInSeconds: 30 });
    expect(queues[IMPORT_JOBS]).toEqual({ retryLimit: 1, retryDelaySeconds: 1, expireInSeconds: 60 });
  });
});
