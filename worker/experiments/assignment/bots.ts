import { SMOKE_AGENT } from '../../../shared/analytics/smoke';

/**
 * Known bots, kept out of the split test's exposures and counted apart (docs/statistics.md,
 * "What is counted"): a crawler, a link preview or a script would otherwise join an arm as a visitor who
 * never converts.
 */

/**
 * Parts of the User-Agent header that only automated clients send, matched case-insensitively:
 * search and ads crawlers, the link previews of social apps and chat tools, AI crawlers, SEO
 * tools, uptime monitors, headless browsers and HTTP libraries. Each names a product, never a
 * bare "bot": Android phones of the Cubot brand carry "CUBOT" in their agent. Lower case, as the
 * agent is lowered before matching.
 */
const KNOWN_BOT_AGENTS: readonly string[] = [
  // Search engines and their ads and tools.
  'googlebot',
  'adsbot-google',
  'mediapartners-google',
  'google-inspectiontool',
  'storebot-google',
  'feedfetcher-google',
  'googleother',
  'apis-google',
  'bingbot',
  'bingpreview',
  'adidxbot',
  'msnbot',
  'duckduckbot',
  'yandexbot',
  'baiduspider',
  'applebot',
  'petalbot',
  'seznambot',
  // Link previews.
  'facebookexternalhit',
  'facebookcatalog',
  'meta-externalagent',
  'twitterbot',
  'linkedinbot',
  'slackbot',
  'slack-imgproxy',
  'discordbot',
  'telegrambot',
  'whatsapp/',
  'pinterestbot',
  'redditbot',
  'skypeuripreview',
  'embedly',
  // AI and archive crawlers.
  'gptbot',
  'chatgpt-user',
  'oai-searchbot',
  'claudebot',
  'anthropic-ai',
  'perplexitybot',
  'bytespider',
  'ccbot',
  'amazonbot',
  'ia_archiver',
  // SEO tools.
  'ahrefsbot',
  'semrushbot',
  'mj12bot',
  'dotbot',
  'dataforseobot',
  'screaming frog',
  // Monitors and page-speed tools.
  'uptimerobot',
  'pingdom',
  'statuscake',
  'site24x7',
  'datadogsynthetics',
  'chrome-lighthouse',
  'gtmetrix',
  // Headless browsers.
  'headlesschrome',
  'phantomjs',
  // HTTP clients and scrapers.
  'curl/',
  'wget/',
  'python-requests',
  'python-urllib',
  'python-httpx',
  'aiohttp',
  'go-http-client',
  'okhttp',
  'java/',
  'apache-httpclient',
  'axios/',
  'node-fetch',
  'undici',
  'libwww-perl',
  'postmanruntime',
  'insomnia/',
  'scrapy',
  // Our own: npm run smoke, after each deploy (shared/analytics/smoke.ts).
  SMOKE_AGENT,
];

/**
 * Cloudflare's own verdicts, on `request.cf` where the zone has them: `botManagement` with Bot
 * Management (a score from 1, almost surely a bot, to 99, almost surely human; 0 means it was
 * not scored), and `verifiedBotCategory` for a bot Cloudflare has verified (empty otherwise).
 */
interface BotSignals {
  botManagement?: { verifiedBot?: unknown; score?: unknown };
  verifiedBotCategory?: unknown;
}

/** Below this Bot Management score a request counts as a bot (Cloudflare's "likely automated"). */
const BOT_SCORE_BELOW = 30;

export type BotReason = 'no_user_agent' | 'user_agent' | 'verified_bot' | 'bot_score';

/** Why the request is a known bot's, or null when nothing says it is. */
export function knownBotReason(userAgent: string | undefined, cf: unknown): BotReason | null {
  const agent = userAgent?.trim().toLowerCase() ?? '';
  // Every browser sends one.
  if (agent === '') return 'no_user_agent';
  if (KNOWN_BOT_AGENTS.some((part) => agent.includes(part))) return 'user_agent';
  const signals = (typeof cf === 'object' && cf !== null ? cf : {}) as BotSignals;
  const category = signals.verifiedBotCategory;
  if (signals.botManagement?.verifiedBot === true || (typeof category === 'string' && category))
    return 'verified_bot';
  const score = signals.botManagement?.score;
  if (typeof score === 'number' && score >= 1 && score < BOT_SCORE_BELOW) return 'bot_score';
  return null;
}
