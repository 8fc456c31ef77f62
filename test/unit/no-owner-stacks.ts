import * as React from 'react';

/**
 * The unit files render in React's development build (Testing Library's `act` exists in no
 * other), which records where each element was made for its warnings' owner stacks: an `Error`
 * with ten frames and a `console.createTask` for each of up to 10,000 elements a second. A unit
 * file renders the whole console many times, so the unit project took 88.7 s alone with them and
 * 80.8 s without (one run each, idle machine, every test passing). The count React keeps of
 * the stacks it made this second is held above its limit here, so it makes none; a warning still
 * names the component, not the line that created the element. The pages themselves are held free
 * of React's warnings, with owner stacks, by test/worker/render/development-build.test.tsx.
 */
const internals = (
  React as unknown as Record<string, { recentlyCreatedOwnerStacks?: number } | undefined>
).__CLIENT_INTERNALS_DO_NOT_USE_OR_WARN_USERS_THEY_CANNOT_UPGRADE;
if (!internals || !('recentlyCreatedOwnerStacks' in internals)) {
  throw new Error(
    "React's internals no longer count owner stacks: drop test/unit/no-owner-stacks.ts",
  );
}
Object.defineProperty(internals, 'recentlyCreatedOwnerStacks', {
  configurable: true,
  get: () => Number.POSITIVE_INFINITY,
  set: () => {},
});
