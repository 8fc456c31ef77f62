import type { VersionSummary } from '../../shared/console-api/versions';

/** What one person did in the versions listed: what they published, asked for and approved. */
export interface PersonsWork {
  who: string;
  published: number;
  asked: number;
  approved: number;
  /** The newest of those, ISO 8601. */
  last: string;
}

/**
 * The people behind `versions`, the most recent first: each publish counts for its author, its
 * review for whoever asked, its approval for the approver. A tool's token counts as its name
 * (`token:…`), as the history credits it.
 */
export function peopleOf(versions: readonly VersionSummary[]): PersonsWork[] {
  const people = new Map<string, PersonsWork>();
  const credit = (
    who: string | undefined,
    at: string,
    field: 'published' | 'asked' | 'approved',
  ) => {
    if (!who) return;
    const person = people.get(who) ?? { who, published: 0, asked: 0, approved: 0, last: at };
    person[field] += 1;
    if (at > person.last) person.last = at;
    people.set(who, person);
  };
  for (const version of versions) {
    credit(version.author, version.at, 'published');
    credit(version.requester, version.at, 'asked');
    credit(version.approver, version.at, 'approved');
  }
  return [...people.values()].sort(
    (a, b) => b.last.localeCompare(a.last) || a.who.localeCompare(b.who),
  );
}

/** "3 publishes, 1 review asked, 2 approvals", leaving out what they did not do. */
export function workText(person: PersonsWork): string {
  const parts = [
    [person.published, 'publish', 'publishes'],
    [person.asked, 'review asked', 'reviews asked'],
    [person.approved, 'approval', 'approvals'],
  ] as const;
  return parts
    .filter(([count]) => count > 0)
    .map(([count, one, many]) => `${count} ${count === 1 ? one : many}`)
    .join(', ');
}
