/**
 * The console's pages and their addresses (docs/marketers.md, "Finding your way"): one area a
 * page, and a page of its own for an experiment, a screen's content and a published version, so
 * a marketer can send a colleague the address of what they mean. The worker answers the
 * console's shell at each of these paths (worker/console/routes.ts) and 404 at any other; the
 * console's script draws the page its address names (console/kit/stores/page.ts).
 */

export const CONSOLE_HOME = '/console';

/** Each area: its path under CONSOLE_HOME, its name in the navigation and the page's title. */
export const CONSOLE_AREAS = {
  overview: { path: '', title: 'Overview' },
  traffic: { path: 'traffic', title: 'Traffic' },
  funnel: { path: 'funnel', title: 'Funnel by campaign' },
  experiments: { path: 'experiments', title: 'Experiments' },
  results: { path: 'results', title: 'Results' },
  alerts: { path: 'alerts', title: 'Alerts' },
  content: { path: 'content', title: 'Content' },
  quiz: { path: 'quiz', title: 'Quiz' },
  publish: { path: 'publish', title: 'Edit and publish' },
  copy: { path: 'copy', title: 'Copy' },
  history: { path: 'history', title: 'History' },
  team: { path: 'team', title: 'Team' },
  reminders: { path: 'reminders', title: 'Reminders' },
} as const;

export type ConsoleArea = keyof typeof CONSOLE_AREAS;

/** The areas with a page per thing in them: an experiment, a screen, a question, a version. */
const AREAS_WITH_THINGS: ReadonlySet<ConsoleArea> = new Set([
  'experiments',
  'content',
  'quiz',
  'history',
]);

/** A console page: its area and, on a thing's own page, the thing's id. */
export interface ConsolePage {
  area: ConsoleArea;
  id: string | null;
}

/** An id as config names things (experiments, screens, versions): nothing a path could smuggle. */
const THING_ID = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,99}$/;

const AREA_OF_PATH = new Map<string, ConsoleArea>([
  ...Object.entries(CONSOLE_AREAS).map(([area, { path }]) => [path, area as ConsoleArea] as const),
  // Tools and agents had a page of its own before the team's page took it in: its old address
  // (in links and notes sent around) still opens it.
  ['tools', 'team'],
]);

/**
 * The page a path names (`/console/experiments/price-us`), or null for a path that is no page of
 * the console. A trailing slash is the same page.
 */
export function consolePageOf(pathname: string): ConsolePage | null {
  if (pathname !== CONSOLE_HOME && !pathname.startsWith(`${CONSOLE_HOME}/`)) return null;
  const parts = pathname.slice(CONSOLE_HOME.length + 1).split('/');
  if (parts.at(-1) === '' && parts.length > 1) parts.pop();
  const [first = '', second, ...rest] = parts;
  const area = AREA_OF_PATH.get(first);
  if (!area || rest.length > 0) return null;
  if (second === undefined) return { area, id: null };
  let id: string;
  try {
    id = decodeURIComponent(second);
  } catch {
    return null;
  }
  return AREAS_WITH_THINGS.has(area) && THING_ID.test(id) ? { area, id } : null;
}

/** The address of an area's page, or of a thing's page in it. */
export function consolePath(area: ConsoleArea, id?: string | null): string {
  const { path } = CONSOLE_AREAS[area];
  const areaPath = path === '' ? CONSOLE_HOME : `${CONSOLE_HOME}/${path}`;
  return id ? `${areaPath}/${encodeURIComponent(id)}` : areaPath;
}

/**
 * The page an address of the one-page console named by its fragment (`/console#edit`), so the
 * addresses people kept still open what they meant; null for any other fragment.
 */
export function pageOfOldFragment(hash: string): ConsolePage | null {
  const fragment = hash.replace(/^#/, '');
  if (fragment === 'edit') return { area: 'publish', id: null };
  if (fragment === 'overview') return { area: 'overview', id: null };
  const area = fragment === '' ? undefined : AREA_OF_PATH.get(fragment);
  return area ? { area, id: null } : null;
}
