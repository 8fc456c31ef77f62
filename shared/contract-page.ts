import type { Theme } from './theme';

/**
 * Where the contract page lives (worker/contract-page/): `/contract/withdraw` (the EU's withdrawal
 * function) and `/contract/cancel` (Germany's cancellation button), for the footer of every page,
 * the receipt and success to link to, and `/contract/link` ("Email me a link to my
 * subscription"), for the contract page and an expired or spent link's page.
 */
export const CONTRACT_PAGE_PATH = '/contract';

export const CONTRACT_PAGES = ['withdraw', 'cancel', 'link'] as const;
export type ContractPageName = (typeof CONTRACT_PAGES)[number];

/**
 * The page's address in `theme`'s brand: every theme's, the default's too, names it, so a page
 * differs between themes by its brand's strings only (test/worker/render/theme-html.test.ts).
 */
export function contractPageHref(page: ContractPageName, theme: Theme): string {
  return `${CONTRACT_PAGE_PATH}/${page}?theme=${encodeURIComponent(theme)}`;
}
