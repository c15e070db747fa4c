import { createHash, randomBytes } from "node:crypto";
import { z } from "zod";
import type { Db } from "../client";
import { newId } from "../ids";
import { parseInput } from "../validate";

export const Role = z.enum(["viewer", "operator", "admin"]);
export type Role = z.infer<typeof Role>;

const RANK: Record<Role, number> = { viewer: 0, operator: 1, admin: 2 };

/** True when `role` may do what `needed` may: admin ⊃ operator ⊃ viewer. */
export function roleAllows(role: Role, needed: Role): boolean {
  return RANK[role] >= RANK[needed];
}

export const WorkspaceId = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,62}$/, "lower-case letters, digits, - and _ (at most 63)");

export const CreateTokenInput = z.strictObject({
  role: Role,
  workspaceId: WorkspaceId,
  name: z.string().max(200).optional(),
});

export interface TokenIdentity {
  tokenId: string;
  role: Role;
  workspaceId: string;
}

/** Tokens look like `hnd_<43 base64url characters>`: the prefix makes a leaked one easy to find (and redact). */
export const TOKEN_PATTERN = /hnd_[A-Za-z0-9_-]{43}/g;

export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** Creates a token and returns it — the only time it exists outside its holder's hands. */
export async function createToken(db: Db, input: z.input<typeof CreateTokenInput>): Promise<TokenIdentity & { token: string }> {
  const { role, workspaceId, name } = parseInput(CreateTokenInput, input);
  const token = `hnd_${randomBytes(32).toString("base64url")}`;
  const tokenId = newId("tok");
  await db.sql`
    INSERT INTO api_tokens (id, token_hash, role, workspace_id, name)
    VALUES (${tokenId}, ${hashToken(token)}, ${role}, ${workspaceId}, ${name ?? null})`;
  return { token, tokenId, role, workspaceId };
}

/** The identity a presented token stands for, or null (unknown, malformed or revoked). */
export async function verifyToken(db: Db, token: string): Promise<TokenIdentity | null> {
  if (!/^hnd_[A-Za-z0-9_-]{43}$/.test(token)) return null;
  const [row] = await db.sql<TokenIdentity[]>`
    UPDATE api_tokens SET last_used_at = now()
    WHERE token_hash = ${hashToken(token)} AND revoked_at IS NULL
    RETURNING id AS "tokenId", role, workspace_id AS "workspaceId"`;
  return row ?? null;
}

export async function revokeToken(db: Db, tokenId: string): Promise<boolean> {
  const rows = await db.sql`UPDATE api_tokens SET revoked_at = now() WHERE id = ${tokenId} AND revoked_at IS NULL RETURNING id`;
  return rows.length > 0;
}

export async function listTokens(db: Db) {
  return db.sql<{ id: string; role: Role; workspaceId: string; name: string | null; createdAt: Date; lastUsedAt: Date | null; revokedAt: Date | null }[]>`
    SELECT id, role, workspace_id AS "workspaceId", name, created_at AS "createdAt", last_used_at AS "lastUsedAt",
           revoked_at AS "revokedAt"
    FROM api_tokens ORDER BY created_at`;
}
