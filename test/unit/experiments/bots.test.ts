import { describe, expect, it } from 'vitest';
import { knownBotReason } from '../../../worker/experiments/assignment/bots';

/**
 * The known-bot table (worker/experiments/assignment/bots.ts): the agents real bots send are caught, the
 * agents real people's browsers send are not, and Cloudflare's signals count where present.
 */

const BOTS: [string, string][] = [
  ['Googlebot', 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'],
  [
    'Googlebot smartphone',
    'Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.69 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  ],
  ['AdsBot', 'AdsBot-Google (+http://www.google.com/adsbot.html)'],
  [
    'AdsBot mobile',
    'Mozilla/5.0 (iPhone; CPU iPhone OS 14_7_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/14.1.2 Mobile/15E148 Safari/604.1 (compatible; AdsBot-Google-Mobile; +http://www.google.com/mobile/adsbot.html)',
  ],
  ['Google-InspectionTool', 'Mozilla/5.0 (compatible; Google-InspectionTool/1.0;)'],
  ['Bingbot', 'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)'],
  [
    'Applebot',
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)',
  ],
  ['YandexBot', 'Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)'],
  [
    'Meta link preview',
    'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
  ],
  [
    'Meta crawler',
    'meta-externalagent/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)',
  ],
  ['Twitterbot', 'Twitterbot/1.0'],
  [
    'LinkedInBot',
    'LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)',
  ],
  ['Slackbot', 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)'],
  ['Discordbot', 'Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)'],
  ['TelegramBot', 'TelegramBot (like TwitterBot)'],
  ['WhatsApp preview', 'WhatsApp/2.23.20.0 A'],
  [
    'GPTBot',
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)',
  ],
  [
    'ClaudeBot',
    'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)',
  ],
  [
    'Bytespider',
    'Mozilla/5.0 (Linux; Android 5.0) AppleWebKit/537.36 (KHTML, like Gecko) Mobile Safari/537.36 (compatible; Bytespider; spider-feedback@bytedance.com)',
  ],
  ['AhrefsBot', 'Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)'],
  ['SemrushBot', 'Mozilla/5.0 (compatible; SemrushBot/7~bl; +http://www.semrush.com/bot.html)'],
  ['UptimeRobot', 'Mozilla/5.0+(compatible; UptimeRobot/2.0; http://www.uptimerobot.com/)'],
  [
    'Lighthouse',
    'Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/119.0.0.0 Mobile Safari/537.36 Chrome-Lighthouse',
  ],
  [
    'HeadlessChrome',
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36',
  ],
  ['curl', 'curl/8.5.0'],
  ['Wget', 'Wget/1.21.4'],
  ['python-requests', 'python-requests/2.32.3'],
  ['Python urllib', 'Python-urllib/3.12'],
  ['Go', 'Go-http-client/2.0'],
  ['okhttp', 'okhttp/4.12.0'],
  ['axios', 'axios/1.7.7'],
  ['node-fetch', 'node-fetch/1.0 (+https://github.com/bitinn/node-fetch)'],
  ['undici', 'undici'],
  ['Postman', 'PostmanRuntime/7.42.0'],
  ['Scrapy', 'Scrapy/2.11.2 (+https://scrapy.org)'],
];

const PEOPLE: [string, string][] = [
  [
    'Chrome on Windows',
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  ],
  [
    'Safari on iPhone',
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
  ],
  ['Firefox on Linux', 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0'],
  [
    'Samsung Internet',
    'Mozilla/5.0 (Linux; Android 14; SM-S928B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36',
  ],
  [
    'a Cubot phone',
    'Mozilla/5.0 (Linux; Android 12; CUBOT KINGKONG 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.6723.107 Mobile Safari/537.36',
  ],
  [
    'Facebook’s in-app browser',
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/FBIOS;FBAV/474.0.0.38.112;FBBV/634367372;FBDV/iPhone14,5;FBMD/iPhone;FBSN/iOS;FBSV/17.5;FBSS/3;FBID/phone;FBLC/en_US;FBOP/5]',
  ],
  [
    'Instagram’s in-app browser',
    'Mozilla/5.0 (Linux; Android 14; Pixel 8 Build/AP2A.240805.005; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/127.0.6533.103 Mobile Safari/537.36 Instagram 344.0.0.34.101 Android',
  ],
  [
    'TikTok’s in-app browser',
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 musical_ly_34.5.0 JsSdk/2.0 NetType/WIFI Channel/App Store ByteLocale/en Region/US',
  ],
  [
    'Edge',
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
  ],
  [
    'Yandex Browser',
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 YaBrowser/24.6.0.0 Safari/537.36',
  ],
];

describe('the user-agent table', () => {
  it.each(BOTS)('%s is a known bot', (_, agent) => {
    expect(knownBotReason(agent, undefined)).toBe('user_agent');
  });

  it.each(PEOPLE)('%s is not', (_, agent) => {
    expect(knownBotReason(agent, undefined)).toBeNull();
  });

  it('an absent or blank agent is a bot: every browser sends one', () => {
    expect(knownBotReason(undefined, undefined)).toBe('no_user_agent');
    expect(knownBotReason('   ', undefined)).toBe('no_user_agent');
  });
});

describe('Cloudflare’s signals', () => {
  const chrome = PEOPLE[0]![1];

  it.each<[string, unknown, ReturnType<typeof knownBotReason>]>([
    ['a verified bot', { botManagement: { score: 95, verifiedBot: true } }, 'verified_bot'],
    ['a verified bot category', { verifiedBotCategory: 'Monitoring & Analytics' }, 'verified_bot'],
    ['score 1', { botManagement: { score: 1, verifiedBot: false } }, 'bot_score'],
    ['score 29', { botManagement: { score: 29, verifiedBot: false } }, 'bot_score'],
    ['score 30', { botManagement: { score: 30, verifiedBot: false } }, null],
    ['score 99', { botManagement: { score: 99, verifiedBot: false } }, null],
    ['score 0 (not scored)', { botManagement: { score: 0 } }, null],
    ['an empty category', { verifiedBotCategory: '' }, null],
    ['no Bot Management', { country: 'DE' }, null],
    ['no cf at all', undefined, null],
    ['a malformed cf', 'garbage', null],
  ])('%s', (_, cf, reason) => {
    expect(knownBotReason(chrome, cf)).toBe(reason);
  });

  it('the agent is read first', () => {
    expect(knownBotReason('curl/8.5.0', { botManagement: { score: 99, verifiedBot: false } })).toBe(
      'user_agent',
    );
  });
});
