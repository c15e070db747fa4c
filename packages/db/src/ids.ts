import { randomFillSync } from "node:crypto";

export type IdPrefix = "ses" | "agt" | "msg" | "trn" | "wrk" | "stp" | "tc" | "hk" | "hka" | "tok";

/** Crockford's base32, lower case: no i, l, o or u to misread. */
const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";
/** Random bytes drawn from the CSPRNG a page at a time: one system call per 256 ids, not one per character. */
const pool = Buffer.alloc(4096);
let used = pool.length;

/**
 * A sortable, prefixed id such as `msg_01jd…`: the prefix tells a reader what it names. The
 * rest is a ULID — 10 characters of milliseconds since the epoch, then 16 random ones (80
 * bits) — so ids sort by creation time across processes.
 */
export function newId(prefix: IdPrefix): string {
  let id = `${prefix}_`;
  let time = Date.now();
  const clock = new Array<string>(10);
  for (let i = 9; i >= 0; i--) {
    clock[i] = ALPHABET[time % 32]!;
    time = Math.floor(time / 32);
  }
  id += clock.join("");
  if (used + 16 > pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  // 256 is a multiple of 32: each byte's low five bits are uniform.
  for (let i = 0; i < 16; i++) id += ALPHABET[pool[used++]! & 31];
  return id;
}
