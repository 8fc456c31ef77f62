import * as z from 'zod';
import { TEXT_MAX_CHARS, TEXT_TOO_LONG } from './translations';

/**
 * The marketers' copy document, declared once for the worker, the console and the CLI: every
 * language's overrides of the bundled copy, flat keys to texts, as a copy version stores them
 * (the console's Copy area and `npm run translations` publish it). This is its shape; the
 * rules against the bundled files (a shipped language, keys English has, placeholders kept,
 * the size KV takes) are checked after it, in worker/translations/copy-document.ts.
 */

/**
 * zod's records drop a `__proto__` key unseen (it would reach the prototype); the copy refuses
 * it at that key instead, as no language and no key is named so. `Object()` boxes a value that
 * is no object, which has no such key (the record then refuses it).
 */
const withoutProtoKey = z.unknown().refine((value) => !Object.hasOwn(Object(value), '__proto__'), {
  message: 'is a reserved name',
  path: ['__proto__'],
});

const text = z.string('must be a text').max(TEXT_MAX_CHARS, TEXT_TOO_LONG);

/** One language's overrides: flat key (`landing.phone.locate`) → text. */
const languageCopy = withoutProtoKey.pipe(z.record(z.string(), text, 'must map keys to texts'));

export const copyDocumentSchema = withoutProtoKey.pipe(
  z.record(z.string(), languageCopy, 'must be an object'),
);

/** Every language's overrides: language → flat key (`landing.phone.locate`) → text. */
export type CopyDocument = z.output<typeof copyDocumentSchema>;
