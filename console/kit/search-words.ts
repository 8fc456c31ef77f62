/** A text as a search compares it: lower case, accents aside ("Crème" finds "creme"). */
const folded = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();

/**
 * Whether a text holds every word of `query`, in any order, case and accents aside; null for a
 * query with no words (which finds everything or nothing, as its caller decides). The console's
 * one way to find by words: its search (console/page/ConsoleSearch.tsx) and the Copy area's.
 */
export function holdsEveryWord(query: string): ((text: string) => boolean) | null {
  const words = folded(query).split(/\s+/).filter(Boolean);
  if (words.length === 0) return null;
  return (text) => {
    const f = folded(text);
    return words.every((word) => f.includes(word));
  };
}
