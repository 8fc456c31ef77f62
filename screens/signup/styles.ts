import { OPEN_IN_BROWSER_CSS } from '../kit/styles/open-in-browser';
import { splitCss } from '../kit/styles/split';
import { TESTIMONIALS_CSS } from '../kit/styles/testimonials';

/**
 * From a tablet's 768 (two columns about a phone's width each) and on a desktop: the form beside
 * what speaks for it, the families' words on signup_testim and the trust promises on signup,
 * drawn there as a list of their own, each centred against the form's height so that neither
 * column ends half a screen before the other.
 */
const SIGNUP_DESKTOP_CSS = `${splitCss({
  screens: ['.signup'],
  // On signup_testim the trust promises stay under the form, the testimonials beside it.
  sides: ['.signup__testimonials', '.trust-labels:not(.signup__testimonials~*)'],
  from: 768,
})}
@media (min-width:768px){
.signup>:is(.signup__testimonials,.trust-labels:not(.signup__testimonials~*)){align-self:center}
.signup>.trust-labels:not(.signup__testimonials~*){flex-direction:column;align-items:flex-start;gap:16px;margin:0;padding:24px;
  border-radius:12px;background:var(--surface);font-size:17px}
.signup>.trust-labels:not(.signup__testimonials~*) .trust-labels__icon{width:24px;height:24px}
}`;

/** CSS of the signup screens, inlined in every page with the rest of the critical CSS. */
export const SIGNUP_CSS = `
.signup-form{display:flex;flex-direction:column;gap:16px;margin:0 0 16px}
.google-signin{width:100%;max-width:343px;min-height:44px;margin:0 auto 16px}
.google-signin__placeholder{display:flex;align-items:center;justify-content:center;gap:10px;
  width:100%;height:44px;padding-inline:12px;border:1px solid #dadce0;border-radius:4px;
  background:#fff;color:#1f1f1f;font:500 15px/1 var(--font);cursor:pointer}
.google-signin__placeholder:focus-visible{outline:3px solid var(--brand);outline-offset:2px}
.google-signin__mark{flex:none}
.google-signin__message{margin:8px 0 0;color:#b42318;font-size:14px;text-align:center}
.google-signin__message:empty{display:none}
.google-signin__message--aside{display:flex;align-items:center;justify-content:center;min-height:44px;
  margin:0;padding-inline:8px;color:var(--muted);font-size:13px;line-height:16px}
.email-taken__next{color:var(--ink)}
.email-taken__actions{display:flex;flex-wrap:wrap;gap:4px 20px;margin-top:4px}
.email-taken__actions a,.email-taken__another{display:inline-flex;align-items:center;min-height:32px;
  padding:0;border:0;background:none;color:var(--brand);font:600 14px var(--font);
  text-decoration:underline;cursor:pointer}
.signup__privacy{color:var(--muted);font-size:14px;margin:0 0 24px;text-align:center}
${TESTIMONIALS_CSS}${OPEN_IN_BROWSER_CSS}
${SIGNUP_DESKTOP_CSS}
`;
