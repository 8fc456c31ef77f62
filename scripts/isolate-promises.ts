import ts from 'typescript';
import type { Source } from './import-boundaries';

/**
 * No module of the worker keeps a promise for later requests (`npm run check`, check-house.ts).
 * workerd ties I/O to the request that started it, and never settles a promise whose request
 * ended first: kept at module scope, that promise hangs every later request that awaits it, for
 * as long as the isolate lives. One did: the legacy store's check (worker/experiments/store/
 * experiment-stores.ts), kept pending while asked, hung each page's exposure write and each queue
 * batch after a batch answered before its check came back, and a hung batch stops every later
 * batch of the local queue. A module keeps answers, not questions: `let kept: T | null`, set once
 * the await is done. Refused here: a module-level declaration whose written type, or the type
 * arguments of the `new` that makes it, names Promise. A promise stored without any type written
 * is not seen; KEPT_ALIVE lists the loads that hand their promise to the starting request's
 * waitUntil, which keeps that request, and so the load, alive to the end.
 */

interface KeptPromise {
  path: string;
  name: string;
  message: string;
}

/** The folders whose modules run in a worker isolate. */
const ISOLATE_FOLDERS = ['worker/', 'portal/'];

/** `path:name` of module promises kept alive by their request's waitUntil, and where it says so. */
const KEPT_ALIVE = new Set([
  // ShippedTextSource.keepAlive: the first request's waitUntil carries the load.
  'worker/translations/source.ts:loading',
]);

/** Whether a type node, or any type inside it, is a reference to Promise or PromiseLike. */
function namesPromise(node: ts.Node): boolean {
  if (
    ts.isTypeReferenceNode(node) &&
    ts.isIdentifier(node.typeName) &&
    /^Promise(Like)?$/.test(node.typeName.text)
  ) {
    return true;
  }
  return ts.forEachChild(node, (child) => (namesPromise(child) ? true : undefined)) === true;
}

/** The names a module-level declaration gives a promise type to. */
function promiseDeclarations(path: string, text: string): string[] {
  // Parsing every worker file takes seconds; most never spell the word.
  if (!/\bPromise/.test(text)) return [];
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false);
  const names: string[] = [];
  for (const statement of file.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const declaration of statement.declarationList.declarations) {
      const { type, initializer } = declaration;
      const typeArguments =
        initializer && ts.isNewExpression(initializer) ? (initializer.typeArguments ?? []) : [];
      if ((type && namesPromise(type)) || typeArguments.some(namesPromise)) {
        names.push(declaration.name.getText(file));
      }
    }
  }
  return names;
}

export function isolatePromises(sources: Iterable<Source>): KeptPromise[] {
  const refused: KeptPromise[] = [];
  for (const { path, text } of sources) {
    if (!ISOLATE_FOLDERS.some((folder) => path.startsWith(folder))) continue;
    for (const name of promiseDeclarations(path, text)) {
      if (KEPT_ALIVE.has(`${path}:${name}`)) continue;
      refused.push({
        path,
        name,
        message: `keeps a promise at module scope (${name}), where a later request may await one whose own request has ended: workerd never settles it, and the later request hangs. Keep the answer once the await is done (let ${name}: T | null), or hand the promise to the starting request's waitUntil and list it in scripts/isolate-promises.ts KEPT_ALIVE.`,
      });
    }
  }
  return refused;
}
