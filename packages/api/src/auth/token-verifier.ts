import { verifyToken, type Db, type TokenIdentity } from "@handoff/db";

/**
 * Verifies bearer tokens against the database, remembering answers briefly so a busy
 * client does not cost a query per request. A revoked token stops working within `ttlMs`.
 */
export class TokenVerifier {
  private readonly cache = new Map<string, { identity: TokenIdentity | null; until: number }>();

  constructor(
    private readonly db: Db,
    private readonly ttlMs = 30_000,
  ) {}

  async verify(token: string): Promise<TokenIdentity | null> {
    const now = Date.now();
    const hit = this.cache.get(token);
    if (hit && hit.until > now) return hit.identity;
    const identity = await verifyToken(this.db, token);
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(token, { identity, until: now + this.ttlMs });
    return identity;
  }
}
