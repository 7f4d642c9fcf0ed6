import { randomFillSync, randomInt } from 'node:crypto';

let lastMs = 0;

// Random bytes are drawn 4 KiB at a time and handed out in slices: one call into the system's generator per 256 ids
// instead of one per id (ids are made by the thousand in ingestion and paging batches).
const POOL_SIZE = 4096;
const pool = Buffer.alloc(POOL_SIZE);
let poolOffset = POOL_SIZE;

/** Fills `b` (at most POOL_SIZE bytes) with cryptographically strong random bytes. */
function randomInto(b: Buffer) {
  if (poolOffset + b.length > POOL_SIZE) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  pool.copy(b, 0, poolOffset, poolOffset + b.length);
  poolOffset += b.length;
}
let sequence = 0;

/**
 * A UUID (version 7) whose first 48 bits are the time in milliseconds and next 12 a counter within the millisecond,
 * for rows written in bulk (alerts, jobs, attempts, timeline entries): ids grow with time, even within one millisecond
 * of this process (so "newest first" has a true tiebreak), and the primary key index takes each batch at its end
 * instead of at as many random places as there are rows, which keeps the pages a commit writes few (random v4 ids
 * made write volume grow with the table).
 */
export function timeOrderedUuid(now = Date.now()): string {
  let ms = Math.max(now, lastMs);
  if (ms === lastMs) {
    sequence++;
    if (sequence > 0xfff) {
      ms++;
      sequence = 0;
    }
  } else sequence = randomInt(0x800);
  lastMs = ms;
  const b = Buffer.allocUnsafe(16);
  randomInto(b);
  b.writeUIntBE(ms, 0, 6);
  b[6] = 0x70 | (sequence >> 8);
  b[7] = sequence & 0xff;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
