import { screenOfRef } from '../../shared/composed-screens';
import type { ContentDocument } from '../../shared/config/content';
import type { ExperimentsDocument } from '../../shared/config/experiments';
import type { FlowsDocument } from '../../shared/config/flows';
import type { DocumentIssue } from '../../shared/config/parse-document';
import { answerPlaceholderProblems } from '../../shared/quiz/answer-text';
import { answerKeyOfName, splitsResults } from '../../shared/quiz/answers';
import { conditionProblems, flowBranchProblems } from '../../shared/quiz/branches';
import { type AnsweredQuestion, type Question, takesAnswer } from '../../shared/quiz/question';
import { isPaywallScreen } from '../../shared/screens';
import { namedPictureIssues } from '../content/check';
import type { PictureSizes } from '../pictures/library';
import { isShippedLanguage } from '../translations/check';

/**
 * A quiz's questions and the flows that ask them, against the rest of the config (the shapes are
 * shared/quiz/question.ts and shared/config/flows.ts): each question a name no composed screen
 * has, its texts in shipped languages, its pictures the library's; in each flow each answer's
 * key asked once, and its branches leading every visitor forward to the checkout
 * (flowBranchProblems), each problem at its path.
 */

/**
 * Everything a quiz asks of the rest of the config: its questions', its flows' and the
 * experiments' conditions on its answers, in that order.
 */
export function quizIssues(
  sections: { content: ContentDocument; flows: FlowsDocument; experiments: ExperimentsDocument },
  pictures?: PictureSizes,
): DocumentIssue[] {
  return [
    ...questionIssues(sections.content, pictures),
    ...quizFlowIssues(sections.flows, sections.content),
    ...answerAudienceIssues(sections.experiments, sections.content),
  ];
}

/** The questions' own issues, at `content.questions.<id>…`. */
function questionIssues(content: ContentDocument, pictures?: PictureSizes): DocumentIssue[] {
  const issues: DocumentIssue[] = [];
  for (const [id, asked] of Object.entries(content.questions ?? {})) {
    const at = `content.questions.${id}`;
    if (content.composed && Object.hasOwn(content.composed, id)) {
      issues.push({
        path: at,
        message: `is the name of a composed screen too: give the question a name of its own`,
      });
    }
    issues.push(...languageIssues(at, asked), ...questionPictureIssues(at, asked, pictures));
  }
  issues.push(...answerPlaceholderIssues(content));
  return issues;
}

/**
 * Copy that says a visitor's answer (`{{answer.who}}`, shared/quiz/answer-text.ts) names the key
 * of a question the content asks. Which flows show the text after which question is theirs: an
 * answer not given shows the placeholder's fallback.
 */
function answerPlaceholderIssues(content: ContentDocument): DocumentIssue[] {
  const keys = new Set(
    Object.values(content.questions ?? {}).flatMap((asked) =>
      takesAnswer(asked) ? [asked.key] : [],
    ),
  );
  const screens = [
    ...Object.entries(content.screens).map(([id, own]) => [`content.screens.${id}`, own] as const),
    ...Object.entries(content.composed ?? {}).map(
      ([id, own]) => [`content.composed.${id}`, own] as const,
    ),
  ];
  const issues: DocumentIssue[] = [];
  for (const [id, asked] of Object.entries(content.questions ?? {})) {
    if (asked.kind !== 'result') continue;
    for (const [index, line] of asked.lines.entries()) {
      for (const [language, text] of Object.entries(line.text)) {
        for (const message of answerPlaceholderProblems(text, keys)) {
          issues.push({ path: `content.questions.${id}.lines.${index}.text.${language}`, message });
        }
      }
    }
  }
  for (const [at, own] of screens) {
    if (!own) continue;
    const bodies = [
      [at, own.copy] as const,
      ...Object.entries(own.variants ?? {}).map(
        ([name, variant]) => [`${at}.variants.${name}`, variant.copy] as const,
      ),
    ];
    for (const [path, copy] of bodies) {
      for (const [language, texts] of Object.entries(copy ?? {})) {
        for (const [key, text] of Object.entries(texts)) {
          for (const message of answerPlaceholderProblems(text, keys)) {
            issues.push({ path: `${path}.copy.${language}.${key}`, message });
          }
        }
      }
    }
  }
  return issues;
}

/** Every text of a question, by its path under the question. */
function textsOf(asked: Question): [string, Readonly<Record<string, string>>][] {
  const texts: [string, Readonly<Record<string, string>>][] = [['title', asked.title]];
  if (asked.subtitle) texts.push(['subtitle', asked.subtitle]);
  if ('choices' in asked) {
    for (const [index, choice] of asked.choices.entries()) {
      texts.push([`choices.${index}.label`, choice.label]);
    }
  }
  if (asked.kind === 'number' && asked.unit) texts.push(['unit', asked.unit]);
  if (asked.kind === 'result') {
    for (const [index, line] of asked.lines.entries())
      texts.push([`lines.${index}.text`, line.text]);
  }
  return texts;
}

function languageIssues(at: string, asked: Question): DocumentIssue[] {
  return textsOf(asked).flatMap(([path, texts]) =>
    Object.keys(texts)
      .filter((language) => !isShippedLanguage(language))
      .map((language) => ({
        path: `${at}.${path}.${language}`,
        message: 'is not a shipped language',
      })),
  );
}

function questionPictureIssues(
  at: string,
  asked: Question,
  pictures: PictureSizes | undefined,
): DocumentIssue[] {
  // A choice's picture sits beside its label, which names it: its alt text is optional, and the
  // page draws it as decoration (screens/quiz/QuestionForm.tsx). An info screen's says itself.
  const named =
    'choices' in asked
      ? asked.choices.flatMap((choice, index) =>
          choice.picture
            ? [[`${at}.choices.${index}.picture`, choice.picture, false] as const]
            : [],
        )
      : asked.kind === 'info' && asked.picture
        ? [[`${at}.picture`, asked.picture, true] as const]
        : [];
  return named.flatMap(([path, picture, alt]) =>
    namedPictureIssues(path, picture, pictures, true, alt),
  );
}

/**
 * The flows that ask questions, at `flows.flows.<flow>.<index>` or `flows.branches.<flow>…`: a
 * key two of its questions ask (one answer would overwrite the other), branches of a flow that
 * does not exist, and what flowBranchProblems finds.
 */
function quizFlowIssues(flows: FlowsDocument, content: ContentDocument): DocumentIssue[] {
  const issues: DocumentIssue[] = [];
  for (const name of Object.keys(flows.branches ?? {})) {
    if (!Object.hasOwn(flows.flows, name)) {
      issues.push({
        path: `flows.branches.${name}`,
        message: `names flow "${name}", which is not defined`,
      });
    }
  }
  const questionOf = (ref: string): AnsweredQuestion | null => {
    const asked =
      content.questions && Object.hasOwn(content.questions, ref)
        ? content.questions[ref]
        : undefined;
    return asked !== undefined && takesAnswer(asked) ? asked : null;
  };
  for (const [name, screens] of Object.entries(flows.flows)) {
    const branches = flows.branches?.[name] ?? {};
    const asks = screens.some((ref) => content.questions && Object.hasOwn(content.questions, ref));
    if (!asks && Object.keys(branches).length === 0) continue;
    issues.push(...repeatedKeyIssues(name, screens, questionOf));
    issues.push(...resultLineIssues(name, screens, content, questionOf));
    const sells = (ref: string) => {
      const drawn = screenOfRef(content, ref);
      return drawn !== null && isPaywallScreen(drawn);
    };
    for (const problem of flowBranchProblems({ screens, questionOf, sells }, branches)) {
      const path = problem.screen
        ? `flows.flows.${name}.${screens.indexOf(problem.path as (typeof screens)[number])}`
        : `flows.branches.${name}.${problem.path}`;
      issues.push({ path, message: problem.message });
    }
  }
  return issues;
}

/**
 * A result screen's lines in a flow that shows it: each condition on an answer a question before
 * it in that flow asks, a value one of its choices has (conditionProblems, as a branch's).
 */
function resultLineIssues(
  name: string,
  screens: readonly string[],
  content: ContentDocument,
  questionOf: (ref: string) => AnsweredQuestion | null,
): DocumentIssue[] {
  const issues: DocumentIssue[] = [];
  screens.forEach((ref, at) => {
    const shown =
      content.questions && Object.hasOwn(content.questions, ref)
        ? content.questions[ref]
        : undefined;
    if (shown?.kind !== 'result') return;
    const earlier = new Map(
      screens.slice(0, at).flatMap((screen) => {
        const asked = questionOf(screen);
        return asked ? [[asked.key, asked] as const] : [];
      }),
    );
    for (const [index, line] of shown.lines.entries()) {
      if (line.when === undefined) continue;
      const path = `content.questions.${ref}.lines.${index}.when`;
      for (const problem of conditionProblems(line.when, earlier, path)) {
        issues.push({ path: problem.path, message: `${problem.message} in flow "${name}"` });
      }
    }
  });
  return issues;
}

function repeatedKeyIssues(
  name: string,
  screens: readonly string[],
  questionOf: (ref: string) => AnsweredQuestion | null,
): DocumentIssue[] {
  const askedBy = new Map<string, string>();
  const issues: DocumentIssue[] = [];
  screens.forEach((ref, index) => {
    const key = questionOf(ref)?.key;
    if (key === undefined) return;
    const earlier = askedBy.get(key);
    if (earlier === undefined) {
      askedBy.set(key, ref);
      return;
    }
    issues.push({
      path: `flows.flows.${name}.${index}`,
      message: `asks "${key}", as "${earlier}" does before it: give each question of a flow its own key`,
    });
  });
  return issues;
}

/**
 * An experiment's conditions on a quiz answer (shared/config/routing.ts audienceCondition), at
 * `experiments.experiments.<id>.audience.groups.<g>.<c>`: each names the key of a single or
 * picture-choice question the content asks (one choice a visitor, which the audience reads), and
 * only its choices' values.
 */
export function answerAudienceIssues(
  experiments: ExperimentsDocument,
  content: ContentDocument,
): DocumentIssue[] {
  const choices = new Map<string, Set<string>>();
  for (const asked of Object.values(content.questions ?? {})) {
    if (!splitsResults(asked)) continue;
    const values = choices.get(asked.key) ?? new Set<string>();
    for (const choice of asked.choices) values.add(choice.value);
    choices.set(asked.key, values);
  }
  const issues: DocumentIssue[] = [];
  for (const [id, experiment] of Object.entries(experiments.experiments)) {
    (experiment.audience.groups ?? []).forEach((group, g) => {
      group.forEach((condition, c) => {
        const key = answerKeyOfName(condition.attribute);
        if (key === null) return;
        const path = `experiments.experiments.${id}.audience.groups.${g}.${c}`;
        const offered = choices.get(key);
        if (offered === undefined) {
          issues.push({
            path: `${path}.attribute`,
            message: `reads the answer "${key}", which no single or picture-choice question asks`,
          });
          return;
        }
        condition.values.forEach((value, index) => {
          if (!offered.has(String(value))) {
            issues.push({
              path: `${path}.values.${index}`,
              message: `"${value}" is none of the choices of the question asking "${key}" (${[...offered].join(', ')})`,
            });
          }
        });
      });
    });
  }
  return issues;
}
