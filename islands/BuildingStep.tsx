import { useEffect, useRef } from 'react';

/**
 * A quiz's `building` step (shared/quiz/question.ts): the plan being built for `seconds`, then
 * the step moves on by itself by posting its form, as Skip does at any time before. Without
 * script Skip is the way on (screens/quiz/QuestionForm.tsx draws the same button). A visitor
 * who asked for reduced motion sees the bar full at once; the step still waits its seconds, and
 * Skip is always there (WCAG 2.2.1: a time limit the visitor can end).
 */
export interface BuildingStepProps {
  seconds: number;
  /** The Skip button's label, translated on the server. */
  skip: string;
  /** What the bar says to a screen reader ("Building your plan"). */
  label: string;
}

export default function BuildingStep({ seconds, skip, label }: BuildingStepProps) {
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const timer = setTimeout(
      () => button.current?.form?.requestSubmit(button.current),
      seconds * 1000,
    );
    return () => clearTimeout(timer);
  }, [seconds]);
  return (
    <div className="quiz__building">
      <div className="quiz__building-bar" role="progressbar" aria-label={label}>
        <span className="quiz__building-fill" style={{ animationDuration: `${seconds}s` }} />
      </div>
      <button ref={button} type="submit" className="button button--primary quiz__continue">
        {skip}
      </button>
    </div>
  );
}
