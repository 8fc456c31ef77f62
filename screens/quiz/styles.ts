/**
 * A question screen's rules (QuestionForm.tsx): the choices as full-width cards a thumb reaches,
 * 56 high as the Continue button (SPEC.md §9), a picture choice's tiles two to a row, the chosen
 * one framed in the brand's colour, and the problem said in the error colour above the controls.
 */
export const QUIZ_CSS = `
.quiz{display:flex;flex-direction:column;gap:16px}
.quiz__question{border:0;margin:0;padding:0;min-width:0;display:flex;flex-direction:column;gap:12px}
.quiz__legend{padding:0;margin:0 0 4px}
.quiz__title{font:700 24px/1.25 var(--font);margin:0}
.quiz__title:focus{outline:none}
.quiz__subtitle{margin:0;color:var(--muted)}
.quiz__problem{margin:0;color:#b42318;font-weight:600}
.quiz__choices{display:flex;flex-direction:column;gap:10px}
.quiz__choices--pictures{display:grid;grid-template-columns:1fr 1fr;gap:10px}
.quiz__choice{display:flex;align-items:center;gap:12px;min-height:56px;padding:12px 16px;
  border:2px solid var(--muted);border-radius:12px;background:var(--surface);color:var(--ink);
  font:500 17px/1.3 var(--font);text-align:start;cursor:pointer}
.quiz__choices--pictures .quiz__choice{flex-direction:column;align-items:stretch;padding:8px}
.quiz__choice[aria-pressed=true],.quiz__choice:has(input:checked){border-color:var(--brand)}
.quiz__choice:focus-visible,.quiz__choice:has(input:focus-visible){outline:3px solid var(--brand);
  outline-offset:2px}
.quiz__choice input{width:20px;height:20px;margin:0;accent-color:var(--brand)}
.quiz__label{flex:1}
.quiz__picture img{display:block;width:100%;height:auto;border-radius:8px}
.quiz__field{display:flex;align-items:center;gap:8px}
.quiz__input{display:flex;flex:1;min-width:0}
.quiz__input input{flex:1;min-width:0;height:56px;padding:0 16px;border:2px solid var(--muted);
  border-radius:12px;font:500 17px var(--font);background:var(--surface);color:var(--ink)}
.quiz__input input[aria-invalid=true]{border-color:#b42318}
.quiz__unit{color:var(--muted)}
.quiz__continue{margin-top:8px}
.quiz__result{margin:0;padding:0;list-style:none;display:flex;flex-direction:column;gap:10px}
.quiz__result-line{position:relative;padding-inline-start:28px;font:500 17px/1.4 var(--font)}
.quiz__result-line::before{content:'';position:absolute;inset-inline-start:4px;top:.45em;width:12px;height:12px;
  border-radius:50%;background:var(--brand)}
.quiz__building{display:flex;flex-direction:column;gap:16px}
.quiz__building-bar{height:8px;border-radius:4px;overflow:hidden;background:color-mix(in srgb,var(--muted) 25%,transparent)}
.quiz__building-fill{display:block;height:100%;width:100%;background:var(--brand);transform-origin:left;
  animation:quiz-build linear both}
[dir=rtl] .quiz__building-fill{transform-origin:right}
@keyframes quiz-build{fromtransform:scaleX(0)totransform:scaleX(1)}
@media (prefers-reduced-motion:reduce){.quiz__building-fillanimation:none}
`;
