/**
 * Console tokens (`/console/api/tokens`): how a person's tool or an AI agent works the console
 * API without a browser (docs/agents.md). A person makes a token with the scopes it needs; the
 * tool sends it as `Authorization: Bearer <secret>`. What a token may call is decided by the
 * worker (worker/access/token-scopes.ts), never by the token: no token publishes, rolls back,
 * approves, moves a ramp or makes tokens. A token's draft edits are its own change set, which a
 * person takes into the team's draft to review and publish.
 */

/** Where the tokens' calls live: people only, never a token. */
export const CONSOLE_TOKENS_API = {
  /** GET: every token, revoked ones too (TokensAnswer). POST TokenCreateRequest: a new one. */
  tokens: '/console/api/tokens',
  /** POST {name}: the token stops working at once. */
  revoke: '/console/api/tokens/revoke',
} as const;

/**
 * What a token may do beyond nothing:
 * - read: every read of the console API, and the calls that compute without writing (review an
 *   edit, test a visitor, test a route);
 * - content: its change set's content (screens' sections and copy) and copy previews;
 * - traffic: its change set's split, flows, routing and experiments (traffic and money), and
 *   the ad costs' imports and deletes (ad-costs.ts).
 */
export const TOKEN_SCOPES = ['read', 'content', 'traffic'] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

/** A token's name: what the logs, the drafts and the history call its requests. */
export const TOKEN_NAME = /^[a-z0-9][a-z0-9-]{0,39}$/;

/** The author a token's requests are recorded under: `token:<name>`. */
export const tokenAuthor = (name: string) => `token:${name}`;

/** A token as the console lists it: never its secret. */
export interface ConsoleToken {
  name: string;
  scopes: TokenScope[];
  /** The person who made it, and when (ISO 8601). */
  createdBy: string;
  createdAt: string;
  /** Set once revoked: the token no longer works. */
  revokedBy?: string;
  revokedAt?: string;
}

/** Who a working token is, as a request it brings learns: its name and scopes. */
export interface TokenHolder {
  name: string;
  scopes: TokenScope[];
}

/** POST tokens. */
export interface TokenCreateRequest {
  name: string;
  scopes: TokenScope[];
}

/** 201: the secret, shown this once; the worker keeps only its hash. */
export interface TokenCreatedAnswer {
  ok: true;
  token: ConsoleToken;
  secret: string;
}

/** GET tokens. */
export interface TokensAnswer {
  ok: true;
  tokens: ConsoleToken[];
}

/** POST revoke. */
export interface TokenRevokeRequest {
  name: string;
}
