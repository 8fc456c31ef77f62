import {
  type ConsoleToken,
  TOKEN_SCOPES,
  type TokenHolder,
  type TokenScope,
} from '../../shared/console-api/tokens';
import { d1Runner, type SqlRunner } from '../config/versions';
import type { Bindings } from '../env';
import type { RateRule } from '../rate-limits/rate-limiter';

/**
 * Console tokens in CONFIG_DB (migrations/0011_console_tokens.sql). A token reads
 * `gft_<id>_<secret>`: the id finds its row, the secret is checked against the SHA-256 kept
 * there, so a leaked database holds no working token. Made by a person
 * (worker/console/tokens-route.ts), checked on each request that brings one
 * (worker/middleware/console-access.ts).
 */

const TABLE = 'console_tokens';

/**
 * Console token requests per address: a tool or an agent makes a few a second at most; a flood
 * of made-up tokens is stopped here before each one costs a read of CONFIG_DB.
 */
export const TOKEN_CALLS_PER_ADDRESS: RateRule & { name: string } = {
  name: 'console_token_calls_per_address',
  limit: 300,
  windowMs: 60_000,
};

/** 6 random bytes of id (12 hex) and 20 of secret (40 hex): the shape a request must match. */
const TOKEN_SHAPE = /^gft_([0-9a-f]{12})_([0-9a-f]{40})$/;

interface TokenRow {
  id: string;
  name: string;
  secret_sha256: string;
  scopes_json: string;
  created_by: string;
  created_at: string;
  revoked_by: string | null;
  revoked_at: string | null;
}

function hex(bytes: Uint8Array): string {
  return [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

const randomHex = (bytes: number) => hex(crypto.getRandomValues(new Uint8Array(bytes)));

async function sha256(text: string): Promise<string> {
  return hex(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text))));
}

/** The same hex digests, compared in time that does not depend on where they differ. */
function sameDigest(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let index = 0; index < a.length; index++) {
    difference |= a.charCodeAt(index) ^ b.charCodeAt(index);
  }
  return difference === 0;
}

/** Scopes read back from a row: only the known ones, in their order. */
function scopesOf(json: string): TokenScope[] {
  const listed = JSON.parse(json) as unknown;
  if (!Array.isArray(listed)) return [];
  return TOKEN_SCOPES.filter((scope) => listed.includes(scope));
}

function fromRow(row: TokenRow): ConsoleToken {
  return {
    name: row.name,
    scopes: scopesOf(row.scopes_json),
    createdBy: row.created_by,
    createdAt: row.created_at,
    ...(row.revoked_at === null
      ? {}
      : { revokedBy: row.revoked_by ?? '', revokedAt: row.revoked_at }),
  };
}

export function tokenStore(sql: SqlRunner) {
  const columns =
    'id, name, secret_sha256, scopes_json, created_by, created_at, revoked_by, revoked_at';
  return {
    /** A new token; null when the name is taken (revoked names stay taken: the logs use them). */
    async create(
      name: string,
      scopes: TokenScope[],
      by: string,
      at: string,
    ): Promise<{ token: ConsoleToken; secret: string } | null> {
      const id = randomHex(6);
      const secret = randomHex(20);
      const { changes } = await sql.run(
        `INSERT INTO ${TABLE} (${columns}) SELECT ?, ?, ?, ?, ?, ?, NULL, NULL
         WHERE NOT EXISTS (SELECT 1 FROM ${TABLE} WHERE name = ?)`,
        [id, name, await sha256(secret), JSON.stringify(scopes), by, at, name],
      );
      if (changes !== 1) return null;
      return {
        token: { name, scopes, createdBy: by, createdAt: at },
        secret: `gft_${id}_${secret}`,
      };
    },

    async list(): Promise<ConsoleToken[]> {
      const rows = await sql.all<TokenRow>(
        `SELECT ${columns} FROM ${TABLE} ORDER BY created_at`,
        [],
      );
      return rows.map(fromRow);
    },

    /** Revokes a working token; false when there is none of that name still working. */
    async revoke(name: string, by: string, at: string): Promise<boolean> {
      const { changes } = await sql.run(
        `UPDATE ${TABLE} SET revoked_by = ?, revoked_at = ? WHERE name = ? AND revoked_at IS NULL`,
        [by, at, name],
      );
      return changes === 1;
    },

    /** The holder of `presented`, or null: malformed, unknown, wrong secret or revoked. */
    async holderOf(presented: string): Promise<TokenHolder | null> {
      const shape = TOKEN_SHAPE.exec(presented);
      if (!shape) return null;
      const [, id, secret] = shape as unknown as [string, string, string];
      const [row] = await sql.all<TokenRow>(`SELECT ${columns} FROM ${TABLE} WHERE id = ?`, [id]);
      if (!row || row.revoked_at !== null) return null;
      if (!sameDigest(await sha256(secret), row.secret_sha256)) return null;
      return { name: row.name, scopes: scopesOf(row.scopes_json) };
    },
  };
}

export type TokenStore = ReturnType<typeof tokenStore>;

export const tokenStoreOf = (env: Bindings): TokenStore => tokenStore(d1Runner(env.CONFIG_DB));

/** The token a request brings as `Authorization: Bearer …`; undefined when it brings none. */
export function presentedToken(request: Request): string | undefined {
  const header = request.headers.get('authorization');
  if (header === null) return undefined;
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(header);
  // Any Authorization header is an attempt at a token: a malformed one is refused, never
  // taken for a browser's request.
  return bearer?.[1] ?? '';
}
