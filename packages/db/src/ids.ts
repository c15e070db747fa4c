import { ulid } from "ulidx";

export type IdPrefix = "ses" | "agt" | "msg" | "trn" | "wrk" | "stp" | "tc" | "hk" | "hka" | "tok";

/** A sortable, prefixed id such as `msg_01jd…`: the prefix tells a reader what it names. */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${ulid().toLowerCase()}`;
}
