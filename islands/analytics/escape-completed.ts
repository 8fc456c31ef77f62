import { ESCAPE_COMPLETED_KEY } from '../../shared/api/resume-paths';
import { emit } from './emit';

const OSES = new Set(['ios', 'android', 'other']);

/**
 * On the first page a resume link opened in the real browser (worker/resume/resume-page.ts left
 * which in-app browser the visitor came from): the way out was completed. Reported once: the note
 * is taken out of storage before the event is sent, so a reload or another tab says nothing.
 */
export function reportEscapeCompleted(storage: Pick<Storage, 'getItem' | 'removeItem'>): void {
  let raw: string | null;
  try {
    raw = storage.getItem(ESCAPE_COMPLETED_KEY);
    if (raw === null) return;
    storage.removeItem(ESCAPE_COMPLETED_KEY);
  } catch {
    return;
  }
  try {
    const from = JSON.parse(raw) as { app?: unknown; os?: unknown } | null;
    if (typeof from?.app !== 'string' || typeof from.os !== 'string' || !OSES.has(from.os)) return;
    emit('in_app_escape_completed', { app: from.app.slice(0, 20), os: from.os });
  } catch {
    // Not ours, or damaged: nothing to report.
  }
}
