import { randomBytes } from 'node:crypto';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True when `value` is an RFC 9562 UUID string that PostgreSQL's uuid type will accept. */
export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}

let lastMs = 0;
let sequence = 0;

// Random bytes come from a pooled buffer: one getrandom call per 256 ids instead of two per id.
const POOL_SIZE = 16 * 256;
let pool = randomBytes(POOL_SIZE);
let offset = 0;
function random(size: number): Buffer {
  if (offset + size > POOL_SIZE) {
    pool = randomBytes(POOL_SIZE);
    offset = 0;
  }
  const bytes = Buffer.from(pool.subarray(offset, offset + size));
  offset += size;
  return bytes;
}

/**
 * A UUIDv7 (RFC 9562): 48-bit Unix milliseconds, then random bits. Ids sort by creation time,
 * which keeps btree inserts local and makes `ORDER BY created_at, id` agree with insertion order.
 * Within one millisecond a 12-bit counter keeps ids from this process monotonic.
 */
export function uuidv7(now = Date.now()): string {
  if (now <= lastMs) {
    sequence = (sequence + 1) & 0xfff;
    if (sequence === 0) lastMs++;
    now = lastMs;
  } else {
    lastMs = now;
    sequence = random(2).readUInt16BE(0) & 0x7ff;
  }
  const bytes = random(16);
  bytes.writeUIntBE(now, 0, 6);
  bytes[6] = 0x70 | (sequence >> 8);
  bytes[7] = sequence & 0xff;
  bytes[8] = 0x80 | (bytes[8]! & 0x3f);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
