import type { MiddlewareHandler } from 'hono';
import { createFactory } from 'hono/factory';
import { isScreenId } from '../../../shared/screens';
import type { AppEnv } from '../../request/envs';
import { callVisitOf, noteOn, pageRequestOf } from '../../request/visit';
import {
  answerPage,
  nextOf,
  pageVisitOf,
  queryOf,
  type Refused,
  type ScreenDeps,
  type Screens,
  shownOf,
} from './page-visit';
import { carryPostedPhone, carrySignedUp, readPhonePost, signUpFromForm } from './posted-forms';
import { answerQuestion } from './question-post';
import { showScreen } from './show-screen';

const factory = createFactory<AppEnv>();

/**
 * Runs `guard` on posts from the screens' own forms (phone, email, a quiz's answer) only; every
 * other Continue form keeps its plain redirect.
 */
export function onOwnForms(
  screens: Screens,
  guard: MiddlewareHandler<AppEnv>,
): MiddlewareHandler<AppEnv> {
  return factory.createMiddleware(function ownFormsOnly(c, next) {
    const shown = shownOf(c.get('config').content, c.req.param('screenId'));
    const definition = shown === null ? null : screens[shown.screen];
    const ownForm = Boolean(
      definition?.phoneForm || definition?.signUpForm || definition?.questionForm,
    );
    return ownForm ? guard(c, next) : next();
  });
}

/**
 * A screen's Continue form, posted before the island hydrated or with no script: the island's
 * work, done here. A landing's post is its phone form's, checked first as the island would
 * (./posted-forms.ts); a signup screen's is its email form's, which creates the account first
 * (./posted-forms.ts); a quiz question's is its answer, which decides the screen after it
 * (./question-post.ts). A refusal shows the screen again with what was posted.
 */
export function continueForm(deps: ScreenDeps) {
  return factory.createHandlers(async function continueFrom(c) {
    const { screens } = deps;
    const shown = shownOf(c.get('config').content, c.req.param('screenId'));
    if (!shown) return c.notFound();
    const { ref, screen } = shown;
    const search = queryOf(c.req.url);
    c.get('logFields').screen = ref;
    const showRefused = async (refused: Refused) =>
      answerPage(
        c,
        await showScreen(deps, await pageVisitOf(pageRequestOf(c), deps, shown), shown, refused),
      );
    if (screens[screen].phoneForm) {
      const post = await readPhonePost({
        request: c.req.raw,
        note: noteOn(c),
        country: c.get('country'),
      });
      if (!post.accepted) {
        if ('malformed' in post) return c.text(post.malformed.text, post.malformed.status);
        return showRefused({ phone: post.refused, status: 422 });
      }
      carryPostedPhone(c, post.e164, post.country);
    }
    if (screens[screen].questionForm) {
      const post = await answerQuestion(callVisitOf(c), ref, deps.api.now);
      if (!post.ok) {
        if ('malformed' in post) return c.text(post.malformed.text, post.malformed.status);
        return showRefused({ question: post.problem, status: post.status });
      }
      return c.redirect(post.next ? `/${post.next}${search}` : `/${ref}${search}`, 303);
    }
    if (screens[screen].signUpForm && isScreenId(screen)) {
      const post = await signUpFromForm(callVisitOf(c), c.get('t'), { ref, screen }, deps.api);
      if (!post.ok) {
        if ('malformed' in post) return c.text(post.malformed.text, post.malformed.status);
        return showRefused({ email: post.refused, status: post.status });
      }
      carrySignedUp(c, post.account);
    }
    const next = nextOf(screens, shown, { flow: c.get('flow'), content: c.get('config').content });
    return c.redirect(next ? `/${next}${search}` : `/${ref}${search}`, 303);
  });
}
