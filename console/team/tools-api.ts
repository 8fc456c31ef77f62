import { type ChangeSetsAnswer, CONSOLE_DRAFT_API } from '../../shared/console-api/draft';
import {
  CONSOLE_TOKENS_API,
  type TokenCreatedAnswer,
  type TokenCreateRequest,
  type TokenRevokeRequest,
  type TokensAnswer,
} from '../../shared/console-api/tokens';
import { consoleCall } from '../kit/api';

/**
 * The Tools and agents area's calls (shared/console-api/tokens.ts and draft.ts), answered as
 * every console call is (console/kit/api.ts): the tokens, one made or revoked, and the change
 * sets tokens prepared.
 */
export const fetchTokens = () => consoleCall<TokensAnswer>(CONSOLE_TOKENS_API.tokens);

export const postToken = (request: TokenCreateRequest) =>
  consoleCall<TokenCreatedAnswer>(CONSOLE_TOKENS_API.tokens, request);

export const postRevoke = (request: TokenRevokeRequest) =>
  consoleCall<{ ok: true }>(CONSOLE_TOKENS_API.revoke, request);

export const fetchChangeSets = () => consoleCall<ChangeSetsAnswer>(CONSOLE_DRAFT_API.changeSets);
