import type { AreaScreens, ScreenProps } from '../types';
import { QuestionForm } from './QuestionForm';

/**
 * A quiz's question screen (shared/quiz/question.ts), drawn at each question's own path: its
 * form posts the answer there, and the worker takes the visitor on (worker/routes/screens/
 * continue-form.ts). The flow's progress is the page's (screens/layout/Page.tsx).
 */
function QuestionScreen({ asked, language, continueAction, t }: ScreenProps) {
  if (!asked) return null;
  return (
    <QuestionForm
      question={asked.question}
      answer={asked.answer}
      problem={asked.problem}
      lines={asked.lines}
      language={language}
      action={continueAction}
      t={t}
    />
  );
}

export const QUIZ_SCREENS = {
  question: { Component: QuestionScreen, offFlowNext: null, questionForm: true },
} satisfies AreaScreens;
