import * as z from 'zod';
import { type ParseResult, parseJsonDocument } from './parse-document';

/**
 * The translation documents in KV (SPEC.md §3), declared once for the worker and the CLI: the
 * manifest, and each language's override of the bundled copy (locales/).
 */

/**
 * Keys to texts, nested by area (`landing.title`); what i18next takes as one namespace. Written
 * out, as a type cannot be inferred from a schema that refers to itself; `dictionaryAt` is
 * declared to produce it, so the compiler holds the two together.
 */
export interface Dictionary {
  [key: string]: string | Dictionary;
}

/** A manifest larger than this is refused before parsing; it only names a timestamp and codes. */
const MANIFEST_MAX_BYTES = 4 * 1024;

/** A language's override larger than this is refused before parsing (a wrong file pasted). */
export const DICTIONARY_MAX_BYTES = 256 * 1024;

/** Each text of an override at most this long (the console's copy document holds it too). */
export const TEXT_MAX_CHARS = 4000;

/** What a text longer than TEXT_MAX_CHARS is told. */
export const TEXT_TOO_LONG = `must be at most ${TEXT_MAX_CHARS} characters`;

/** Nesting deeper than areas → groups → keys is a wrong file, not copy. */
const MAX_DEPTH = 6;

const languageCode = z
  .string()
  .regex(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'must be a language code such as "es" or "pt-BR"');

/** The manifest: the timestamp the overrides are stored under, and the languages overridden. */
export const manifestSchema = z.strictObject({
  timestamp: z.number().int('must be an integer').positive('must be positive'),
  languages: z
    .array(languageCode)
    .max(50, 'must list at most 50 languages')
    .refine((codes) => new Set(codes).size === codes.length, 'must not list a language twice'),
});

export type TranslationManifest = z.output<typeof manifestSchema>;

// Keys become property names of the merged dictionary; names Object.prototype answers to
// (`__proto__`, `constructor`) would reach the prototype instead of the copy.
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

const key = z
  .string()
  .regex(/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/, 'must be a key such as "landing.title"')
  .refine((k) => !k.split('.').some((part) => FORBIDDEN_KEYS.has(part)), 'is a reserved name');

function dictionaryAt(depth: number): z.ZodType<Dictionary> {
  const text = z.string().min(1, 'must not be empty').max(TEXT_MAX_CHARS, TEXT_TOO_LONG);
  if (depth >= MAX_DEPTH) return z.record(key, text);
  return z.record(key, z.union([text, z.lazy(() => dictionaryAt(depth + 1))]));
}

/**
 * One language's override: keys to texts, nested by area (`{"landing": {"title": "…"}}`) or
 * dotted (`{"landing.title": "…"}`). Partial: keys it lacks keep the bundled text.
 */
const dictionarySchema = dictionaryAt(1);

export type { ParseResult };

export function parseManifest(raw: string): ParseResult<TranslationManifest> {
  return parseJsonDocument(manifestSchema, raw, MANIFEST_MAX_BYTES);
}

export function parseDictionary(raw: string): ParseResult<Dictionary> {
  return parseJsonDocument(dictionarySchema, raw, DICTIONARY_MAX_BYTES);
}
