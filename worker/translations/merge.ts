import type { Dictionary } from '../../shared/config/translations';

/**
 * The bundled dictionary with an override laid over it, as a new object: the bundled one is
 * shared by every request of the isolate and must never change. Dotted keys
 * (`"landing.title"`) land where the nested form would. Where the two disagree on shape (a text
 * where the bundled file has a group of keys, or the reverse) the bundled side is kept, so a
 * wrong override can blank one key at most, never a whole area.
 */
export function overlayDictionary(bundled: Dictionary, override: Dictionary): Dictionary {
  const result = copyDictionary(bundled);
  for (const [key, value] of Object.entries(override)) {
    const path = key.split('.');
    const leaf = path.pop()!;
    let target: Dictionary | undefined = result;
    for (const part of path) {
      const next: string | Dictionary | undefined = Object.hasOwn(target, part)
        ? target[part]
        : undefined;
      if (typeof next === 'string') {
        target = undefined;
        break;
      }
      if (next === undefined) target[part] = {};
      target = target[part] as Dictionary;
    }
    if (!target) continue;
    const current = Object.hasOwn(target, leaf) ? target[leaf] : undefined;
    if (typeof value === 'string') {
      if (typeof current !== 'object') target[leaf] = value;
    } else if (typeof current !== 'string') {
      target[leaf] = overlayDictionary(current ?? {}, value);
    }
  }
  return result;
}

function copyDictionary(dictionary: Dictionary): Dictionary {
  const copy: Dictionary = {};
  for (const [key, value] of Object.entries(dictionary)) {
    copy[key] = typeof value === 'string' ? value : copyDictionary(value);
  }
  return copy;
}
